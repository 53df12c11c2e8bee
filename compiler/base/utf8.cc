#include "base/utf8.h"

#include <algorithm>

namespace kbc {

Utf8Char utf8_char_at(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return {1, lead};
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const std::size_t length = (lead >> 5) == 0x6    ? 2
                             : (lead >> 4) == 0xE  ? 3
                             : (lead >> 3) == 0x1E ? 4
                                                   : 0;
  if (length == 0 || i + length > text.size()) return {};
  char32_t code = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if (!is_continuation_byte(text[i + k])) return {};
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < kSmallest[length] || code > kMaxCodePoint || (code >= 0xD800 && code <= 0xDFFF))
    return {};
  return {length, code};
}

char32_t next_code_point(std::string_view text, std::size_t& i) {
  const Utf8Char character = utf8_char_at(text, i);
  i += std::max<std::size_t>(character.length, 1);
  return character.length == 0 ? U'\uFFFD' : character.code;
}

void append_utf8(std::string& out, char32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !is_continuation_byte(c); }));
}

std::size_t code_point_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && is_continuation_byte(text[at])) --at;
  return at;
}

std::size_t code_point_end(std::string_view text, std::size_t at) {
  while (at < text.size() && is_continuation_byte(text[at])) ++at;
  return at;
}

}  // namespace kbc
