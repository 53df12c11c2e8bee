// recipe-invalid, evidence-stale, evidence-failed and evidence-regex: an entry's reproduce block
// and what kbc verify last recorded of it in verify.lock. Cross-entry rules, because they read
// files besides the entry's own (the recipe file and the lock), which kb.digest covers.
#include <re2/re2.h>

#include "base/text.h"
#include "lint/rules/rules.h"
#include "match/regex_index.h"
#include "model/recipe.h"

namespace kbc::rules {
namespace {

void recipe_invalid(const Entry& entry, const LintContext& context, Reporter& report) {
  RecipeProblem problem;
  if (!read_recipe(entry, context.kb.recipe_files, &problem) && !problem.message.empty())
    report.at_key(entry, problem.pointer, problem.message);
  const auto* expect = entry.find("/reproduce/expect");
  if (!expect || !expect->is_string()) return;
  const RE2 regex(expect->get<std::string>(), entry_regex_options());
  if (!regex.ok())
    report.at_value(entry, "/reproduce/expect", "not a valid RE2 regex: " + regex.error());
}

// The evidence of the entry and its recipe, when it has both.
struct Recorded {
  const Evidence* evidence = nullptr;
  std::optional<Recipe> recipe;
};
Recorded recorded(const Entry& entry, const LintContext& context) {
  Recorded out;
  const auto it = context.kb.evidence.find(entry.id());
  if (it == context.kb.evidence.end()) return out;
  out.recipe = read_recipe(entry, context.kb.recipe_files);
  if (out.recipe) out.evidence = &it->second;
  return out;
}

void evidence_stale(const Entry& entry, const LintContext& context, Reporter& report) {
  const Recorded r = recorded(entry, context);
  if (!r.evidence || r.evidence->recipe_digest == r.recipe->digest) return;
  report.at_key(entry, "/reproduce",
                "the recipe changed since kbc verify " +
                    std::string(r.evidence->reproduced() ? "reproduced the error" : "ran it") +
                    " on " + r.evidence->date + ": run kbc verify " + entry.id());
}

void evidence_failed(const Entry& entry, const LintContext& context, Reporter& report) {
  const Recorded r = recorded(entry, context);
  if (!r.evidence || r.evidence->reproduced() || r.evidence->recipe_digest != r.recipe->digest)
    return;
  const std::string where = environment_summary(r.evidence->environment);
  report.at_key(entry, "/reproduce",
                "kbc verify did not reproduce the error on " + r.evidence->date +
                    (where.empty() ? "" : " (" + where + ")") + ": " + r.evidence->reason);
}

void evidence_regex(const Entry& entry, const LintContext& context, Reporter& report) {
  const Recorded r = recorded(entry, context);
  if (!r.evidence || !r.evidence->reproduced() || !r.recipe->expect_is_regex ||
      r.evidence->recipe_digest != r.recipe->digest)
    return;
  const RE2 regex(std::string(entry.text("/regex")), entry_regex_options());
  if (!regex.ok() || RE2::PartialMatch(r.evidence->line, regex)) return;
  report.at_value(entry, "/regex",
                  "the regex no longer matches the line kbc verify recorded on " +
                      r.evidence->date + ": '" + printable_utf8(r.evidence->line) + "'");
}

}  // namespace

constinit const Rule kRecipeInvalid = {
    .id = "recipe-invalid",
    .severity = Severity::kError,
    .summary =
        "a reproduce block with no script or several, a missing script file, or an "
        "expect that is not a valid RE2 regex",
    .cross_entry = recipe_invalid,
};
constinit const Rule kEvidenceStale = {
    .id = "evidence-stale",
    .severity = Severity::kWarning,
    .summary = "the recipe changed since kbc verify last ran it (verify.lock)",
    .cross_entry = evidence_stale,
};
constinit const Rule kEvidenceFailed = {
    .id = "evidence-failed",
    .severity = Severity::kWarning,
    .summary = "kbc verify ran the recipe as it is and did not reproduce the error",
    .cross_entry = evidence_failed,
};
constinit const Rule kEvidenceRegex = {
    .id = "evidence-regex",
    .severity = Severity::kWarning,
    .summary = "the regex no longer matches the output line that kbc verify recorded",
    .cross_entry = evidence_regex,
};

}  // namespace kbc::rules
