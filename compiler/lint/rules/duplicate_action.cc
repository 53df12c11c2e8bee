// entry-duplicate-action: the same action listed twice in one list, usually a paste error.
#include <map>

#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void duplicate_action(const Entry& entry, const EntryContext&, Reporter& report) {
  for (const char* list : {"/dead_ends", "/workarounds"}) {
    std::map<std::string_view, std::size_t> seen;  // action -> index of its first item
    std::size_t index = 0;
    for_each_item(entry, list, [&](const std::string& item, const auto&) {
      const std::string_view action = entry.text(item + "/action");
      if (is_blank(action)) return ++index, void();
      const auto [it, inserted] = seen.emplace(action, index++);
      if (!inserted) {
        report.at_value(
            entry, item + "/action",
            "same action as " + std::string(list + 1) + "[" + std::to_string(it->second) + "]");
      }
    });
  }
}

}  // namespace

constinit const Rule kEntryDuplicateAction = {
    .id = "entry-duplicate-action",
    .severity = Severity::kWarning,
    .summary = "the same action twice in the dead ends or the workarounds",
    .local = duplicate_action,
};

}  // namespace kbc::rules
