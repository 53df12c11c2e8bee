// SHA-256 digests, for what the caches key on. Entries come from untrusted pull requests, so a
// key that an attacker could make collide (std::hash) could make lint reuse another file's
// result; SHA-256 (OpenSSL's libcrypto) cannot be made to.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace kbc {

// A digest of a sequence of texts. Each text is framed by its length, so that ("ab", "c") and
// ("a", "bc") differ.
class Digest {
 public:
  Digest();
  ~Digest();
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;

  Digest& add(std::string_view text);
  // The same as add() of the pieces' concatenation.
  Digest& add(std::span<const std::string_view> pieces);
  Digest& add(std::uint64_t number);
  // The digest as 64 lowercase hex digits; the object may not be used after.
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// `bytes` as lowercase hex digits, two a byte.
std::string hex_of(std::span<const std::uint8_t> bytes);
// Whether `text` is lowercase hex digits only.
bool is_hex(std::string_view text);
// The bytes that lowercase hex digits stand for, as hex_of writes them, into `out`: its size
// times two digits of `hex` (is_hex) are read.
void bytes_of_hex(std::string_view hex, std::span<std::uint8_t> out);

// The SHA-256 of `text` (framed as Digest frames it), as 64 hex digits.
std::string digest_of(std::string_view text);

}  // namespace kbc
