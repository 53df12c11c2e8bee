// date-invalid and date-order: dates are real calendar days, in a sensible order.
#include <chrono>
#include <optional>

#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

constexpr const char* kDates[] = {"/first_seen", "/last_confirmed", "/last_updated"};

}  // namespace

void date_invalid(const Entry& entry, const LintContext&, Reporter& report) {
  for (const char* pointer : kDates) {
    const auto date = parse_date(entry.text(pointer));
    if (date && !date->ok()) {
      report.at_value(entry, pointer,
                      "'" + std::string(entry.text(pointer)) + "' is not a calendar date");
    }
  }
}

void date_order(const Entry& entry, const LintContext&, Reporter& report) {
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

}  // namespace kbc::rules
