#include <catch2/catch.hpp>

#include "base/text.h"

using namespace kbc;

TEST_CASE("edit distance and did-you-mean") {
  CHECK(edit_distance("signature", "signatur") == 1);
  CHECK(closest_match("why_fail", {"why_fails", "action"}) ==
        std::optional<std::string>("why_fails"));
  CHECK_FALSE(closest_match("zzzzzz", {"why_fails", "action"}));
}

TEST_CASE("is_ascii finds a byte beyond ASCII at any position of a text of any length") {
  CHECK(is_ascii(""));
  for (std::size_t length = 1; length <= 20; ++length) {
    std::string text(length, 'a');
    CHECK(is_ascii(text));
    for (std::size_t at = 0; at < length; ++at) {
      for (const char high : {'\x80', '\xff', '\xc3'}) {
        text[at] = high;
        INFO("length " << length << ", byte " << at);
        CHECK_FALSE(is_ascii(text));
        text[at] = '\x7f';
        CHECK(is_ascii(text));
      }
    }
  }
}
