#include "base/json_pointer.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kbc {

using nlohmann::json;

std::string pointer_append(std::string_view pointer, std::string_view key) {
  std::string out(pointer);
  if (key.find_first_of("~/") == std::string_view::npos)  // the loader's every key: no escape
    return out.append("/").append(key);
  return out + (json::json_pointer() / std::string(key)).to_string();
}

std::vector<std::string> split_pointer(std::string_view pointer) {
  json::json_pointer rest{std::string(pointer)};
  std::vector<std::string> segments;
  for (; !rest.empty(); rest.pop_back()) segments.push_back(rest.back());
  std::reverse(segments.begin(), segments.end());
  return segments;
}

std::string unescape_pointer_segment(std::string_view escaped) {
  return json::json_pointer("/" + std::string(escaped)).back();
}

}  // namespace kbc
