// regex-counter-sample: the author said this message is not this error, but the regex says it is.
#include <re2/re2.h>

#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void regex_counter_sample(const Entry& entry, const EntryContext& context, Reporter& report) {
  const RE2* regex = context.regex;
  if (!regex) return;
  for_each_item(entry, "/counter_samples", [&](const std::string& pointer, const auto& sample) {
    if (sample.is_string() && RE2::PartialMatch(entry.text(pointer), *regex)) {
      report.at_value(entry, pointer, "regex matches this counter-sample");
    }
  });
}

}  // namespace

constinit const Rule kRegexCounterSample = {
    .id = "regex-counter-sample",
    .severity = Severity::kError,
    .summary = "the regex matches one of the counter_samples",
    .local = regex_counter_sample,
};

}  // namespace kbc::rules
