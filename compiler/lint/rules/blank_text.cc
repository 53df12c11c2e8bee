// entry-blank-text: a required text that says nothing. The defect that started kbc: published
// dead ends whose action was the empty string.
#include "base/text.h"
#include "lint/rules/rules.h"
#include "validate/schema_validator.h"

namespace kbc::rules {
namespace {

void check_text(const Entry& entry, const std::string& pointer, Reporter& report) {
  const auto* node = entry.find(pointer);
  if (!node || !node->is_string() || !is_blank(node->get_ref<const std::string&>())) return;
  report.at_value(entry, pointer, display_name(pointer) + " is blank");
}

void blank_text(const Entry& entry, const EntryContext&, Reporter& report) {
  for (const char* key : {"/signature", "/regex", "/category", "/root_cause"})
    check_text(entry, key, report);
  for_each_item(entry, "/dead_ends", [&](const std::string& item, const auto&) {
    const auto* action = entry.find(item + "/action");
    if (action && action->is_string() && is_blank(action->template get_ref<const std::string&>())) {
      report.at_value(entry, item + "/action",
                      display_name(item) + " has a blank action: name the fix that does not work");
    }
    check_text(entry, item + "/why_fails", report);
  });
  for_each_item(entry, "/workarounds", [&](const std::string& item, const auto&) {
    check_text(entry, item + "/action", report);
  });
}

}  // namespace

constinit const Rule kEntryBlankText = {
    .id = "entry-blank-text",
    .severity = Severity::kError,
    .summary =
        "a required text (signature, regex, root_cause, category, dead-end action and why_fails, "
        "workaround action) is empty or only white space",
    .local = blank_text,
};

}  // namespace kbc::rules
