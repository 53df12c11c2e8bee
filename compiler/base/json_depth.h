// JSON parsed with a bound on its nesting. nlohmann's parser keeps its own stack, but a document
// nested 300,000 arrays deep is still a tree that every recursive walk (a copy, a conversion)
// overflows the stack on, and a line of 15 MiB of '[' becomes 1.2 GB of nodes. Bundles and MCP
// messages are a few levels deep: a text nested deeper is refused as it is read.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace kbc {

class JsonTooDeep : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `text` parsed as `Json` (nlohmann::json or ordered_json); throws nlohmann's parse errors, and
// JsonTooDeep when it nests more than `most_depth` arrays and objects.
template <typename Json>
Json parse_json_within(std::string_view text, int most_depth) {
  return Json::parse(
      text.begin(), text.end(), [most_depth](int depth, typename Json::parse_event_t, Json&) {
        if (depth > most_depth) {
          throw JsonTooDeep("nested deeper than " + std::to_string(most_depth) + " levels");
        }
        return true;
      });
}

}  // namespace kbc
