// UTF-8: the one decoder and encoder, and the walks over code points that columns, excerpts,
// search tokens and shortened texts share. Text that reaches them has been checked to be UTF-8
// (find_invalid_utf8); where it is not, a byte that is not part of a valid sequence counts as
// one character.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kbc {

constexpr char32_t kMaxCodePoint = 0x10FFFF;

inline bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The character whose UTF-8 sequence starts at byte `i` (< text.size()): its length, 0 when the
// bytes there are not valid UTF-8 (a stray or truncated sequence, an overlong form, a surrogate,
// past U+10FFFF), and its code point.
struct Utf8Char {
  std::size_t length = 0;
  char32_t code = 0;
};
Utf8Char utf8_char_at(std::string_view text, std::size_t i);

// The code point at byte `i`, moving `i` past it; a byte that is not valid UTF-8 reads as
// U+FFFD and is passed alone.
char32_t next_code_point(std::string_view text, std::size_t& i);

void append_utf8(std::string& out, char32_t code);

// The number of code points: the bytes that do not continue a sequence.
std::size_t code_points(std::string_view text);

// The byte offset `at` moved back, or forward, to the start of the code point it falls in (or
// left as it is at either end of the text): where a text may be cut.
std::size_t code_point_start(std::string_view text, std::size_t at);
std::size_t code_point_end(std::string_view text, std::size_t at);

}  // namespace kbc
