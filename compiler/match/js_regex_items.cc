#include "match/js_regex_items.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "base/text.h"
#include "base/utf8.h"

namespace kbc::js {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += item;
  return out;
}

bool is_octal(char c) { return c >= '0' && c <= '7'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// True for the code points written as themselves: printable, and not a line terminator or a
// surrogate, which a JSON or JavaScript reader might treat specially.
bool written_as_is(char32_t cp) {
  if (cp < 0x80) return cp >= 0x20 && cp != 0x7F;
  return (cp >= 0xA0 && cp < 0xD800 && cp != 0x2028 && cp != 0x2029) ||
         (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) || (cp >= 0x10000 && cp < 0xF0000);
}

// One code point inside a class; `escaped` writes a non-ASCII one as \u{...}, for the bounds of
// computed ranges, which are clearer so than as characters.
std::string class_literal(char32_t cp, bool escaped) {
  return !escaped || cp < 0x80 ? literal(cp, kClassCharacters) : hex_escape(cp);
}

// RE2's general categories (its C has no unassigned code points, unlike JavaScript's).
bool is_category(std::string_view name) {
  static constexpr std::string_view kCategories[] = {
      "C",  "Cc", "Cf", "Co", "Cs", "L",  "Ll", "Lm", "Lo", "Lt", "Lu", "M",
      "Mc", "Me", "Mn", "N",  "Nd", "Nl", "No", "P",  "Pc", "Pd", "Pe", "Pf",
      "Pi", "Po", "Ps", "S",  "Sc", "Sk", "Sm", "So", "Z",  "Zl", "Zp", "Zs"};
  return std::find(std::begin(kCategories), std::end(kCategories), name) != std::end(kCategories);
}

}  // namespace

std::string hex_escape(char32_t cp) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, cp <= 0xFF ? "\\x%02X" : "\\u{%X}",
                static_cast<unsigned>(cp));
  return buffer;
}

// One code point as a literal of JavaScript (`u` flag); `specials` get a backslash.
std::string literal(char32_t cp, std::string_view specials) {
  if (cp < 0x80 && specials.find(static_cast<char>(cp)) != std::string_view::npos)
    return {'\\', static_cast<char>(cp)};
  switch (cp) {
    case '\t':
      return "\\t";
    case '\n':
      return "\\n";
    case '\v':
      return "\\v";
    case '\f':
      return "\\f";
    case '\r':
      return "\\r";
  }
  if (!written_as_is(cp)) return hex_escape(cp);
  std::string out;
  append_utf8(out, cp);
  return out;
}

Ranges normalized(Ranges ranges) {
  std::sort(ranges.begin(), ranges.end());
  Ranges out;
  for (const Range& range : ranges) {
    if (!out.empty() && range.first <= out.back().second + 1)
      out.back().second = std::max(out.back().second, range.second);
    else
      out.push_back(range);
  }
  return out;
}

Ranges complement(const Ranges& ranges) {
  Ranges out;
  char32_t next = 0;
  for (const auto& [lo, hi] : normalized(ranges)) {
    if (lo > next) out.push_back({next, lo - 1});
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.push_back({next, kMaxCodePoint});
  return out;
}

// An ASCII set with what case folding adds to it: the other case of each letter, and the two
// non-ASCII characters that fold to ASCII letters, U+017F (to s) and U+212A (to k). Its
// complement is closed under folding too, so JavaScript's `i` flag cannot widen it.
Ranges folded_ascii(const Ranges& ranges) {
  Ranges out = ranges;
  for (const auto& [lo, hi] : ranges) {
    for (char32_t c = lo; c <= hi && c < 0x80; ++c) {
      if (c >= 'a' && c <= 'z') out.push_back({c - 32, c - 32});
      if (c >= 'A' && c <= 'Z') out.push_back({c + 32, c + 32});
      if (c == 's' || c == 'S') out.push_back({0x17F, 0x17F});
      if (c == 'k' || c == 'K') out.push_back({0x212A, 0x212A});
    }
  }
  return normalized(out);
}

std::string class_body(const Ranges& ranges, bool escaped) {
  std::string out;
  for (const auto& [lo, hi] : ranges) {
    out += class_literal(lo, escaped);
    if (hi > lo + 1) out += '-';
    if (hi > lo) out += class_literal(hi, escaped);
  }
  return out;
}

// RE2's POSIX classes (all ASCII), by name without the brackets and colons.
std::optional<Ranges> posix_class(std::string_view name) {
  static const std::pair<std::string_view, Ranges> kClasses[] = {
      {"alnum", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
      {"alpha", {{'A', 'Z'}, {'a', 'z'}}},
      {"ascii", {{0, 0x7F}}},
      {"blank", {{'\t', '\t'}, {' ', ' '}}},
      {"cntrl", {{0, 0x1F}, {0x7F, 0x7F}}},
      {"digit", {{'0', '9'}}},
      {"graph", {{'!', '~'}}},
      {"lower", {{'a', 'z'}}},
      {"print", {{' ', '~'}}},
      {"punct", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}},
      {"space", {{'\t', '\r'}, {' ', ' '}}},
      {"upper", {{'A', 'Z'}}},
      {"word", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}},
      {"xdigit", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
  };
  for (const auto& [known, ranges] : kClasses) {
    if (known == name) return ranges;
  }
  return std::nullopt;
}

const Ranges& perl_space() {
  static const Ranges kSpace = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
  return kSpace;
}

// The positive JavaScript items of RE2's Unicode class `name`, to go inside brackets.
std::vector<std::string> unicode_items(std::string_view name) {
  if (name == "C") return {"\\p{Cc}", "\\p{Cf}", "\\p{Co}", "\\p{Cs}"};
  if (name == "Any" || is_category(name)) return {"\\p{" + std::string(name) + "}"};
  // Otherwise a script, which RE2 names as Unicode does (Greek, Old_Italic).
  return {"\\p{Script=" + std::string(name) + "}"};
}

bool is_script_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  });
}

[[noreturn]] void refuse(std::string reason) { throw Refusal{std::move(reason)}; }
[[noreturn]] void not_re2(std::string_view p, std::size_t at) {
  refuse("RE2 syntax the translator does not know, at byte " + std::to_string(at) + " of " +
         std::to_string(p.size()));
}
// The code point of the UTF-8 sequence at `i`, and the position after it.
std::pair<char32_t, std::size_t> decode(std::string_view p, std::size_t i) {
  const Utf8Char character = utf8_char_at(p, i);
  if (character.length == 0) refuse("text that is not UTF-8");
  return {character.code, i + character.length};
}
bool is_perl_class(char c) { return std::string_view("dDsSwW").find(c) != std::string_view::npos; }

// A character escape at `i` (`\`), as RE2's ParseEscape reads it.
std::pair<char32_t, std::size_t> ItemReader::escaped_character(std::size_t i) const {
  if (i + 1 >= p_.size()) not_re2(p_, i);
  const auto [c, next] = decode(p_, i + 1);
  if (c < 0x80 && !is_ascii_alnum(static_cast<char>(c))) return {c, next};  // punctuation
  switch (c) {
    case 'n':
      return {'\n', next};
    case 'r':
      return {'\r', next};
    case 't':
      return {'\t', next};
    case 'a':
      return {0x07, next};
    case 'f':
      return {'\f', next};
    case 'v':
      return {'\v', next};
    case 'x':
      return hex_character(i, next);
  }
  if (c >= '0' && c <= '7') {
    // \1 to \7 alone would be a backreference, which RE2 rejects.
    if (c != '0' && (next >= p_.size() || !is_octal(p_[next]))) not_re2(p_, i);
    char32_t code = c - '0';
    std::size_t j = next;
    for (; j < p_.size() && j < next + 2 && is_octal(p_[j]); ++j) code = code * 8 + (p_[j] - '0');
    return {code, j};
  }
  not_re2(p_, i);
}

// `\xHH` or `\x{H...}`; `j` is after the `x`.
std::pair<char32_t, std::size_t> ItemReader::hex_character(std::size_t i, std::size_t j) const {
  char32_t code = 0;
  if (j < p_.size() && p_[j] == '{') {
    std::size_t k = j + 1;
    for (; k < p_.size() && hex_value(p_[k]) >= 0; ++k) {
      code = code * 16 + hex_value(p_[k]);
      if (code > kMaxCodePoint) not_re2(p_, i);
    }
    if (k == j + 1 || k >= p_.size() || p_[k] != '}') not_re2(p_, i);
    return {code, k + 1};
  }
  if (j + 2 > p_.size() || hex_value(p_[j]) < 0 || hex_value(p_[j + 1]) < 0) not_re2(p_, i);
  return {static_cast<char32_t>(hex_value(p_[j]) * 16 + hex_value(p_[j + 1])), j + 2};
}

std::string ItemReader::perl_class(char c, bool in_class) const {
  if (c == 's') return in_class ? class_body(perl_space()) : "[" + class_body(perl_space()) + "]";
  if (c == 'S')
    return in_class ? class_body(complement(perl_space())) : "[^" + class_body(perl_space()) + "]";
  return {'\\', c};  // \d \D \w \W: the same sets, also under (?i)
}

// `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}` at `i`: the JavaScript text and the position after.
std::pair<std::string, std::size_t> ItemReader::unicode_class(std::size_t i, bool in_class) const {
  bool negated = p_[i + 1] == 'P';
  if (i + 2 >= p_.size()) not_re2(p_, i);
  std::string_view name;
  std::size_t next;
  if (p_[i + 2] == '{') {
    const std::size_t end = p_.find('}', i + 3);
    if (end == std::string_view::npos) not_re2(p_, i);
    name = p_.substr(i + 3, end - i - 3);
    next = end + 1;
  } else {
    next = decode(p_, i + 2).second;
    name = p_.substr(i + 2, next - i - 2);
  }
  if (name.starts_with('^')) {
    negated = !negated;
    name.remove_prefix(1);
  }
  if (!is_script_name(name)) not_re2(p_, i);
  const std::vector<std::string> items = unicode_items(name);
  if (!negated) {
    const bool bare = in_class || items.size() == 1;
    return {bare ? joined(items) : "[" + joined(items) + "]", next};
  }
  // [^\p{X}] leaves out X's characters and, under (?i), whatever folds to one, as RE2 does;
  // JavaScript's \P{X} under the i flag would not.
  if (!in_class) return {"[^" + joined(items) + "]", next};
  if (name == "Any") return {"", next};
  if (fold_)
    refuse(
        "a negated Unicode class (\\P or \\p{^...}) inside a character class under (?i), "
        "which JavaScript folds differently");
  if (items.size() > 1)
    refuse(
        "\\P{C} inside a character class: RE2's C is Cc, Cf, Co and Cs, and JavaScript cannot "
        "write the complement of several classes inside a class");
  return {"\\P" + items[0].substr(2), next};
}

// `[:alpha:]` or `[:^alpha:]` at `i` inside a class: its ranges and the position after; nullopt
// when there is no `:]`, and the `[` is a literal.
std::optional<std::pair<std::string, std::size_t>> ItemReader::posix_item(std::size_t i) const {
  const std::size_t end = p_.find(":]", i + 2);
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view name = p_.substr(i + 2, end - i - 2);
  const bool negated = name.starts_with('^');
  if (negated) name.remove_prefix(1);
  const auto ranges = posix_class(name);
  if (!ranges) not_re2(p_, i);
  if (!negated) return std::pair{class_body(*ranges), end + 2};
  return std::pair{class_body(complement(fold_ ? folded_ascii(*ranges) : *ranges)), end + 2};
}

// One character of a class at `i`, escaped or not.
std::pair<char32_t, std::size_t> ItemReader::class_character(std::size_t i) const {
  if (i >= p_.size()) not_re2(p_, i);
  return p_[i] == '\\' ? escaped_character(i) : decode(p_, i);
}

// The class at `i` (`[`), read as RE2's ParseCharClass does: its JavaScript text and the
// position after it.
std::pair<std::string, std::size_t> ItemReader::char_class(std::size_t i) const {
  std::size_t j = i + 1;
  const bool negated = j < p_.size() && p_[j] == '^';
  if (negated) ++j;
  std::string body;
  for (bool first = true; j < p_.size() && (p_[j] != ']' || first); first = false) {
    const std::size_t left = p_.size() - j;
    if (left > 2 && p_[j] == '[' && p_[j + 1] == ':') {
      if (const auto item = posix_item(j)) {
        body += item->first;
        j = item->second;
        continue;
      }
    }
    if (left > 2 && p_[j] == '\\' && (p_[j + 1] == 'p' || p_[j + 1] == 'P')) {
      auto [text, next] = unicode_class(j, true);
      body += text;
      j = next;
      continue;
    }
    if (left >= 2 && p_[j] == '\\' && is_perl_class(p_[j + 1])) {
      body += perl_class(p_[j + 1], true);
      j += 2;
      continue;
    }
    auto [low, next] = class_character(j);
    char32_t high = low;
    j = next;
    if (p_.size() - j >= 2 && p_[j] == '-' && p_[j + 1] != ']') {
      std::tie(high, j) = class_character(j + 1);
      if (high < low) not_re2(p_, i);
    }
    body += class_body({{low, high}}, false);
  }
  if (j >= p_.size()) not_re2(p_, i);
  return {(negated ? "[^" : "[") + body + "]", j + 1};
}

}  // namespace kbc::js
