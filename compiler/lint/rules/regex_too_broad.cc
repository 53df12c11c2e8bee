// regex-too-broad: the regex fires on text that is not its error. Four signs, each its own
// finding, from the strongest:
//
//   - it matches a line of the benign corpus (match/benign_corpus.h: ordinary output of
//     package managers, builds, test runs, clusters, GPU tools, ML frameworks; and kbc.yaml's
//     `benign` files): it fires on logs where nothing went wrong;
//   - it ignores case and runs `.*` or `.+` between two words ("(?i)UNKNOWN.*error"), and
//     matches another entry's text only because the gap spans more than 40 characters;
//   - it leaves a dot unescaped between digits ("6.4"), which matches "6x4" and pod hashes;
//   - it matches the signatures or samples of entries in three or more other domains.
//
// Where a narrower form is mechanical (the dot escaped, the gap bounded, `\b` at a word's edge,
// case kept) and still matches the entry's own signature and samples but none of the benign
// lines found, the message gives it.
#include <optional>
#include <set>

#include "lint/rules/rules.h"
#include "match/breadth.h"
#include "match/log_lines.h"
#include "match/rank.h"
#include "match/regex_index.h"

namespace kbc::rules {
namespace {

// A hit in this many other domains or more.
constexpr std::size_t kOtherDomains = 3;
// How the findings that read only the entry and the benign corpus begin (see regex_too_broad).
constexpr std::string_view kBenignFinding = "regex matches ordinary output";
constexpr std::string_view kDigitDotFinding = "regex leaves the dot";
constexpr std::string_view kWordGapFinding = "regex ignores case and runs";

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The pattern's positions of unescaped metacharacters `c` outside character classes.
std::vector<std::size_t> bare(std::string_view pattern, char c) {
  std::vector<std::size_t> out;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
    } else if (in_class) {
      in_class = pattern[i] != ']';
    } else if (pattern[i] == '[') {
      in_class = true;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;
    } else if (pattern[i] == c) {
      out.push_back(i);
    }
  }
  return out;
}

bool ignores_case(std::string_view pattern) {
  return pattern.starts_with("(?i)") ||
         (pattern.starts_with("(?") && pattern.find('i') < pattern.find(')'));
}

// The dots with a literal digit on each side ("6.4", not "\d.4").
std::vector<std::size_t> digit_dots(std::string_view pattern) {
  std::vector<std::size_t> out;
  for (const std::size_t at : bare(pattern, '.')) {
    const bool before = at > 0 && is_digit(pattern[at - 1]) && (at < 2 || pattern[at - 2] != '\\');
    const bool after = at + 1 < pattern.size() && is_digit(pattern[at + 1]);
    if (before && after) out.push_back(at);
  }
  return out;
}

// The `.*` and `.+` with a letter on each side ("UNKNOWN.*error").
std::vector<std::size_t> word_gaps(std::string_view pattern) {
  std::vector<std::size_t> out;
  for (const std::size_t at : bare(pattern, '.')) {
    if (at == 0 || at + 2 >= pattern.size()) continue;
    const char quantifier = pattern[at + 1];
    if ((quantifier == '*' || quantifier == '+') && is_letter(pattern[at - 1]) &&
        is_letter(pattern[at + 2]))
      out.push_back(at);
  }
  return out;
}

// Built anew rather than by insert(): GCC 12 warns wrongly (-Wrestrict) on the latter.
std::string escaped_dots(const std::string& pattern) {
  const std::vector<std::size_t> dots = digit_dots(pattern);
  std::string out;
  std::size_t from = 0;
  for (const std::size_t at : dots) {
    out.append(pattern, from, at - from).append("\\");
    from = at;
  }
  return out.append(pattern, from, std::string::npos);
}

std::string bounded_gaps(const std::string& pattern) {
  const std::vector<std::size_t> gaps = word_gaps(pattern);
  std::string out;
  std::size_t from = 0;
  for (const std::size_t at : gaps) {
    out.append(pattern, from, at - from).append(pattern[at + 1] == '*' ? ".{0,40}" : ".{1,40}");
    from = at + 2;
  }
  return out.append(pattern, from, std::string::npos);
}

// `\b` before a first letter and after a last one, where the pattern has none.
std::string word_edges(const std::string& pattern) {
  const std::size_t start = pattern.starts_with("(?i)") ? 4 : 0;
  std::string out = pattern.substr(0, start);
  if (start < pattern.size() && is_letter(pattern[start])) out += "\\b";
  out.append(pattern, start, std::string::npos);
  if (!pattern.empty() && is_letter(pattern.back())) out += "\\b";
  return out;
}

std::string case_kept(const std::string& pattern) {
  return pattern.starts_with("(?i)") ? pattern.substr(4) : pattern;
}

// Whether a regex's leftmost match in a text is not empty (finds_not_empty). Where a match
// starts is found by a reverse program that RE2 compiles the first time it is asked, as costly
// as the regex's own (for a bounded form: a third of this rule's time at 25,000 entries), so
// whether the regex may match the empty text is worked out once.
class Finds {
 public:
  explicit Finds(const RE2& regex) : regex_(regex), may_be_empty_(may_match_empty(regex)) {}

  bool operator()(std::string_view text) const {
    return finds_not_empty(regex_, text, may_be_empty_);
  }

 private:
  const RE2& regex_;
  bool may_be_empty_;
};

// The first of the narrower forms that compiles, still matches every own text the regex
// matches, and matches none of `avoid` (normalized lines); "" when none does.
std::string narrower(const RE2& regex, const Entry& entry, const std::vector<std::string>& avoid) {
  const std::string& pattern = regex.pattern();
  const std::string forms[] = {escaped_dots(pattern), bounded_gaps(pattern), word_edges(pattern),
                               case_kept(pattern),
                               word_edges(case_kept(bounded_gaps(escaped_dots(pattern))))};
  std::vector<std::string_view> own;
  for (const std::string& pointer : own_text_pointers(entry)) own.push_back(entry.text(pointer));
  std::set<std::string> tried;
  const Finds finds(regex);
  for (const std::string& form : forms) {
    if (form == pattern || !tried.insert(form).second) continue;
    const RE2 candidate(form, regex.options());
    if (!candidate.ok()) continue;
    const Finds in_candidate(candidate);
    const auto keeps = [&](std::string_view text) { return !finds(text) || in_candidate(text); };
    const auto avoids = [&](const std::string& text) { return !in_candidate(text); };
    if (std::all_of(own.begin(), own.end(), keeps) &&
        std::all_of(avoid.begin(), avoid.end(), avoids))
      return form;
  }
  return "";
}

std::string domain_of(std::string_view id) { return std::string(id.substr(0, id.find('/'))); }

void benign_lines(const Entry& entry, const RE2& regex, const LintContext& context,
                  Reporter& report) {
  const Breadth& breadth = context.breadth[context.index_of(entry)];
  if (breadth.some_benign.empty()) return;
  std::vector<std::string> lines;
  for (const std::uint32_t id : breadth.some_benign) {
    std::string buffer;
    lines.emplace_back(normalized_line(context.benign[id].text, buffer));
  }
  const BenignLine& first = context.benign[breadth.some_benign.front()];
  std::string message = std::string(kBenignFinding) + ", " + std::to_string(breadth.benign_lines);
  message.append(breadth.benign_lines == 1 ? " line" : " lines")
      .append(" of the benign corpus, such as '")
      .append(first.text)
      .append("' (")
      .append(first.file)
      .append(":")
      .append(std::to_string(first.line))
      .append(")");
  if (const std::string form = narrower(regex, entry, lines); !form.empty())
    message.append("; '").append(form).append("' would not match it");
  report.at_value(entry, "/regex", std::move(message));
}

// Reported with a text of an entry of another domain that the regex matches only through the
// gap: the gap bounded to 40 characters would not match it.
// Needs only the pattern: the regex matched the hits, so it compiles; the bounded form is
// compiled once a hit of another domain needs it.
void word_gap(const Entry& entry, const std::string& pattern, const LintContext& context,
              Reporter& report) {
  const std::vector<std::size_t> gaps = word_gaps(pattern);
  if (gaps.empty() || !ignores_case(pattern)) return;
  std::optional<RE2> bounded;
  std::optional<Finds> in_bounded;
  const std::string own = domain_of(entry.id());
  for (const RegexHit& hit : context.hits[context.index_of(entry)]) {
    const Entry& other = context.kb.entries[hit.entry];
    if (domain_of(other.id()) == own) continue;  // a related error, maybe
    if (!bounded) bounded.emplace(bounded_gaps(pattern), entry_regex_options());
    if (!bounded->ok()) return;
    if (!in_bounded) in_bounded.emplace(*bounded);
    if ((*in_bounded)(other.text(hit.pointer))) continue;
    std::size_t from = gaps[0], to = gaps[0] + 2;
    while (from > 0 && is_letter(pattern[from - 1])) --from;
    while (to < pattern.size() && is_letter(pattern[to])) ++to;
    std::string message = std::string(kWordGapFinding) + " '";
    message.append(pattern, gaps[0], 2)
        .append("' between words ('")
        .append(pattern, from, to - from)
        .append("') across unrelated text: it matches '")
        .append(other.id())
        .append("' (")
        .append(other.path)
        .append(":")
        .append(std::to_string(other.value_at(hit.pointer).line))
        .append(") only that way; '")
        .append(bounded->pattern())
        .append("' would not");
    report.at_value(entry, "/regex", std::move(message));
    return;
  }
}

void digit_dot(const Entry& entry, std::string_view pattern, Reporter& report) {
  const std::vector<std::size_t> dots = digit_dots(pattern);
  if (dots.empty()) return;
  std::size_t from = dots[0], to = dots[0] + 1;
  while (from > 0 && is_digit(pattern[from - 1])) --from;
  while (to < pattern.size() && is_digit(pattern[to])) ++to;
  std::string message = std::string(kDigitDotFinding) + " of '";
  message.append(pattern.substr(from, to - from))
      .append("' unescaped, so it matches any character there (a version, a pod hash); write '")
      .append(escaped_dots(std::string(pattern)))
      .append("'");
  report.at_value(entry, "/regex", std::move(message));
}

void other_domains(const Entry& entry, const LintContext& context, Reporter& report) {
  const std::string own = domain_of(entry.id());
  std::set<std::string> domains;
  for (const RegexHit& hit : context.hits[context.index_of(entry)]) {
    const std::string domain = domain_of(context.kb.entries[hit.entry].id());
    if (domain != own) domains.insert(domain);
  }
  if (domains.size() < kOtherDomains) return;
  std::string list;
  for (const std::string& domain : domains) list += (list.empty() ? "" : ", ") + domain;
  report.at_value(entry, "/regex",
                  "regex matches the signatures or samples of entries in " +
                      std::to_string(domains.size()) + " other domains (" + list +
                      "): it recognises more than its own error");
}

void regex_too_broad(const Entry& entry, const LintContext& context, Reporter& report) {
  const auto* node = entry.find("/regex");
  if (!node || !node->is_string()) return;
  const std::string_view pattern = entry.text("/regex");
  const auto* previous = context.previous(entry);
  // The compiled regex: a lint after an edit compiles only the changed entries' (lint.cc), and
  // this rule runs on every entry, so the others' is compiled here when a sign needs it.
  std::optional<RE2> own;
  const auto regex = [&]() -> const RE2* {
    if (const RE2* compiled = context.regex[context.index_of(entry)]) return compiled;
    if (!own) own.emplace(std::string(pattern), entry_regex_options());
    return own->ok() ? &*own : nullptr;
  };
  const bool same_hits = previous && context.hits_as_before(context.index_of(entry));
  if (previous) {
    // The file and the benign corpus are as the last lint saw them (and, with same_hits, the
    // texts its regex matches): what it found from those alone still holds, without compiling
    // the regex and its narrower or bounded forms again.
    for (const Diagnostic& finding : *previous) {
      if (finding.rule == kRegexTooBroad.id &&
          (finding.message.starts_with(kBenignFinding) ||
           finding.message.starts_with(kDigitDotFinding) ||
           (same_hits && finding.message.starts_with(kWordGapFinding))))
        report.again(finding);
    }
  } else if (context.breadth[context.index_of(entry)].benign_lines > 0) {
    if (const RE2* compiled = regex()) benign_lines(entry, *compiled, context, report);
  }
  if (!same_hits && !context.hits[context.index_of(entry)].empty())
    word_gap(entry, std::string(pattern), context, report);
  if (!previous && !digit_dots(pattern).empty() && regex()) digit_dot(entry, pattern, report);
  other_domains(entry, context, report);
}

}  // namespace

constinit const Rule kRegexTooBroad = {
    .id = "regex-too-broad",
    .severity = Severity::kWarning,
    .summary =
        "the regex matches ordinary output (a line of the benign corpus, quoted), runs .* between "
        "words ignoring case across another domain's text, leaves a dot unescaped between digits, "
        "or matches entries of three or more other domains; with a narrower form where one is "
        "mechanical",
    .cross_entry = regex_too_broad,
    .with_regex_chunk = true,
};

}  // namespace kbc::rules
