// The items of an RE2 pattern that js_regex.cc's translator does not need to understand, only to
// rewrite: characters, escapes and classes, read as RE2's parser reads them and written in
// JavaScript (`u` flag) as literals, code-point ranges, POSIX classes and Unicode properties.
// Used by js_regex and by lint's backtracking check (lint/backtracking.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbc::js {

using Range = std::pair<char32_t, char32_t>;
using Ranges = std::vector<Range>;

// Characters that need a backslash to be literal in JavaScript with the `u` flag, outside and
// inside a class (`/` too, so that the source also works between slashes).
constexpr std::string_view kSyntaxCharacters = "^$\\.*+?()[]{}|/";
constexpr std::string_view kClassCharacters = "\\]^-[";

// Thrown inside the translator when the pattern cannot be written in JavaScript; js_regex()
// catches it. Not a failure of kbc: the answer for this pattern.
struct Refusal {
  std::string reason;
};

[[noreturn]] void refuse(std::string reason);

[[noreturn]] void not_re2(std::string_view p, std::size_t at);

// The code point of the UTF-8 sequence at `i`, and the position after it.
std::pair<char32_t, std::size_t> decode(std::string_view p, std::size_t i);

// The letters of the Perl classes: `\d \D \s \S \w \W`.
bool is_perl_class(char c);

// `\xHH` up to U+00FF, else `\u{H...}`.
std::string hex_escape(char32_t cp);

// One code point as a literal of JavaScript (`u` flag); `specials` get a backslash.
std::string literal(char32_t cp, std::string_view specials);

// The same code points as sorted ranges that neither overlap nor touch.
Ranges normalized(Ranges ranges);

// Every code point (to U+10FFFF) not in `ranges`.
Ranges complement(const Ranges& ranges);

// An ASCII set with what case folding adds to it: the other case of each letter, and the two
// non-ASCII characters that fold to ASCII letters, U+017F (to s) and U+212A (to k). Its
// complement is closed under folding too, so JavaScript's `i` flag cannot widen it.
Ranges folded_ascii(const Ranges& ranges);

// The ranges written inside brackets; `escaped` writes a non-ASCII bound as \u{...} (clearer
// for computed ranges than the character itself).
std::string class_body(const Ranges& ranges, bool escaped = true);

// RE2's POSIX classes (all ASCII), by name without the brackets and colons.
std::optional<Ranges> posix_class(std::string_view name);

// RE2's \s: [\t\n\f\r ] (JavaScript's \s also holds \v and Unicode spaces).
const Ranges& perl_space();

// The positive JavaScript items of RE2's Unicode class `name`, to go inside brackets.
std::vector<std::string> unicode_items(std::string_view name);

// A name that may be a Unicode script as RE2 writes them: letters and underscores.
bool is_script_name(std::string_view name);

// Reads the characters, escapes and classes of `pattern` from a position, and writes them in
// JavaScript; under (?i) (set_fold) some are written differently or refused.
class ItemReader {
 public:
  explicit ItemReader(std::string_view pattern) : p_(pattern) {}
  void set_fold(bool fold) { fold_ = fold; }

  // A character escape at `i` (`\`), as RE2's ParseEscape reads it.
  std::pair<char32_t, std::size_t> escaped_character(std::size_t i) const;

  // `\d \D \s \S \w \W` (`c` is the letter), inside a class or not.
  std::string perl_class(char c, bool in_class) const;

  // `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}` at `i`: the JavaScript text and the position after.
  std::pair<std::string, std::size_t> unicode_class(std::size_t i, bool in_class) const;

  // The class at `i` (`[`), read as RE2's ParseCharClass does: its JavaScript text and the
  // position after it.
  std::pair<std::string, std::size_t> char_class(std::size_t i) const;

 private:
  // `\xHH` or `\x{H...}`; `j` is after the `x`.
  std::pair<char32_t, std::size_t> hex_character(std::size_t i, std::size_t j) const;

  // `[:alpha:]` or `[:^alpha:]` at `i` inside a class: its ranges and the position after; nullopt
  // when there is no `:]`, and the `[` is a literal.
  std::optional<std::pair<std::string, std::size_t>> posix_item(std::size_t i) const;

  // One character of a class at `i`, escaped or not.
  std::pair<char32_t, std::size_t> class_character(std::size_t i) const;

  std::string_view p_;
  bool fold_ = false;
};

}  // namespace kbc::js
