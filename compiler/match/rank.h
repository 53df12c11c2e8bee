// The ranking of `kbc match`: which entry best explains an error line.
//
// A hit is an entry whose pattern (its regex, or its signature as literal text) matches a line.
// Hits are ranked by a tuple of small integers, compared in this order, larger first, and then
// by entry id, in byte order, smaller first:
//
//   error_line   1 when the line looks like an error (looks_like_error), else 0: in a log, an
//                error line outranks a line that merely mentions the same words
//   coverage     how much of the line the match spans: floor(1000 * m / n), where m and n count
//                the code points of the match and of the line (without leading and trailing
//                ASCII white space)
//   specificity  how much literal text the pattern requires (regex_specificity; for the
//                signature, its code points): of two patterns that cover the line alike, the
//                one that says more about it wins over a catch-all
//   signature    1 when the match is the entry's signature, 0 when it is its regex: of two
//                matches as good, the entry that gives this very text as its message
//   fix_rate     the entry's fix_success_rate in per-mille, rounded half up: the fix more
//                likely to work first
//
// Only integers, and only code points (not bytes or UTF-16 units), so that another
// implementation (the site's JavaScript) reproduces the order exactly; the tests pin it.
#pragma once

#include <compare>
#include <cstddef>
#include <string_view>
#include <vector>

namespace kbc {

struct Rank {
  int error_line = 0;
  int coverage = 0;
  int specificity = 0;
  int signature = 0;
  int fix_rate = 0;

  auto operator<=>(const Rank&) const = default;
};

// Number of code points in UTF-8 text: the bytes that do not continue a sequence.
std::size_t code_points(std::string_view text);

// floor(1000 * matched / line) for code-point counts, line > 0.
int coverage_permille(std::size_t matched, std::size_t line);

// A rate in [0, 1] as a whole number of per-mille, rounded half up; 0 for NaN.
int rate_permille(double rate);

// True when the line contains, ignoring case as RE2's (?i) does, one of the words of kErrorWords
// in rank.cc ("error", "exception", "fatal", "fail", "traceback", ...).
bool looks_like_error(std::string_view line);
// Those words, lowercase: a line looks like an error when, as fold_for_atoms folds it, it holds
// one of them.
const std::vector<std::string_view>& error_words();

// How far into a line its severity is looked for: past a timestamp, a thread and a logger name.
constexpr std::size_t kSeverityBytes = 64;

// True when the line declares a severity below an error: one of the words INFO, DEBUG or TRACE,
// in capitals and as a whole word, within its first kSeverityBytes bytes ("2024-06-01 12:00:00
// INFO [main] ready", "DEBUG:root:cache hit").
bool declares_low_severity(std::string_view line);

// The number of literal code points any match of an RE2 pattern must contain. It is read from
// the pattern's text, as RE2 does not expose its parse tree: a literal character counts 1, and
// so does an escaped one (`\.`, `\n`, `\x41`); `\Q...\E` counts its text; classes (`[...]`,
// `\d`, `\pL`), `.`, anchors and flags count 0; an item under `?`, `*` or `{0,n}` counts 0;
// a group counts its alternative with the fewest literals. So `(?i)cuda error: out of memory`
// counts 25, `(?i)cuda.*error` 9 and `(?i)(oom|out of memory)` 3. Meant for patterns RE2
// accepts; any other text still gives a number, without failing.
int regex_specificity(std::string_view pattern);

}  // namespace kbc
