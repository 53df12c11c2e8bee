#include "base/glob.h"

#include <fnmatch.h>

#include <string>
#include <vector>

namespace kbc {
namespace {

std::vector<std::string> segments(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t slash = text.find('/', start);
    out.emplace_back(text.substr(start, slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

bool match_from(const std::vector<std::string>& pattern, std::size_t p,
                const std::vector<std::string>& name, std::size_t n) {
  if (p == pattern.size()) return n == name.size();
  if (pattern[p] == "**") {
    for (std::size_t skip = n; skip <= name.size(); ++skip) {
      if (match_from(pattern, p + 1, name, skip)) return true;
    }
    return false;
  }
  return n < name.size() && fnmatch(pattern[p].c_str(), name[n].c_str(), 0) == 0 &&
         match_from(pattern, p + 1, name, n + 1);
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view name) {
  return match_from(segments(pattern), 0, segments(name), 0);
}

}  // namespace kbc
