// The explicit list of every lint rule, in the order --list-rules prints them. Adding a rule:
// its file in rules/ (its check and its Rule), its declaration in rules/rules.h, its fixtures
// in tests/lint/, and one line here. The rules reported by an earlier stage have no check and
// are described here.
#include "lint/rule.h"
#include "lint/rules/rules.h"

namespace kbc {

const std::vector<Rule>& all_rules() {
  using S = Severity;
  static const std::vector<Rule> kRules = {
      // Reported while loading and validating (see load/ and validate/).
      {
          .id = "yaml-syntax",
          .severity = S::kError,
          .summary = "the file is not valid YAML (shown with the line and a caret)",
          .required = true,
      },
      {
          .id = "yaml-encoding",
          .severity = S::kError,
          .summary = "the file contains bytes that are not UTF-8",
          .required = true,
      },
      {
          .id = "yaml-structure",
          .severity = S::kError,
          .summary = "empty file, several documents, a root that is not a mapping, or a file too "
                     "large, too deep or expanding too far through aliases",
          .required = true,
      },
      {
          .id = "yaml-duplicate-key",
          .severity = S::kError,
          .summary = "a key appears twice in one mapping",
          .required = true,
      },
      {
          .id = "entry-file",
          .severity = S::kError,
          .summary = "a file under entries/ that kbc does not read: a symbolic link (never "
                     "followed) or a file ending in .yml",
          .required = true,
      },
      {
          .id = "schema",
          .severity = S::kError,
          .summary = "a value departs from schema/entry.schema.json: type, required key, enum, "
                     "range or pattern",
          .required = true,
      },
      {
          .id = "schema-unknown-key",
          .severity = S::kError,
          .summary = "a key the schema does not know, with a did-you-mean",
          .required = true,
      },
      // Entry rules.
      rules::kEntryBlankText,
      rules::kEntryIdPath,
      rules::kEntryDuplicateId,
      rules::kEntryRateFinite,
      rules::kEntryResolvableRate,
      rules::kEntryDuplicateAction,
      rules::kEntryHowRepeatsAction,
      rules::kTextWhitespace,
      rules::kDateInvalid,
      rules::kDateOrder,
      rules::kSourceUrl,
      // Regex rules.
      rules::kRegexSyntax,
      rules::kRegexNoMatch,
      rules::kRegexCounterSample,
      rules::kRegexOverlap,
      rules::kRegexTooBroad,
      rules::kRegexJs,
      rules::kRegexBacktracking,
      rules::kEntryUnreachable,
      // Cross-references.
      rules::kXrefUnknown,
      rules::kXrefSelf,
      // Translations.
      rules::kI18nLength,
      rules::kI18nMissing,
      // Reproduction recipes and kbc verify's evidence.
      rules::kRecipeInvalid,
      rules::kEvidenceStale,
      rules::kEvidenceFailed,
      rules::kEvidenceRegex,
      {
          .id = "evidence-file",
          .severity = S::kError,
          .summary = "verify.lock is not valid JSON or not in the shape kbc verify writes",
          .required = true,
      },
      // Reported while reading kbc.yaml (see model/config.cc).
      {
          .id = "config-language",
          .severity = S::kError,
          .summary = "kbc.yaml lists a language twice, or one without UI strings "
                     "(templates/strings/<code>.json)",
          .required = true,
      },
      {
          .id = "config-benign",
          .severity = S::kError,
          .summary = "a file of kbc.yaml's benign list is missing, outside the knowledge base, too "
                     "large or not UTF-8",
          .required = true,
      },
      {
          .id = "config-image",
          .severity = S::kError,
          .summary = "kbc.yaml's logo or favicon is missing, outside the knowledge base, too large "
                     "or not an image format the site can use",
          .required = true,
      },
      // Reported while applying kbc.yaml and the kbc-disable comments (see suppressions.cc).
      {
          .id = "config-unknown-rule",
          .severity = S::kError,
          .summary = "kbc.yaml names a rule that does not exist (under rules or exclude), with a "
                     "did-you-mean",
          .required = true,
      },
      {
          .id = "config-required-rule",
          .severity = S::kError,
          .summary = "kbc.yaml turns off or down a required rule, or excludes entries from a rule "
                     "that cannot be suppressed",
          .required = true,
      },
      {
          .id = "suppression-invalid",
          .severity = S::kWarning,
          .summary = "a kbc-disable comment with an unknown directive, no rule, an unknown rule or "
                     "a rule that cannot be suppressed",
      },
      {
          .id = "suppression-unused",
          .severity = S::kWarning,
          .summary = "a kbc-disable comment or a kbc.yaml exclusion that suppresses nothing",
      },
  };
  return kRules;
}

}  // namespace kbc
