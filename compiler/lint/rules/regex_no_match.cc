// regex-no-match: a regex that misses its own signature or samples recognises nothing useful.
#include <re2/re2.h>

#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void regex_no_match(const Entry& entry, const EntryContext& context, Reporter& report) {
  const RE2* regex = context.regex;
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

}  // namespace

constinit const Rule kRegexNoMatch = {
    .id = "regex-no-match",
    .severity = Severity::kError,
    .summary = "the regex does not match the signature or one of the samples",
    .local = regex_no_match,
};

}  // namespace kbc::rules
