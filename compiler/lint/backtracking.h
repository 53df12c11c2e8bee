// Regexes that a backtracking engine can take exponential time over, for lint's
// regex-backtracking rule.
//
// kbc match runs regexes in RE2, in linear time; the site's paste box runs them in the browser
// (match/js_regex.h), whose engine backtracks: on a text that almost matches, it tries every way
// of splitting the text among the parts of the regex before it gives up. `(a+)+$` splits a run
// of n a's in 2^(n-1) ways, and 35 characters blocked a tab for 14 seconds. find_backtracking()
// reads the regex as RE2 does (with js_regex_items.h's ItemReader for classes and escapes) and
// looks for a part repeated many times (*, +, {n,}, or {n,m} with m of 10 or more) whose passes
// can split one text in two ways, in the two classic shapes, and only where it can show that:
//
//   nested repetition     a pass holds an unbounded repetition X* / X+ / X{n,}, and the rest of
//                         the pass can match the empty string or, where X is one character or
//                         class, text that X matches too: `(a+)+`, `(a*)*`, `(\w+\s?)+`,
//                         `(?:[a-z]+\d*)+`, `(a+|b)+`, `(.*,)*`. The text of two passes is then
//                         also the text of one. Not `(\w+\.)+`, `([^,]*,)*` or `(?:[0-9]+ )*`,
//                         whose every pass ends with a character the inner repetition cannot
//                         match, nor `(\w+\b)+`, whose assertion holds only at the end of a word.
//   overlapping           a pass holds an alternation two of whose alternatives are strings of
//   alternatives          single characters or classes, of the same length, that match a common
//                         text (`(a|a)*`, `(\w|\d)+`, `(.|\s)*`); or, when the alternation is the
//                         whole pass, one of which matches a repetition of the other (`(a|aa)*`).
//                         Not `(a|ab)*`, which splits each text one way only, nor `(.|\n)*`
//                         (`.` does not match a newline), nor longer or repeated alternatives,
//                         whose overlap is not decided.
//
// Whether two characters or classes overlap is decided by RE2 itself: a literal character is
// matched against the other item; two classes are matched against sample characters (every code
// point to U+02FF, and one in 97 beyond to U+FFFF), and one that both match shows the overlap;
// when none does, nothing is claimed. Such a part is found wherever it stands, even at the end
// of the regex, where nothing after it can fail: the paste box also runs each top-level
// alternative anchored at both ends. Left out on purpose: adjacent repetitions of common
// characters (`.*.*x`, `\d+.*\d+$`), which take polynomial time, not exponential: they are
// ordinary in error regexes, and slow only on very long lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kbc {

struct Backtracking {
  enum Kind { kNestedRepetition, kOverlappingAlternatives };
  Kind kind = kNestedRepetition;
  std::string repeated;  // the repeated part, as written: "(a+)+"
  std::string inner;     // the repetition inside it ("a+"), or the first alternative
  std::string other;     // the second alternative (kOverlappingAlternatives)
};

// The first (outermost, then leftmost) repeated part of an RE2 pattern that can split a text in
// exponentially many ways; nullopt when there is none, or the pattern is not RE2 syntax.
std::optional<Backtracking> find_backtracking(std::string_view re2_pattern);

}  // namespace kbc
