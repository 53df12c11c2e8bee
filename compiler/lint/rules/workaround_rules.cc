// entry-how-repeats-action and entry-resolvable-rate: workarounds that say something.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
void how_repeats_action(const Entry& entry, const LintContext&, Reporter& report) {
  for_each_item(entry, "/workarounds", [&](const std::string& item, const auto&) {
    const std::string_view how = trim(entry.text(item + "/how"));
    if (!how.empty() && how == trim(entry.text(item + "/action"))) {
      report.at_value(entry, item + "/how",
                      "how repeats the action: show the command or code instead");
    }
  });
}

void resolvable_rate(const Entry& entry, const LintContext&, Reporter& report) {
  const auto* rate = entry.find("/fix_success_rate");
  const std::string_view resolvable = entry.text("/resolvable");
  if (!rate || !rate->is_number()) return;
  const double value = rate->get<double>();
  if ((resolvable == "true" && value < 0.5) || (resolvable == "false" && value >= 0.5)) {
    report.at_value(
        entry, "/resolvable",
        "resolvable is '" + std::string(resolvable) + "' but fix_success_rate is " + rate->dump());
  }
}

}  // namespace kbc::rules
