// js_regex: RE2 patterns in JavaScript syntax for the site's paste box, and the match data the
// site ships them in. Each table row is a pattern RE2 accepts and the exact JavaScript source
// and flags expected, or the start of the reason it is refused. tests/browser/run.mjs compiles the
// translations of the shipped entries in Chromium and checks that the box ranks as `kbc match`
// does.
#include <catch2/catch.hpp>

#include <re2/re2.h>

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "match/js_regex.h"
#include "match/log_lines.h"
#include "match/rank.h"
#include "match/regex_index.h"
#include "pipeline.h"
#include "site/site_builder.h"
#include "site/site_model.h"

using namespace kbc;

namespace {

struct Translation {
  const char* pattern;
  const char* source;
  const char* flags;
};

struct Refused {
  const char* pattern;
  const char* reason;  // the start of the reason
};

bool re2_accepts(const std::string& pattern) { return RE2(pattern, entry_regex_options()).ok(); }

void check_translations(const Translation* begin, const Translation* end) {
  for (const Translation* row = begin; row != end; ++row) {
    INFO("pattern " << row->pattern);
    CHECK(re2_accepts(row->pattern));
    const JsRegex js = js_regex(row->pattern);
    CHECK(js.reason == "");
    CHECK(js.ok);
    CHECK(js.source == row->source);
    CHECK(js.flags == row->flags);
  }
}

}  // namespace

TEST_CASE("js_regex copies what RE2 and JavaScript read alike") {
  const Translation rows[] = {
      {"CUDA out of memory\\. Tried", "CUDA out of memory\\. Tried", "u"},
      {"(a|b)*c", "(a|b)*c", "u"},
      {"(?:ab)+|c", "(?:ab)+|c", "u"},
      {"(a?){2}", "(a?){2}", "u"},  // a fixed count: no optional pass
      {"a{2}b{1,3}?c{2,}d{0}", "a{2}b{1,3}?c{2,}d{0}", "u"},
      {"\\bfoo\\b", "\\bfoo\\b", "u"},  // ASCII word boundaries in both, without (?i)
      {"[\\p{Lu}\\d]", "[\\p{Lu}\\d]", "u"},
      {"[^\\p{Lu}]", "[^\\p{Lu}]", "u"},
      {"[\\P{Lu}0]", "[\\P{Lu}0]", "u"},
      {"\\w+\\W\\d\\D", "\\w+\\W\\d\\D", "u"},
      {"\\n\\t\\r\\f\\v", "\\n\\t\\r\\f\\v", "u"},
      {"[é-ü中]", "[é-ü中]", "u"},
      {"é+😀+", "é+😀+", "u"},  // with `u`, + repeats the code point, not a UTF-16 unit
      {"^a$", "^a$", "u"},
      {"^$", "^$", "u"},  // `kbc new`'s placeholder: empty only at the start, in both
      {"^\\s*$", "^[\\t\\n\\f\\r ]*$", "u"},
      {"(?i)a\\.b+?", "a\\.b+?", "iu"},
  };
  check_translations(std::begin(rows), std::end(rows));
}

TEST_CASE("js_regex turns leading flags into JavaScript flags or rewrites") {
  const Translation rows[] = {
      {"(?i)cuda error: out of memory", "cuda error: out of memory", "iu"},
      {"(?i)(?i)foo", "foo", "iu"},  // a repeated leading flag group, common in real entries
      {"(?-i)a", "a", "u"},
      {"(?i)a(?i:b)", "a(?:b)", "iu"},  // no change of case-insensitivity
      // `.` stops only at \n in RE2; JavaScript's also stops at \r, U+2028 and U+2029.
      {"a.b", "a[^\\n]b", "u"},
      {"(?s)a.b", "a[^]b", "u"},
      {"(?i)(?s)a.b", "a[^]b", "iu"},
      {"(?s:.)(?-s:.)", "(?:[^])(?:[^\\n])", "u"},
      // ^ and $ under (?m) stop only at \n, as `.` does.
      {"(?m)^a$", "(?<![^\\n])a(?![^\\n])", "u"},
      {"(?m)^error:.*$", "(?<![^\\n])error:[^\\n]*(?![^\\n])", "u"},
      {"\\Aa\\z", "^a$", "u"},
      // (?U) swaps greedy and lazy.
      {"(?U)a+b*?c{2,3}", "a+?b*c{2,3}?", "u"},
      {"(?U:a+?)b+?", "(?:a+)b+?", "u"},
  };
  check_translations(std::begin(rows), std::end(rows));
}

TEST_CASE("js_regex rewrites the syntax JavaScript lacks or reads otherwise") {
  const Translation rows[] = {
      {"(?P<size>[0-9]+) MiB", "(?<size>[0-9]+) MiB", "u"},
      {"(?P<1x>a)", "(a)", "u"},  // a name JavaScript refuses is dropped; still a capture
      {"\\Qa.b*\\E+", "a\\.b\\*+", "u"},
      {"\\Q(x)", "\\(x\\)", "u"},  // \Q to the end
      // Escapes the `u` flag forbids: punctuation that needs none.
      {"a\\ b\\\"c\\-d\\_e\\#f", "a b\"c-d_e#f", "u"},
      {"[a\\-z]", "[a\\-z]", "u"},
      // Literals RE2 takes as such and the `u` flag does not.
      {"a{,3}", "a\\{,3\\}", "u"},
      {"x{01}", "x\\{01\\}", "u"},  // no leading zeros in an RE2 repetition
      {"a]}", "a\\]\\}", "u"},
      {"a/b", "a\\/b", "u"},
      {"[]a]", "[\\]a]", "u"},
      {"[^]a]", "[^\\]a]", "u"},
      {"[a-]", "[a\\-]", "u"},
      {"[\\d-z]", "[\\d\\-z]", "u"},  // a literal -, not a range
      // Character escapes.
      {"\\x41\\x{1F600}\\101\\0", "A😀A\\x00", "u"},
      {"\\x{e9}\\x{2028}", "é\\u{2028}", "u"},
      {"\\a", "\\x07", "u"},
      {"[\\x00-\\x1f\\x7f]", "[\\x00-\\x1F\\x7F]", "u"},
      // \s is [\t\n\f\r ] in RE2; JavaScript's also has \v and the Unicode spaces.
      {"\\s+\\S", "[\\t\\n\\f\\r ]+[^\\t\\n\\f\\r ]", "u"},
      {"[\\s\\d]", "[\\t\\n\\f\\r \\d]", "u"},
      {"[\\S]", "[\\x00-\\x08\\v\\x0E-\\x1F!-\\u{10FFFF}]", "u"},
      {"[^\\S]", "[^\\x00-\\x08\\v\\x0E-\\x1F!-\\u{10FFFF}]", "u"},
  };
  check_translations(std::begin(rows), std::end(rows));
}

TEST_CASE("js_regex writes POSIX and Unicode classes as JavaScript knows them") {
  const Translation rows[] = {
      {"[[:alpha:]_]", "[A-Za-z_]", "u"},
      {"[[:word:]]", "[0-9A-Z_a-z]", "u"},
      {"[[:punct:][:space:]]", "[!-/:-@\\[-`{-~\\t-\\r ]", "u"},
      {"[[:^digit:]]", "[\\x00-/:-\\u{10FFFF}]", "u"},
      {"[[:^alpha:]]", "[\\x00-@\\[-`{-\\u{10FFFF}]", "u"},
      // Under (?i) the complement also leaves out what folds to a letter (U+017F, U+212A).
      {"(?i)[[:^alpha:]]", "[\\x00-@\\[-`{-\\u{17E}\\u{180}-\\u{2129}\\u{212B}-\\u{10FFFF}]", "iu"},
      {"(?i)[^[:lower:]]", "[^a-z]", "iu"},
      {"\\pL+", "\\p{L}+", "u"},
      {"\\p{Greek}+", "\\p{Script=Greek}+", "u"},
      {"\\PL", "[^\\p{L}]", "u"},
      {"\\p{^Han}", "[^\\p{Script=Han}]", "u"},
      {"(?i)\\P{Lu}", "[^\\p{Lu}]", "iu"},  // not \P{Lu}, which the i flag folds otherwise
      {"[\\p{^Greek}a]", "[\\P{Script=Greek}a]", "u"},
      // RE2's C has no unassigned code points; JavaScript's has.
      {"\\p{C}", "[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}]", "u"},
      {"[\\p{C}x]", "[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}x]", "u"},
      {"[\\P{Any}a]", "[a]", "u"},
  };
  check_translations(std::begin(rows), std::end(rows));
}

TEST_CASE("js_regex refuses what JavaScript would match differently") {
  const Refused rows[] = {
      {"a\\Cb", "\\C, which matches a byte"},
      {"a(?i)b", "case-insensitivity changes after the start"},
      {"(?i)a(?-i)b", "case-insensitivity changes after the start"},
      {"(?i:a)b", "case-insensitivity changes after the start"},
      {"((?i)a)b", "case-insensitivity changes after the start"},
      {"(?i)\\bfoo", "\\b or \\B under (?i)"},
      {"(?i)a\\Bb", "\\b or \\B under (?i)"},
      {"(?i)[\\P{Lu}0]", "a negated Unicode class"},
      {"(?i)[\\p{^Greek}0]", "a negated Unicode class"},
      {"[\\P{C}x]", "\\P{C} inside a character class"},
      {"(|a)?b", "an optional or repeated part that can match the empty string"},
      {"(a*)*b", "an optional or repeated part that can match the empty string"},
      {"(a?)+b", "an optional or repeated part that can match the empty string"},
      {"(a|b?){1,3}c", "an optional or repeated part that can match the empty string"},
      {"^?a", "an optional or repeated part that can match the empty string"},
      {"(?m)$", "it can match the empty string at a place an assertion"},
      {"(?m)^$", "it can match the empty string at a place an assertion"},
      {"^|\\b", "it can match the empty string at a place an assertion"},
      {"x*\\B", "it can match the empty string at a place an assertion"},
      {"a*(?s)*", "a repetition of a repetition"},
  };
  for (const Refused& row : rows) {
    INFO("pattern " << row.pattern);
    CHECK(re2_accepts(row.pattern));
    const JsRegex js = js_regex(row.pattern);
    CHECK_FALSE(js.ok);
    CHECK(js.source == "");
    CHECK(js.reason.starts_with(row.reason));
  }
}

TEST_CASE("js_regex refuses text that is not RE2 syntax, without failing") {
  const char* rows[] = {"a(",          "a)",     "[a",   "a\\",     "\\1",   "\\8",
                        "\\x{110000}", "\\xZ1",  "*a",   "(?=a)",   "(?P<a", "\\p{}",
                        "[[:nope:]]",  "(?i-)a", "\xff", "\xe2\x82"};
  for (const char* pattern : rows) {
    INFO("pattern " << pattern);
    const JsRegex js = js_regex(pattern);
    CHECK_FALSE(js.ok);
    CHECK_FALSE(js.reason.empty());
  }
}

TEST_CASE("js_regex gives texts one of which any match contains, for the paste box's prefilter") {
  struct Row {
    const char* pattern;
    std::vector<std::string> needs;
  };
  const Row rows[] = {
      {"CUDA out of memory\\. Tried", {"cuda out of memory. tried"}},  // lower-cased
      {"(?i)cuda error: out of memory", {"cuda error: out of memory"}},
      {"(?i)(oom|out of memory)", {"oom", "out of memory"}},  // one per alternative
      {"(?i)android resource", {"android re"}},  // under (?i), s and k also match U+017F, U+212A
      {"(?i)skip", {"ip"}},
      {"Skip", {"skip"}},
      {"[0-9]+ MiB", {" mib"}},
      {"(foo)?bar", {"bar"}},  // what is optional is not needed
      {"(?:foo)+bar", {"foo"}},
      {"\\Qa.b\\E", {"a.b"}},
      {"é+x", {"x"}},  // only ASCII
      {"a{,3}", {"a{,3}"}},
      {"foo|.*bar", {"foo", "bar"}},
      {"foo|.*", {}},  // an alternative that needs nothing
      {"[a-z]+", {}},
  };
  for (const Row& row : rows) {
    INFO("pattern " << row.pattern);
    const JsRegex js = js_regex(row.pattern);
    REQUIRE(js.ok);
    CHECK(js.needs == row.needs);
  }
}

TEST_CASE("the site's match data holds each entry's JavaScript regex and rank figures") {
  const nlohmann::ordered_json first = {{"id", "cuda/a"},
                                        {"signature", "  CUDA error: out of memory "},
                                        {"signature_zh", "CUDA 错误：显存不足"},
                                        {"regex", "(?i)cuda error: out of memory"},
                                        {"fix_success_rate", 0.8125}};
  const nlohmann::ordered_json second = {
      {"id", "cuda/b"}, {"signature", "Ä kernel"}, {"regex", "a\\Cb"}, {"fix_success_rate", 0.5}};
  const SiteModel model({&first, &second}, SiteConfig{});
  auto zh = nlohmann::json::parse(match_data(model, default_languages()[1], match_figures(model)));
  CHECK(zh["version"] == 2);
  CHECK(zh["lang"] == "zh");
  // [9], the breadth penalty, depends on the benign corpus kbc carries: "a\\Cb" is broad.
  CHECK(zh["entries"][0][9] == 0);
  CHECK(zh["entries"][1][9].get<int>() > kBenignPenalty);
  zh["entries"][1][9] = 0;
  CHECK(zh["entries"] == nlohmann::json::parse(R"([
          ["cuda/a", "  CUDA error: out of memory ", "CUDA 错误：显存不足",
           "cuda error: out of memory", "iu", 25, 25, 813, ["cuda error: out of memory"],
           0, [], [], "", []],
          ["cuda/b", "Ä kernel", null, null, "", 2, 8, 500, [], 0, [], [], "", []]])"));
  CHECK(zh["reading"]["key"] == kKeyLinePattern);
  CHECK(zh["score"]["min_score"] == kDefaultMinScore);
  const auto en =
      nlohmann::json::parse(match_data(model, default_languages()[0], match_figures(model)));
  CHECK(en["entries"][0][2] == nullptr);  // the English title is the signature
}

TEST_CASE("breadth figures come from the memo only for the same texts and the same regex") {
  nlohmann::ordered_json broad = {
      {"id", "cuda/broad"}, {"signature", "Ä kernel"}, {"regex", "a\\Cb"}};
  const nlohmann::ordered_json other = {
      {"id", "cuda/other"}, {"signature", "CUDA error: out of memory"}, {"regex", "out of memory"}};
  const nlohmann::ordered_json no_regex = {{"id", "cuda/none"}, {"signature", "x"}};
  const std::vector<int> measured =
      match_figures(SiteModel({&broad, &other, &no_regex}, SiteConfig{})).breadth_penalty;
  REQUIRE(measured[0] > kBenignPenalty);

  BreadthMemo memo;
  const SiteModel model({&broad, &other, &no_regex}, SiteConfig{});
  CHECK(match_figures(model, nullptr, &memo).breadth_penalty == measured);
  CHECK(memo.penalties.size() == 2);  // the entries with a regex
  // A memo is used as it is: a false figure in it shows that it was.
  BreadthMemo planted = memo;
  for (auto& [key, penalty] : planted.penalties) penalty = 7;
  BreadthMemo in = planted;
  CHECK(match_figures(model, nullptr, &in).breadth_penalty == std::vector<int>{7, 7, 0});
  CHECK_FALSE(in.changed);  // nothing to store again
  CHECK(memo.changed);      // it was empty
  CHECK(BreadthMemo::from_json(memo.to_json())->penalties == memo.penalties);
  CHECK_FALSE(BreadthMemo::from_json(nlohmann::json::array()));

  // Another regex is measured; the other entry's figure still comes from the memo.
  broad["regex"] = "Ä kernel";
  in = planted;
  const SiteModel edited({&broad, &other, &no_regex}, SiteConfig{});
  const std::vector<int> changed = match_figures(edited, nullptr, &in).breadth_penalty;
  CHECK(changed[0] != 7);
  CHECK(changed[1] == 7);
  CHECK(in.changed);
  // Another signature changes what every regex is measured on: nothing is taken from the memo.
  const nlohmann::ordered_json third = {{"id", "cuda/third"}, {"signature", "a kernel b"}};
  in = planted;
  const SiteModel more({&broad, &other, &no_regex, &third}, SiteConfig{});
  CHECK(match_figures(more, nullptr, &in).breadth_penalty == match_figures(more).breadth_penalty);
  CHECK(in.texts != planted.texts);
}

TEST_CASE("every regex of this repository's entries has a JavaScript form") {
  const RealFileSystem fs;
  Diagnostics problems;
  const KnowledgeBase kb = load_entries(fs, KBC_SOURCE_DIR, false, problems);
  REQUIRE(kb.entries.size() >= 10);
  for (const Entry& entry : kb.entries) {
    INFO(entry.id() << ": " << entry.text("/regex"));
    const JsRegex js = js_regex(entry.text("/regex"));
    CHECK(js.reason == "");
  }
}
