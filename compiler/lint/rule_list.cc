// The explicit list of every lint rule. Adding a rule: its file in rules/, its fixtures in
// tests/lint/, and one line here.
#include "lint/rule.h"
#include "lint/rules/rules.h"

namespace kbc {

const std::vector<Rule>& all_rules() {
  using S = Severity;
  constexpr bool kRequired = true;  // see Rule::required
  constexpr bool kOptional = false;
  constexpr bool kCrossEntry = true;  // see Rule::cross_entry
  static const std::vector<Rule> kRules = {
      // Reported while loading and validating (see load/ and validate/).
      {"yaml-syntax", S::kError, "the file is not valid YAML (shown with the line and a caret)",
       nullptr, kRequired},
      {"yaml-encoding", S::kError, "the file contains bytes that are not UTF-8", nullptr,
       kRequired},
      {"yaml-structure", S::kError,
       "empty file, several documents, a root that is not a mapping, or a file too large, too deep "
       "or expanding too far through aliases",
       nullptr, kRequired},
      {"yaml-duplicate-key", S::kError, "a key appears twice in one mapping", nullptr, kRequired},
      {"entry-file", S::kError,
       "a file under entries/ that kbc does not read: a symbolic link (never followed) or a file "
       "ending in .yml",
       nullptr, kRequired},
      {"schema", S::kError,
       "a value departs from schema/entry.schema.json: type, required key, enum, range or pattern",
       nullptr, kRequired},
      {"schema-unknown-key", S::kError, "a key the schema does not know, with a did-you-mean",
       nullptr, kRequired},
      // Entry rules.
      {"entry-blank-text", S::kError,
       "a required text (signature, regex, root_cause, category, dead-end action and why_fails, "
       "workaround action) is empty or only white space",
       rules::blank_text},
      {"entry-id-path", S::kError,
       "the id differs from the file's path under entries/, or the domain from the id's first "
       "segment",
       rules::id_path, kRequired},
      {"entry-duplicate-id", S::kError, "two files declare the same id", rules::duplicate_id,
       kRequired, kCrossEntry},
      {"entry-rate-finite", S::kError,
       "a rate, probability or confidence is NaN or infinite (the schema checks the [0, 1] range)",
       rules::rate_finite, kRequired},
      {"entry-resolvable-rate", S::kWarning,
       "resolvable 'true' with fix_success_rate below 0.5, or 'false' with 0.5 or more",
       rules::resolvable_rate},
      {"entry-duplicate-action", S::kWarning,
       "the same action twice in the dead ends or the workarounds", rules::duplicate_action},
      {"entry-how-repeats-action", S::kWarning, "a workaround's how only repeats its action",
       rules::how_repeats_action},
      {"text-whitespace", S::kWarning,
       "text with leading or trailing white space (often where shell substitution ate a command)",
       rules::text_whitespace},
      {"date-invalid", S::kError, "a date that is not a real calendar date", rules::date_invalid,
       kRequired},
      {"date-order", S::kWarning, "first_seen after last_confirmed or last_updated",
       rules::date_order},
      {"source-url", S::kError,
       "a source URL that is not http(s) or points at a local or private address",
       rules::source_url},
      // Regex rules.
      {"regex-syntax", S::kError, "the regex does not compile under RE2 (with RE2's message)",
       rules::regex_syntax, kRequired},
      {"regex-no-match", S::kError, "the regex does not match the signature or one of the samples",
       rules::regex_no_match},
      {"regex-counter-sample", S::kError, "the regex matches one of the counter_samples",
       rules::regex_counter_sample},
      {"regex-overlap", S::kWarning,
       "the regex matches another entry's signature or sample, and that entry is not in "
       "frequently_confused_with",
       rules::regex_overlap, kOptional, kCrossEntry},
      {"regex-too-broad", S::kWarning,
       "the regex matches ordinary output (a line of the benign corpus, quoted), runs .* between "
       "words ignoring case across another domain's text, leaves a dot unescaped between digits, "
       "or matches entries of three or more other domains; with a narrower form where one is "
       "mechanical",
       rules::regex_too_broad, kOptional, kCrossEntry},
      {"regex-js", S::kWarning,
       "the regex has no exact JavaScript form, so the site's paste box matches the entry by its "
       "signature only",
       rules::regex_js},
      {"entry-unreachable", S::kError,
       "kbc match ranks another entry first for the entry's own signature (named), so no lookup "
       "returns it",
       rules::entry_unreachable, kOptional, kCrossEntry},
      // Cross-references.
      {"xref-unknown", S::kError, "a transition_graph error_id that names no entry",
       rules::xref_unknown, kOptional, kCrossEntry},
      {"xref-self", S::kError, "a transition_graph error_id that names the entry itself",
       rules::xref_self},
      // Translations.
      {"i18n-length", S::kError,
       "a translated list (workarounds_zh, dead_ends_ja, ...) has a different length than its list",
       rules::i18n_length, kRequired},
      {"i18n-missing", S::kWarning,
       "a translated text (signature_zh, ...) is missing or blank where the base language's exists",
       rules::i18n_missing},
      // Reported while reading kbc.yaml (see model/config.cc).
      {"config-language", S::kError,
       "kbc.yaml lists a language twice, or one without UI strings (templates/strings/<code>.json)",
       nullptr, kRequired},
      {"config-benign", S::kError,
       "a file of kbc.yaml's benign list is missing, outside the knowledge base, too large or not "
       "UTF-8",
       nullptr, kRequired},
      // Reported while applying kbc.yaml and the kbc-disable comments (see suppressions.cc).
      {"config-unknown-rule", S::kError,
       "kbc.yaml names a rule that does not exist (under rules or exclude), with a did-you-mean",
       nullptr, kRequired},
      {"config-required-rule", S::kError,
       "kbc.yaml turns off or down a required rule, or excludes entries from a rule that cannot be "
       "suppressed",
       nullptr, kRequired},
      {"suppression-invalid", S::kWarning,
       "a kbc-disable comment with an unknown directive, no rule, an unknown rule or a rule that "
       "cannot be suppressed",
       nullptr},
      {"suppression-unused", S::kWarning,
       "a kbc-disable comment or a kbc.yaml exclusion that suppresses nothing", nullptr},
  };
  return kRules;
}

}  // namespace kbc
