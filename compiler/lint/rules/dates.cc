// date-invalid and date-order: dates are real calendar days, in a sensible order.
#include <chrono>
#include <optional>

#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

constexpr const char* kDates[] = {"/first_seen", "/last_confirmed", "/last_updated"};

// The date when `text` has the schema's YYYY-MM-DD shape (else the schema reports it).
std::optional<std::chrono::year_month_day> parse_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](std::size_t at, std::size_t length) {
    int value = 0;
    for (std::size_t i = at; i < at + length; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (year < 0 || month < 0 || day < 0) return std::nullopt;
  return std::chrono::year_month_day{std::chrono::year(year),
                                     std::chrono::month(static_cast<unsigned>(month)),
                                     std::chrono::day(static_cast<unsigned>(day))};
}

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
