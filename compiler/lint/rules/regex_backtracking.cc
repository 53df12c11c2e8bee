// regex-backtracking: kbc match runs regexes in RE2, in linear time, but the site's paste box runs
// them in the browser's backtracking engine (js_regex.h), where a repeated part whose passes can
// split one text in many ways (backtracking.h) takes exponential time on a near miss.
#include "lint/backtracking.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

constexpr std::string_view kRisk =
    ": a JavaScript engine (the site's paste box) can take exponential time on a text that "
    "almost matches; RE2 and kbc match are not affected. ";

std::string message(const Backtracking& found) {
  if (found.kind == Backtracking::kNestedRepetition)
    return "regex nests the repetition '" + found.inner + "' in the repeated part '" +
           found.repeated + "', so its passes can split one text in many ways" +
           std::string(kRisk) +
           "Let only one of them repeat ('a+' rather than '(a+)+'), or end each pass with a "
           "character that '" +
           found.inner + "' cannot match";
  return "regex repeats '" + found.repeated + "', whose alternatives '" + found.inner + "' and '" +
         found.other + "' can match the same text, so its passes can split one text in many ways" +
         std::string(kRisk) +
         "Make the alternatives match different text, or merge them into one class ('\\w+' "
         "rather than '(\\w|\\d)+')";
}

void regex_backtracking(const Entry& entry, const EntryContext& context, Reporter& report) {
  if (!context.regex) return;  // none, or regex-syntax's
  if (const auto found = find_backtracking(entry.text("/regex")))
    report.at_value(entry, "/regex", message(*found));
}

}  // namespace

constinit const Rule kRegexBacktracking = {
    .id = "regex-backtracking",
    .severity = Severity::kWarning,
    .summary =
        "a repeated part of the regex can split one text in many ways, as in (a+)+ or (a|a)*, so "
        "a JavaScript engine (the site's paste box) can take exponential time over it",
    .local = regex_backtracking,
};

}  // namespace kbc::rules
