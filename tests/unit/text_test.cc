#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

#include "base/digest.h"
#include "base/json_pointer.h"
#include "base/json_text.h"
#include "base/text.h"
#include "base/utf8.h"

using namespace kbc;

TEST_CASE("edit distance and did-you-mean") {
  CHECK(edit_distance("signature", "signatur") == 1);
  CHECK(closest_match("why_fail", {"why_fails", "action"}) ==
        std::optional<std::string>("why_fails"));
  CHECK_FALSE(closest_match("zzzzzz", {"why_fails", "action"}));
}

TEST_CASE("a bounded edit distance is exact up to its limit and above it past the limit") {
  const char* const words[] = {"",
                               "a",
                               "kitten",
                               "sitting",
                               "python/oom-r12/linux",
                               "python/oom-r21/linux",
                               "cuda/oom",
                               "abcdef",
                               "ghijkl",
                               "python/mmo-r21/xunil",
                               "\x80\xc0@"};
  for (const char* a : words) {
    for (const char* b : words) {
      const std::size_t exact = edit_distance(a, b);
      for (std::size_t limit = 0; limit < 24; ++limit) {
        INFO(a << " / " << b << " limit " << limit);
        const std::size_t bounded = edit_distance(a, b, limit);
        if (exact <= limit)
          CHECK(bounded == exact);
        else
          CHECK(bounded > limit);
      }
    }
  }
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("did-you-mean takes the first of the closest candidates, from any range of strings") {
  const std::set<std::string> ids = {"cuda/oom", "cuda/oomx", "python/oom"};
  CHECK(closest_match("cuda/om", ids) == std::optional<std::string>("cuda/oom"));
  CHECK(closest_match("cuda/oomxx", ids) == std::optional<std::string>("cuda/oomx"));
  CHECK(closest_match("cuda/oom", ids) == std::optional<std::string>("cuda/oom"));
  // Both at distance 1: the first wins, as it did when every distance was computed whole.
  CHECK(closest_match("ab", std::vector<std::string>{"xb", "ax"}) ==
        std::optional<std::string>("xb"));
  CHECK_FALSE(closest_match("python/keyboardinterrupt", ids));
}

TEST_CASE("typo candidates answer as closest_match does, for any word") {
  std::vector<std::string> ids = {
      "cuda/oom", "cuda/oomx", "python/oom", "python/oom-r12",      "python/oom-r21",
      "xb",       "ax",        "",           std::string(300, 'a'), "\x80\xc0@"};
  for (int i = 0; i < 200; ++i)  // many, most of them far from every word
    ids.push_back("domain" + std::to_string(i % 7) + "/name-r" + std::to_string(i) + "/v");
  ids.push_back(std::string(298, 'a') + "bb");
  const TypoCandidates candidates(ids);
  const char* const words[] = {"cuda/om", "cuda/oomxx",      "cuda/oom", "ab",
                               "",        "python/oom-r1",   "zzzzzz",   "domain3/name-r45/v",
                               "a",       "domain3/name-r4", "\x80\xc0", "cuda/oxx"};
  for (const char* word : words) {
    INFO(word);
    CHECK(candidates.closest(word) == closest_match(word, ids));
  }
  for (const std::size_t length : {297, 299, 300, 303}) {  // counts past 255, saturated
    const std::string word(length, 'a');
    INFO(length);
    CHECK(candidates.closest(word) == closest_match(word, ids));
  }
  // Two characters replaced: at the limit of a word of eight, counted as two beyond and two
  // lacking.
  CHECK(candidates.closest("cuda/oxx") == std::optional<std::string>("cuda/oom"));
  CHECK(candidates.closest("domain3/name-r45/w") ==
        std::optional<std::string>("domain3/name-r45/v"));
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

TEST_CASE("is_hex accepts lowercase hex digits only, whatever the byte at any position") {
  CHECK(is_hex(""));
  CHECK(is_hex("0123456789abcdef"));
  CHECK(is_hex(digest_of("abc")));
  const std::string digits(32, 'a');
  for (int byte = 0; byte < 256; ++byte) {
    const char c = static_cast<char>(byte);
    const bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    for (const std::size_t at : {std::size_t{0}, std::size_t{17}, std::size_t{31}}) {
      std::string text = digits;
      text[at] = c;
      CHECK(is_hex(text) == digit);
    }
  }
}

TEST_CASE("a rate is shown as a whole percentage rounded half up, everywhere the same") {
  CHECK(whole_percent(0.947) == 95);
  CHECK(whole_percent(0.944) == 94);
  CHECK(whole_percent(0.5) == 50);
  CHECK(whole_percent(0.005) == 1);
  CHECK(whole_percent(1.0) == 100);
  CHECK(whole_percent(0.0) == 0);
}

TEST_CASE("utf8_char_at decodes valid UTF-8 and refuses every invalid form") {
  CHECK(utf8_char_at("a", 0).code == U'a');
  CHECK(utf8_char_at("\xc3\xa9", 0).length == 2);
  CHECK(utf8_char_at("\xc3\xa9", 0).code == U'\u00e9');
  CHECK(utf8_char_at("\xe4\xb8\xad", 0).code == U'\u4e2d');
  CHECK(utf8_char_at("\xf0\x9f\x98\x80", 0).code == U'\U0001F600');
  CHECK(utf8_char_at("\xf0\x9f\x98\x80", 0).length == 4);
  CHECK(utf8_char_at("\x80", 0).length == 0);              // a stray continuation byte
  CHECK(utf8_char_at("\xc3", 0).length == 0);              // truncated
  CHECK(utf8_char_at("\xc3x", 0).length == 0);             // not continued
  CHECK(utf8_char_at("\xc0\xaf", 0).length == 0);          // overlong '/'
  CHECK(utf8_char_at("\xe0\x80\xaf", 0).length == 0);      // overlong, three bytes
  CHECK(utf8_char_at("\xed\xa0\x80", 0).length == 0);      // a surrogate
  CHECK(utf8_char_at("\xf4\x90\x80\x80", 0).length == 0);  // past U+10FFFF
  CHECK(utf8_char_at("\xff", 0).length == 0);
}

TEST_CASE("next_code_point reads an invalid byte as U+FFFD and passes it alone") {
  const std::string_view text = "a\xff\xc3\xa9";
  std::size_t i = 0;
  CHECK(next_code_point(text, i) == U'a');
  CHECK(next_code_point(text, i) == U'\uFFFD');
  CHECK(i == 2);
  CHECK(next_code_point(text, i) == U'\u00e9');
  CHECK(i == text.size());
}

TEST_CASE("append_utf8 writes what utf8_char_at reads, at each length's bounds") {
  for (const char32_t code :
       {U'\0', U'\x7f', U'\x80', U'\u07ff', U'\u0800', U'\ufffd', U'\U00010000', U'\U0010FFFF'}) {
    std::string text;
    append_utf8(text, code);
    CHECK(utf8_char_at(text, 0).code == code);
    CHECK(utf8_char_at(text, 0).length == text.size());
  }
}

TEST_CASE("code points are counted, and texts cut only at their starts") {
  const std::string_view text = "a\xc3\xa9\xe4\xb8\xad";  // a, e-acute, a CJK character
  CHECK(code_points(text) == 3);
  CHECK(code_point_start(text, 2) == 1);
  CHECK(code_point_start(text, 5) == 3);
  CHECK(code_point_start(text, 3) == 3);
  CHECK(code_point_start(text, text.size()) == text.size());
  CHECK(code_point_end(text, 2) == 3);
  CHECK(code_point_end(text, 4) == 6);
  CHECK(code_point_end(text, 0) == 0);
}

TEST_CASE("first_sentence stops at the first full stop, or cuts with an ellipsis") {
  CHECK(first_sentence("One. Two.", 200) == "One.");
  CHECK(first_sentence("No full stop here", 200) == "No full stop here");
  CHECK(first_sentence("abcdef", 3) == "abc…");
  CHECK(first_sentence("Version 1.2 failed. Then", 200) == "Version 1.2 failed.");
  // Never inside a character: the cut moves back to the start of the one it falls in.
  CHECK(first_sentence("\xe4\xb8\xad\xe6\x96\x87", 4) == "\xe4\xb8\xad…");
  CHECK(first_sentence("", 10).empty());
}

TEST_CASE("percent_text writes a rate as every output shows it") {
  CHECK(percent_text(0.947) == "95%");
  CHECK(percent_text(0.996) == "100%");  // lint's unreachable message once truncated this to 99%
  CHECK(percent_text(0.0) == "0%");
}

TEST_CASE("JSON pointers escape '~' and '/' in a key, and split back into the keys") {
  CHECK(pointer_append("", "dead_ends") == "/dead_ends");
  CHECK(pointer_append("/dead_ends", "0") == "/dead_ends/0");
  CHECK(pointer_append("/os_specific", "a/b~c") == "/os_specific/a~1b~0c");
  CHECK(pointer_append("/x", "") == "/x/");
  CHECK(split_pointer("").empty());
  CHECK(split_pointer("/os_specific/a~1b~0c") == std::vector<std::string>{"os_specific", "a/b~c"});
  CHECK(split_pointer("/x/") == std::vector<std::string>{"x", ""});
  CHECK(unescape_pointer_segment("~01") == "~1");  // "~0" is read first: '~', then '1'
  CHECK(unescape_pointer_segment("plain") == "plain");
}

TEST_CASE("head_text cuts a title at a space before its limit, in code points") {
  CHECK(kbc::head_text("  short title \nsecond line", 60) == "short title");
  CHECK(kbc::head_text("alpha beta gamma delta", 22) == "alpha beta gamma delta");
  CHECK(kbc::head_text("alpha beta gamma delta", 15) == "alpha beta…");
  CHECK(kbc::head_text("averyveryverylongword and more", 10) == "averyvery…");  // no space: cut
  const std::string chinese = kbc::head_text("运行时错误：调用 cublasCreate 时返回分配失败", 8);
  CHECK(chinese == "运行时错误：调…");
  CHECK(kbc::code_points(chinese) == 8);
}

TEST_CASE("replace_all replaces every occurrence") {
  CHECK(kbc::replace_all("<pre><code>a</code></pre><pre>", "<pre", "<pre x") ==
        "<pre x><code>a</code></pre><pre x>");
  CHECK(kbc::replace_all("abc", "z", "y") == "abc");
  CHECK(kbc::replace_all("", "a", "b") == "");
}

TEST_CASE("JSON text reads back into the values it was dumped from, numbers of the same kind") {
  const nlohmann::json value = {{"text", "a \"quoted\" line\nand 中文 \u00e9"},
                                {"numbers", {0, 7, -3, 2.5, -0.125, 18446744073709551615ULL}},
                                {"nested", {{"empty", nlohmann::json::object()}, {"list", {}}}},
                                {"flags", {true, false, nullptr}}};
  const nlohmann::json back = kbc::json_from_text(value.dump());
  CHECK(back == value);
  CHECK(back.dump() == value.dump());
  CHECK(back["numbers"][1].is_number_unsigned());  // as nlohmann's own parser and CBOR give it
  CHECK(back["numbers"][2].is_number_integer());
  CHECK_FALSE(back["numbers"][2].is_number_unsigned());
  CHECK(back["numbers"][3].is_number_float());
  CHECK(back["numbers"][5].get<std::uint64_t>() == 18446744073709551615ULL);
  // An ordered value keeps its keys' order.
  const nlohmann::ordered_json ordered = {{"z", 1}, {"a", {{"y", 2}, {"b", 3}}}};
  CHECK(kbc::ordered_json_from_text(ordered.dump()).dump() == ordered.dump());
  for (const char* text : {"", "{", "[1,]", "[1] x", "{\"a\" 1}", "\"\\x\""})
    CHECK_THROWS_AS(kbc::json_from_text(text), std::runtime_error);
}

TEST_CASE("a value with NaN or an infinity is one JSON text cannot hold") {
  CHECK_FALSE(kbc::has_non_finite_number({{"a", {1, 2.5, "x"}}}));
  CHECK(kbc::has_non_finite_number({{"a", {1, std::numeric_limits<double>::infinity()}}}));
  CHECK(kbc::has_non_finite_number({{"b", {{"c", std::nan("")}}}}));
  CHECK(kbc::has_non_finite_number(-std::numeric_limits<double>::infinity()));
}

TEST_CASE("framed bytes give back their head and their parts whole, and nothing else") {
  const std::string bytes = kbc::framed({{"digest", "ab"}}, {"first\npart", "", "{\"x\": 1}"});
  const auto back = kbc::unframed(bytes);
  REQUIRE(back);
  CHECK(back->head["digest"] == "ab");
  CHECK(back->parts == std::vector<std::string_view>{"first\npart", "", "{\"x\": 1}"});
  CHECK(kbc::unframed(kbc::framed({{"none", true}}, {}))->parts.empty());
  // Cut short, with bytes after the parts, without a head, or with a head that is not JSON.
  CHECK_FALSE(kbc::unframed(bytes.substr(0, bytes.size() - 1)));
  CHECK_FALSE(kbc::unframed(bytes + "x"));
  CHECK_FALSE(kbc::unframed("no head line"));
  CHECK_FALSE(kbc::unframed("{\"parts\": [2\nab"));
  CHECK_FALSE(kbc::unframed("{\"parts\": [\"two\"]}\nab"));
}
