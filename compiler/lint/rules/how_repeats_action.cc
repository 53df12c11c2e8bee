// entry-how-repeats-action: a workaround's how shows the command or code, not the action again.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void how_repeats_action(const Entry& entry, const EntryContext&, Reporter& report) {
  for_each_item(entry, "/workarounds", [&](const std::string& item, const auto&) {
    const std::string_view how = trim(entry.text(item + "/how"));
    if (!how.empty() && how == trim(entry.text(item + "/action"))) {
      report.at_value(entry, item + "/how",
                      "how repeats the action: show the command or code instead");
    }
  });
}

}  // namespace

constinit const Rule kEntryHowRepeatsAction = {
    .id = "entry-how-repeats-action",
    .severity = Severity::kWarning,
    .summary = "a workaround's how only repeats its action",
    .local = how_repeats_action,
};

}  // namespace kbc::rules
