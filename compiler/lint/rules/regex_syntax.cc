// regex-syntax: the regex must compile under RE2, the engine every consumer uses.
#include "lint/rules/rules.h"

namespace kbc::rules {

void regex_syntax(const Entry& entry, const LintContext& context, Reporter& report) {
  const std::string& error = context.regex_error[context.index_of(entry)];
  if (!error.empty())
    report.at_value(entry, "/regex", "regex does not compile under RE2: " + error);
}

}  // namespace kbc::rules
