#include "match/benign_corpus.h"

#include "base/text.h"
#include "resources.h"

namespace kbc {

void append_benign_lines(std::string_view text, std::string_view file,
                         std::vector<BenignLine>& out) {
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = trim(text.substr(0, newline));
    ++number;
    if (!line.empty()) out.push_back({line, file, number});
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
}

std::vector<BenignLine> benign_lines_with(const std::vector<BenignFile>& files) {
  std::vector<BenignLine> lines = builtin_benign_lines();
  for (const BenignFile& file : files) append_benign_lines(file.text, file.path, lines);
  return lines;
}

const std::vector<BenignLine>& builtin_benign_lines() {
  static const std::vector<BenignLine> lines = [] {
    std::vector<BenignLine> out;
    for (const auto& [name, text] : embedded_resources_under("compiler/match/benign/"))
      append_benign_lines(text, name, out);
    return out;
  }();
  return lines;
}

}  // namespace kbc
