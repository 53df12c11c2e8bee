// entry-resolvable-rate: resolvable agrees with fix_success_rate (true from 0.5 up).
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void resolvable_rate(const Entry& entry, const EntryContext&, Reporter& report) {
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

}  // namespace

constinit const Rule kEntryResolvableRate = {
    .id = "entry-resolvable-rate",
    .severity = Severity::kWarning,
    .summary = "resolvable 'true' with fix_success_rate below 0.5, or 'false' with 0.5 or more",
    .local = resolvable_rate,
};

}  // namespace kbc::rules
