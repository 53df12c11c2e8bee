// text-whitespace: leading or trailing white space in a text. In real data this is where a
// shell substitution ate a command (`Run  to fix`). The final newline that a YAML block scalar
// (`|` or `>`) ends with is normal and is not reported.
#include "base/json_pointer.h"
#include "base/text.h"
#include "lint/rules/rules.h"
#include "validate/schema_validator.h"

namespace kbc::rules {
namespace {

bool has_stray_space(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  return has_outer_space(text);
}

void walk(const Entry& entry, const nlohmann::json& node, const std::string& pointer,
          Reporter& report) {
  if (node.is_string()) {
    if (has_stray_space(node.get_ref<const std::string&>()) &&
        !is_blank(node.get_ref<const std::string&>())) {
      report.at_value(entry, pointer,
                      display_name(pointer) + " has leading or trailing white space");
    }
  } else if (node.is_object()) {
    for (const auto& [key, child] : node.items())
      walk(entry, child, pointer_append(pointer, key), report);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      walk(entry, node[i], pointer + "/" + std::to_string(i), report);
  }
}

void text_whitespace(const Entry& entry, const EntryContext&, Reporter& report) {
  walk(entry, entry.data, "", report);
}

}  // namespace

constinit const Rule kTextWhitespace = {
    .id = "text-whitespace",
    .severity = Severity::kWarning,
    .summary =
        "text with leading or trailing white space (often where shell substitution ate a command)",
    .local = text_whitespace,
};

}  // namespace kbc::rules
