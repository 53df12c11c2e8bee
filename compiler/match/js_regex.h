// An entry's RE2 regex in JavaScript syntax, for the site's paste box (site/assets/match.js),
// which must find what `kbc match` finds; or the reason it cannot be written so.
//
// There is no library for this: js_regex() scans the RE2 syntax (as entry_regex_options()
// compiles it: UTF-8, leftmost-first, `.` not matching \n, `^`/`$` at the ends of the text)
// and writes each item in a form that matches exactly the same text in JavaScript with the `u`
// flag (so that, as in RE2, an item matches a code point, not a UTF-16 unit). Leftmost-first
// backtracking picks the same match as RE2 does, so a translated regex gives the same span.
//
//   same in both           literals, `|`, groups, `*` `+` `?` `{n,m}` and their lazy forms,
//                          `\d \D \w \W`, `\n \t \r \f \v`, classes of characters and ranges,
//                          and (?i)'s case folding (both use Unicode's simple case folding)
//   written differently    `(?i)` at the start: the `i` flag; `(?s)`, `(?m)`, `(?U)` anywhere:
//                          `.` as `[^\n]` or `[^]`, `^`/`$` under (?m) as `(?<![^\n])` and
//                          `(?![^\n])` (JavaScript's `.`, `^`, `$` also stop at \r, U+2028,
//                          U+2029), lazy and greedy swapped; `\A` `\z` as `^` `$`; `\s` as
//                          `[\t\n\f\r ]` (JavaScript's also holds \v and Unicode spaces);
//                          `(?P<name>` as `(?<name>`; `\Q..\E` as escaped literals; `[[:alpha:]]`
//                          as ranges; `\pL`, `\p{Greek}` as `\p{L}`, `\p{Script=Greek}`
//                          (`\p{C}` as Cc|Cf|Co|Cs: RE2's C leaves out unassigned code points);
//                          octal and `\x{..}` escapes as `\x..`/`\u{..}`; escaped punctuation
//                          that the `u` flag forbids to escape (`\ `, `\"`, `\-`) as itself, and
//                          `{ } ]` that RE2 takes as literals escaped
//   refused                `\C`; case-insensitivity switched on or off after the start
//                          (`(?-i)`, `(?i:..)`, `a(?i)b`); under (?i), `\b`/`\B` (JavaScript
//                          then counts U+017F and U+212A as word characters) and a negated
//                          Unicode class inside a character class (JavaScript folds its
//                          complement differently); an optional or repeated part that can match
//                          the empty string (`(|a)?`, `(a?)*`: JavaScript refuses an empty
//                          optional pass and backtracks, RE2 takes it); a regex that can match
//                          the empty string where an assertion allows (RE2 tries `\B` inside a
//                          UTF-8 sequence, V8 inside a surrogate pair); anything the scanner
//                          does not recognise as RE2 syntax
//
// Refusing is the safe side: an entry whose regex is refused still matches on the site by its
// signature, and lint's regex-js rule says so. Meant for patterns RE2 accepts; other text gives
// a refusal or an unspecified translation, never a crash.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kbc {

struct JsRegex {
  bool ok = false;
  std::string source;  // for `new RegExp(source, flags)`, when ok
  std::string flags;   // "u" or "iu", when ok
  std::string reason;  // why it cannot be expressed, when not ok
  // A prefilter, when ok: every text the regex matches contains one of these (ASCII letters
  // compared lower-cased, as they are written here); empty when no literal is certain. Made of
  // ASCII literals that match only themselves and their other case, so it never misses: the
  // paste box skips the regex on a line without any of them, as kbc match skips by RE2's atoms.
  std::vector<std::string> needs;
};

JsRegex js_regex(std::string_view re2_pattern);

}  // namespace kbc
