// regex-no-match: a regex that misses its own signature or samples recognises nothing useful.
#include <re2/re2.h>

#include "lint/rules/rules.h"

namespace kbc::rules {

void regex_no_match(const Entry& entry, const LintContext& context, Reporter& report) {
  const RE2* regex = context.regex[context.index_of(entry)];
  if (!regex) return;
  const auto* signature = entry.find("/signature");
  if (signature && signature->is_string() && !RE2::PartialMatch(entry.text("/signature"), *regex)) {
    report.at_value(entry, "/regex", "regex does not match the signature");
  }
  for_each_item(entry, "/samples", [&](const std::string& pointer, const auto& sample) {
    if (sample.is_string() && !RE2::PartialMatch(entry.text(pointer), *regex)) {
      report.at_value(entry, pointer, "regex does not match this sample");
    }
  });
}

}  // namespace kbc::rules
