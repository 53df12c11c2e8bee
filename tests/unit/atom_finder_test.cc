// The prefilter's literal search (match/atom_finder.h) against std::string::find, and the
// RegexIndex built on it against RE2 run on every text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "base/text.h"
#include "match/atom_finder.h"
#include "match/rank.h"
#include "match/regex_index.h"

using namespace kbc;

namespace {

// The indexes of the atoms that occur in `text`, sorted, each once.
std::vector<int> found_by(const AtomFinder& finder, std::string_view text) {
  std::vector<int> found;
  finder.find(text, found);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::vector<int> found_by_find(const std::vector<std::string>& atoms, std::string_view text) {
  std::vector<int> found;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    if (text.find(atoms[i]) != std::string_view::npos) found.push_back(static_cast<int>(i));
  }
  return found;
}

// A string of `length` letters from a small alphabet, so that atoms share windows and overlap.
std::string random_text(std::mt19937& random, std::size_t length,
                        std::string_view alphabet = "abc d") {
  std::string out;
  for (std::size_t i = 0; i < length; ++i) out += alphabet[random() % alphabet.size()];
  return out;
}

}  // namespace

TEST_CASE("AtomFinder finds exactly the atoms that std::string::find finds") {
  std::mt19937 random(7);
  // Few pairs of bytes begin the atoms (the table of pairs is tested first), then many.
  for (const auto& [count, alphabet] :
       {std::pair<int, std::string_view>{40, "abc d"}, {1500, "abcdefghijklmnopqrstuvwxyz "}}) {
    for (int round = 0; round < 50; ++round) {
      std::vector<std::string> atoms;
      for (int i = 0; i < count; ++i)
        atoms.push_back(random_text(random, 3 + random() % 12, alphabet));
      atoms.push_back(atoms.front());  // the same text twice: both are reported
      const std::vector<std::string_view> views(atoms.begin(), atoms.end());
      const AtomFinder finder(views);
      for (int t = 0; t < 40; ++t) {
        const std::string text = random_text(random, random() % 60, alphabet);
        INFO(count << " atoms, round " << round << ", text '" << text << "'");
        CHECK(found_by(finder, text) == found_by_find(atoms, text));
      }
    }
  }
}

TEST_CASE("AtomFinder at the edges of a text, with no atoms, and on bytes beyond ASCII") {
  const std::vector<std::string_view> atoms = {"abc", "xyz", "abcdefghijk", "\xe9t\xe9"};
  const AtomFinder finder(atoms);
  CHECK(found_by(finder, "abc") == std::vector<int>{0});
  CHECK(found_by(finder, "..xyz") == std::vector<int>{1});
  CHECK(found_by(finder, "abcdefghij") == std::vector<int>{0});  // one byte short
  CHECK(found_by(finder, "zabcdefghijk") == std::vector<int>{0, 2});
  CHECK(found_by(finder, "\xe9t\xe9") == std::vector<int>{3});
  CHECK(found_by(finder, "ab").empty());
  CHECK(found_by(finder, "").empty());
  CHECK(found_by(AtomFinder({}), "abc").empty());
}

TEST_CASE("AtomFinder with three-byte and four-byte anchors, at the edges and overlapping") {
  // "ab c" and "b cd" overlap in "ab cd"; "aaaa" occurs twice, overlapping, in "aaaaa".
  const std::vector<std::string_view> atoms = {"xyz", "ab c", "b cd", "aaaa", "cd!"};
  const AtomFinder finder(atoms);
  CHECK(found_by(finder, "xyz") == std::vector<int>{0});  // the last three bytes only
  // From the text's first byte to its last.
  CHECK(found_by(finder, "ab cd!") == std::vector<int>{1, 2, 4});
  CHECK(found_by(finder, "..xyzab c") == std::vector<int>{0, 1});
  std::vector<int> twice;
  finder.find("aaaaa", twice);
  CHECK(twice == std::vector<int>{3, 3});
  CHECK(found_by(finder, "ab d cd xy aaa").empty());
}

TEST_CASE("AtomFinder anchors each atom at its window that is rarest among the atoms") {
  // The windows of "error: " are in every atom; "r: d", "r: n" and "r: c" in one each.
  const std::vector<std::string_view> atoms = {"error: disk full", "error: net down",
                                               "error: cpu hot", "err"};
  const AtomFinder finder(atoms);
  for (int atom = 0; atom < 3; ++atom) CHECK(finder.anchor_offset(atom) >= 4);
  CHECK(finder.anchor_offset(3) == 0);
  // Text of only the common words passes the bitmap only where it has the atom "err".
  CHECK(finder.bitmap_hits("error: error: error:") == 3);
  CHECK(found_by(finder, "x error: cpu hot") == std::vector<int>{2, 3});
}

namespace {

// Checks that on each text the index lets through every regex that RE2, running it alone, finds
// there, and finds exactly those; `unmatched` are the texts that no regex matches.
void check_against_re2(const std::vector<std::string>& patterns,
                       const std::vector<std::string>& texts,
                       const std::vector<std::string>& unmatched) {
  const std::vector<std::optional<std::string_view>> views(patterns.begin(), patterns.end());
  const RegexIndex index(views);
  for (const std::string& text : texts) {
    INFO(text);
    std::vector<std::size_t> brute;
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      if (RE2::PartialMatch(text, *index.regex(i))) brute.push_back(i);
    }
    CHECK(brute.empty() == (std::count(unmatched.begin(), unmatched.end(), text) > 0));
    const std::vector<std::size_t> candidates = index.candidates(text);
    CHECK(std::includes(candidates.begin(), candidates.end(), brute.begin(), brute.end()));
    CHECK(index.matching(text) == brute);
  }
  // Every text at once, on the cores, gives each text's answer.
  std::vector<std::string> many;
  for (int copy = 0; copy < 300; ++copy) many.insert(many.end(), texts.begin(), texts.end());
  const std::vector<std::string_view> many_views(many.begin(), many.end());
  const std::vector<std::vector<std::size_t>> each = index.matching_each(many_views);
  REQUIRE(each.size() == many.size());
  for (std::size_t t = 0; t < many.size(); ++t) CHECK(each[t] == index.matching(many[t]));
}

}  // namespace

TEST_CASE("RegexIndex lets through every regex that matches, ignoring case, beyond ASCII") {
  check_against_re2(
      {"(?i)disk full", "connection (refused|reset)", "(?i)\\bfoo\\d+bar", "x{2}", "(?i)ÉTÉ chaud",
       "timeout after \\d+ ?ms", "(?i)out of memory.*killed"},
      {"DISK FULL", "disk full at the end: disk full", "connection refused", "Connection refused",
       "foo12bar", "FOO7BAR!", "xx", "été chaud", "un ÉTÉ CHAUD ici", "timeout after 30ms",
       "Out Of Memory: process killed", "nothing here", ""},
      {"Connection refused", "nothing here", ""});  // that regex does not ignore case
}

TEST_CASE("RegexIndex finds a match that ignores case through the long s and the Kelvin sign") {
  // RE2 takes U+017F for an 's' and U+212A for a 'k' when ignoring case; the atoms are ASCII.
  check_against_re2({"(?i)mask error", "(?i)kelvin scale", "(?i)ſtrasse"},
                    {"MA\xc5\xbfK ERROR",
                     "\xe2\x84\xaa"
                     "ELVIN SCALE",
                     "STRASSE", "mask error", "nothing"},
                    {"nothing"});
}

TEST_CASE("RegexIndex finds atoms beyond ASCII with case and without, mixed with ASCII letters") {
  // Chinese and Korean have no case (the AtomFinder finds them as they are); é, È and Cyrillic
  // do (a Set finds them ignoring case); ASCII letters beside them fold as ever, ſ and K too.
  check_against_re2({"(?i)内存不足", "(?i)cuda错误.*显存", "(?i)한국.*긴급", "(?i)café crème",
                     "(?i)ошибка диска", "(?i)mask错误", "(?i)错误: caf\\x{e9}"},
                    {"内存不足", "CUDA错误: 显存不够", "한국 긴급 전화", "CAFÉ CRÈME", "Café Crème",
                     "ОШИБКА ДИСКА", "Ошибка Диска",
                     "MA\xc5\xbf\xe2\x84\xaa"
                     "错误",
                     "错误: CAFÉ", "内存 不足", "nothing"},
                    {"内存 不足", "nothing"});
}

TEST_CASE("RegexIndex reports its markers with the candidates of each text, and only then") {
  // The matcher's markers are the error words. "fatal" is also the atom of a regex and "timeout"
  // a literal pattern: a marker is reported whatever else finds the same text.
  const std::vector<std::optional<std::string_view>> patterns{"(?i)disk full", "(?i)fatal",
                                                              "timeout"};
  const std::vector<bool> literal{false, false, true};
  const RegexIndex plain(patterns, literal);
  const RegexIndex marked(patterns, literal, error_words());
  const RegexIndex markers_only({std::nullopt}, {}, error_words());  // a log's low index may be
  RegexIndex::Scratch scratch, only_scratch;
  for (const std::string text :
       {"DISK FULL", "Fatal: disk full", "connect TIMED OUT", "timeout", "all good", "", "ab",
        "\u017Fegfault", "\u212Ailled", "x: No Such file", "can not, no-such", "Can't open",
        "\xff\xfe error \xc3", "\u00E9rror", "all good"}) {
    INFO(text);
    const std::vector<std::size_t> candidates = marked.candidates(text, scratch);
    CHECK(candidates == plain.candidates(text));  // markers change no candidate
    CHECK(scratch.marked() == looks_like_error(text));
    CHECK(markers_only.candidates(text, only_scratch).empty());
    CHECK(only_scratch.marked() == looks_like_error(text));
  }
}

TEST_CASE("fold_for_atoms lowers ASCII letters at every position and maps the long s and Kelvin") {
  std::string folded;
  CHECK(fold_for_atoms("", folded));
  CHECK(folded.empty());
  for (std::size_t length = 1; length <= 40; ++length) {
    // Every byte around the letters: '@' and '[' sit just outside A-Z, '`' and '{' outside a-z.
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text += "AZ@[`{az0M"[i % 10];
    INFO("length " << length);
    CHECK(fold_for_atoms(text, folded));
    CHECK(folded == ascii_lower(text));
  }
  CHECK_FALSE(fold_for_atoms("SEGFAULT \u017Fegfault \u212Ailled ERROR\xff", folded));
  CHECK(folded == "segfault segfault killed error\xff");
}
