#include <catch2/catch.hpp>

#include "base/digest.h"
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

TEST_CASE("printable_utf8 shows each control character and each invalid byte as one '?'") {
  CHECK(printable_utf8("plain text, caf\xc3\xa9, \xe4\xb8\xad\xe6\x96\x87") ==
        "plain text, caf\xc3\xa9, \xe4\xb8\xad\xe6\x96\x87");
  CHECK(printable_utf8("a\tb") == "a\tb");  // a tab is shown
  CHECK(printable_utf8("\x1b[31mred\x1b[0m\a") == "?[31mred?[0m?");
  CHECK(printable_utf8(std::string("nul\0, del\x7f, cr\r", 15)) == "nul?, del?, cr?");
  CHECK(printable_utf8("c1 \xc2\x9b"
                       "2J, nbsp \xc2\xa0") == "c1 ?2J, nbsp \xc2\xa0");
  CHECK(printable_utf8("bad \xff\xc3 end \xe4\xb8") == "bad ?? end ??");
  CHECK(printable_utf8("surrogate \xed\xa0\x80") == "surrogate ???");
}

TEST_CASE("display_width counts the columns of a terminal, blank_width_of keeps the tabs") {
  CHECK(display_width("") == 0);
  CHECK(display_width("error: 42") == 9);
  CHECK(display_width("caf\xc3\xa9") == 4);
  CHECK(display_width("e\xcc\x81") == 1);                 // a combining accent takes no column
  CHECK(display_width("\xe9\x94\x99\xe8\xaf\xaf") == 4);  // 错误: two wide characters
  CHECK(display_width("\xef\xbc\x9a") == 2);              // a full-width colon
  CHECK(blank_width_of("\xe9\x94\x99\xe8\xaf\xaf\tx") == "    \t ");
  CHECK(blank_width_of("a\tb") == " \t ");
}

TEST_CASE("a digest is SHA-256 of the texts, each framed by its length") {
  // sha256 of the 8-byte little-endian length 3, then "abc".
  CHECK(digest_of("abc") == "ce91dc5eec0139adf091900d225971d6ad246a845bad791b5693a9d0d55dd391");
  CHECK(Digest().add("ab").add("c").hex() != Digest().add("a").add("bc").hex());
  CHECK(Digest().add("a").add("").hex() != Digest().add("a").hex());
  CHECK(digest_of(std::string(1 << 20, 'x')) == digest_of(std::string(1 << 20, 'x')));
}

TEST_CASE("a rate is shown as a whole percentage rounded half up, everywhere the same") {
  CHECK(whole_percent(0.947) == 95);
  CHECK(whole_percent(0.944) == 94);
  CHECK(whole_percent(0.5) == 50);
  CHECK(whole_percent(0.005) == 1);
  CHECK(whole_percent(1.0) == 100);
  CHECK(whole_percent(0.0) == 0);
}
