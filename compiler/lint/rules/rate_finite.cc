// entry-rate-finite: NaN compares false with every bound, so the schema's [0, 1] range lets it
// through; this rule catches NaN and the infinities.
#include <cmath>

#include "lint/rules/rules.h"
#include "validate/schema_validator.h"

namespace kbc::rules {
namespace {

void check_rate(const Entry& entry, const std::string& pointer, Reporter& report) {
  const auto* node = entry.find(pointer);
  if (node && node->is_number_float() && !std::isfinite(node->get<double>())) {
    report.at_value(entry, pointer, display_name(pointer) + " must be a finite number in [0, 1]");
  }
}

void rate_finite(const Entry& entry, const EntryContext&, Reporter& report) {
  check_rate(entry, "/confidence", report);
  check_rate(entry, "/fix_success_rate", report);
  for_each_item(entry, "/dead_ends", [&](const std::string& item, const auto&) {
    check_rate(entry, item + "/fail_rate", report);
  });
  for_each_item(entry, "/workarounds", [&](const std::string& item, const auto&) {
    check_rate(entry, item + "/success_rate", report);
  });
  for (std::string_view list : kGraphLists) {
    for_each_item(entry, list, [&](const std::string& item, const auto&) {
      check_rate(entry, item + "/probability", report);
    });
  }
}

}  // namespace

constinit const Rule kEntryRateFinite = {
    .id = "entry-rate-finite",
    .severity = Severity::kError,
    .summary =
        "a rate, probability or confidence is NaN or infinite (the schema checks the [0, 1] range)",
    .local = rate_finite,
    .required = true,
};

}  // namespace kbc::rules
