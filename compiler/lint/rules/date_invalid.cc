// date-invalid: a date in the shape YYYY-MM-DD (the schema's pattern) is a real calendar day.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

constexpr const char* kDates[] = {"/first_seen", "/last_confirmed", "/last_updated"};

void date_invalid(const Entry& entry, const EntryContext&, Reporter& report) {
  for (const char* pointer : kDates) {
    const auto date = parse_date(entry.text(pointer));
    if (date && !date->ok()) {
      report.at_value(entry, pointer,
                      "'" + std::string(entry.text(pointer)) + "' is not a calendar date");
    }
  }
}

}  // namespace

constinit const Rule kDateInvalid = {
    .id = "date-invalid",
    .severity = Severity::kError,
    .summary = "a date that is not a real calendar date",
    .local = date_invalid,
    .required = true,
};

}  // namespace kbc::rules
