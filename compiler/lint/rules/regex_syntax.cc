// regex-syntax: the regex must compile under RE2, the engine every consumer uses.
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void regex_syntax(const Entry& entry, const EntryContext& context, Reporter& report) {
  const std::string& error = context.regex_error;
  if (!error.empty())
    report.at_value(entry, "/regex", "regex does not compile under RE2: " + error);
}

}  // namespace

constinit const Rule kRegexSyntax = {
    .id = "regex-syntax",
    .severity = Severity::kError,
    .summary = "the regex does not compile under RE2 (with RE2's message)",
    .local = regex_syntax,
    .required = true,
};

}  // namespace kbc::rules
