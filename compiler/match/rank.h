// The ranking of `kbc match`: which entry best explains an error line.
//
// A hit is an entry whose pattern (its regex, or its signature as literal text) matches a line.
// Hits are ranked by a tuple of small integers, compared in this order, larger first, and then
// by entry id, in byte order, smaller first:
//
//   score        how well the hit explains the text, one number (hit_score, below): what the
//                pattern says (a literal signature more than a regex, a long text more than a
//                short one), how much of the line it covers, what part the line plays in the log
//                (log_lines.h: the line that states the error most, a stack frame least) and,
//                for a regex, how broad it is (breadth_penalty). The threshold of `kbc match`
//                (--min-score) is on this number.
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
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbc {

struct Rank {
  int score = 0;
  int error_line = 0;
  int coverage = 0;
  int specificity = 0;
  int signature = 0;
  int fix_rate = 0;

  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  auto operator<=>(const Rank&) const = default;
};

// The parts of a hit's score. A pattern's evidence is its specificity, capped at
// kMaxSpecificity, times kSpecificityWeight, plus kSignatureBonus when the hit is the entry's
// signature found as literal text; then a tenth of the line's literal coverage (0-100: the
// coverage of its specificity, floor(1000 * specificity / line code points), so that a regex
// whose match is mostly `.*` covers little) and the line's weight.
constexpr int kMaxSpecificity = 80;
constexpr int kSpecificityWeight = 5;
constexpr int kSignatureBonus = 100;
// A regex's hit on a line that holds, as a whole word, an error code of the entry (a code word
// of near_match.h in its signature, an alias or its error_code: "NU1101", "AADSTS700016",
// "CUDNN_STATUS_BAD_PARAM"), ignoring case: the code says as much as the signature would.
constexpr int kCodeBonus = 100;
constexpr int kKeyLineWeight = 150;
constexpr int kErrorLineWeight = 100;
constexpr int kContextLineWeight = -200;
// The default threshold of `kbc match`: a hit scoring below it is not shown. A regex of 10
// literal characters (50) on an error line (100) passes, and on a line without an error word
// one of 30; a catch-all of a few words on ordinary output does not.
constexpr int kDefaultMinScore = 150;

enum class LineKind;
int hit_score(bool by_signature, int specificity, std::size_t line_code_points, LineKind kind);

// What a regex's breadth takes from the score of its hits: how many lines of the benign corpus
// (ordinary output, match/benign_corpus.h) it matches, and how many other errors' signatures
// (entries of another `domain/name`). A regex that fires on ordinary output loses
// kBenignPenalty plus one per line (at most 100 more); each other error it matches, 20 (at most
// 10 of them).
constexpr int kBenignPenalty = 100;
int breadth_penalty(int benign_lines, int other_errors);

// floor(1000 * matched / line) for code-point counts, line > 0.
int coverage_permille(std::size_t matched, std::size_t line);

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

// The alternatives of a pattern that is an alternation at its top ("a|b", or "(a|b)" and
// "(?:a|b)" as a whole), each with the pattern's leading flags ("(?i)"); empty when it is not.
// `regex_specificity` counts an alternation by its weakest alternative, which is right for what
// any match must hold; a hit is scored by the alternative it matched, the most specific of those
// that match its text in full.
std::vector<std::string> top_alternatives(std::string_view pattern);

// The top-level alternatives that require more literal text than the whole pattern does, with
// their specificity, most specific first (the first on a tie): those a hit may be scored by.
std::vector<std::pair<int, std::string>> specific_alternatives(std::string_view pattern);

}  // namespace kbc
