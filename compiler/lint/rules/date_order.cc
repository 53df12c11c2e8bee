// date-order: an error is first seen before it is last confirmed or updated.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void date_order(const Entry& entry, const EntryContext&, Reporter& report) {
  const auto first_seen = parse_date(entry.text("/first_seen"));
  if (!first_seen || !first_seen->ok()) return;
  for (const char* later : {"/last_confirmed", "/last_updated"}) {
    const auto date = parse_date(entry.text(later));
    if (date && date->ok() && *date < *first_seen) {
      report.at_value(entry, "/first_seen",
                      "first_seen " + std::string(entry.text("/first_seen")) + " is after " +
                          std::string(later + 1) + " " + std::string(entry.text(later)));
    }
  }
}

}  // namespace

constinit const Rule kDateOrder = {
    .id = "date-order",
    .severity = Severity::kWarning,
    .summary = "first_seen after last_confirmed or last_updated",
    .local = date_order,
};

}  // namespace kbc::rules
