// regex-js: the site's paste box runs each regex as JavaScript (js_regex.h); a regex that has no
// exact JavaScript form is left out there, so the box finds the entry by its signature only.
#include "lint/rules/rules.h"
#include "match/js_regex.h"

namespace kbc::rules {
namespace {

void regex_js(const Entry& entry, const EntryContext& context, Reporter& report) {
  if (!context.regex) return;  // none, or regex-syntax's
  const JsRegex js = js_regex(entry.text("/regex"));
  if (!js.ok) {
    report.at_value(entry, "/regex",
                    "regex has no exact JavaScript form, so the site's paste box finds this entry "
                    "by its signature only (kbc match also uses the regex): " +
                        js.reason);
  }
}

}  // namespace

constinit const Rule kRegexJs = {
    .id = "regex-js",
    .severity = Severity::kWarning,
    .summary =
        "the regex has no exact JavaScript form, so the site's paste box matches the entry by its "
        "signature only",
    .local = regex_js,
};

}  // namespace kbc::rules
