// JSON pointers (RFC 6901), which diagnostics carry and rules look nodes up by, escaped and
// split by nlohmann::json_pointer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kbc {

// Appends `key` to a pointer, escaping '~' and '/' ("/a" + "b/c" -> "/a/b~1c").
std::string pointer_append(std::string_view pointer, std::string_view key);

// The unescaped segments of a pointer ("" has none). Throws nlohmann::json::parse_error for
// text that is not a pointer.
std::vector<std::string> split_pointer(std::string_view pointer);

// One segment of a pointer with "~1" and "~0" read as '/' and '~'.
std::string unescape_pointer_segment(std::string_view escaped);

}  // namespace kbc
