// Numbers and texts as bytes, for kbc's own cache files (the pack index, the last lint): a
// number as its bytes in this machine's order (a cache's folder names the build of kbc that wrote
// it, so it is never read elsewhere), a text as its size (32 bits) and then its bytes. Read back
// with every size checked against the bytes left, so a file cut short or damaged reads as
// false, never past its end.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace kbc {

template <typename Number>
void put_number(std::string& out, Number number) {
  static_assert(std::is_arithmetic_v<Number>);
  out.append(reinterpret_cast<const char*>(&number), sizeof number);
}

// False (and nothing written) for a text of 4 GiB or more.
inline bool put_text(std::string& out, std::string_view text) {
  if (text.size() > UINT32_MAX) return false;
  put_number(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
  return true;
}

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  std::size_t at() const { return at_; }
  std::size_t left() const { return bytes_.size() - at_; }

  // What put_number wrote; false past the end.
  template <typename Number>
  bool take(Number& number) {
    static_assert(std::is_arithmetic_v<Number>);
    if (left() < sizeof number) return false;
    std::memcpy(&number, bytes_.data() + at_, sizeof number);
    at_ += sizeof number;
    return true;
  }
  // The next `size` bytes as they are; false past the end.
  bool take_bytes(std::size_t size, std::string_view& out) {
    if (left() < size) return false;
    out = bytes_.substr(at_, size);
    at_ += size;
    return true;
  }
  // What put_text wrote.
  bool take_text(std::string_view& out) {
    std::uint32_t size = 0;
    return take(size) && take_bytes(size, out);
  }
  bool take_text(std::string& out) {
    std::string_view text;
    if (!take_text(text)) return false;
    out.assign(text);
    return true;
  }
  // A count of items that take at least `least` bytes each: false when that many cannot fit in
  // what is left, so that a damaged count never reserves room for it.
  template <typename Count>
  bool take_count(Count& count, std::size_t least) {
    return take(count) && count <= left() / least;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace kbc
