#include "verify/capture.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace kbc {

namespace {

// The byte offset where line `line` (1-based) begins; text.size() past the end.
std::size_t line_start(std::string_view text, int line) {
  std::size_t at = 0;
  for (int l = 1; l < line && at < text.size(); ++l) {
    const auto end = text.find('\n', at);
    if (end == std::string_view::npos) return text.size();
    at = end + 1;
  }
  return at;
}

// A YAML double-quoted scalar holding `text`: JSON's escapes are YAML's.
std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::optional<std::string> with_sample(std::string_view text, const Entry& entry,
                                       const std::string& line) {
  std::string out(text);
  if (!out.empty() && out.back() != '\n') out += '\n';
  const auto& samples = entry.list("/samples");
  if (!entry.find("/samples")) return out + "samples:\n- " + quoted(line) + "\n";
  const int key_line = entry.key_at("/samples").line;
  if (samples.empty()) return std::nullopt;  // `samples: []`: flow style
  // The first item's dash gives the indentation of the list.
  const int first_line = entry.value_at("/samples/0").line;
  const std::size_t first = line_start(out, first_line);
  const std::size_t dash = out.find_first_not_of(' ', first);
  if (first_line == key_line || dash == std::string::npos || out[dash] != '-') return std::nullopt;
  const std::string indent = out.substr(first, dash - first);
  // The new item goes before the next top-level key after the list, or at the end.
  int next_line = 0;
  if (entry.data.is_object()) {
    for (const auto& [key, value] : entry.data.items()) {
      const int at = entry.key_at("/" + key).line;
      if (at > key_line && (next_line == 0 || at < next_line)) next_line = at;
    }
  }
  const std::size_t insert_at = next_line == 0 ? out.size() : line_start(out, next_line);
  out.insert(insert_at, indent + "- " + quoted(line) + "\n");
  return out;
}

}  // namespace kbc
