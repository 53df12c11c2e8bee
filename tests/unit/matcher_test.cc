// kbc match: the ranking (rank.h), which the site's JavaScript must reproduce exactly, and the
// Matcher over lines, logs and bundles (matcher.h).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/diagnostic.h"
#include "base/text.h"
#include "base/utf8.h"
#include "match/bundle_reader.h"
#include "match/hit_json.h"
#include "match/log_lines.h"
#include "match/log_scan.h"
#include "match/matcher.h"
#include "match/rank.h"
#include "match/regex_index.h"
#include "match/regex_plans.h"

using namespace kbc;

namespace {

MatchRecord record(std::string id, std::string regex, double fix_rate = 0.5,
                   std::string signature = "") {
  MatchRecord out;
  out.id = std::move(id);
  out.regex = std::move(regex);
  out.fix_success_rate = fix_rate;
  out.signature = std::move(signature);
  return out;
}

// The ids of the hits, best first.
std::vector<std::string> ids(const Matcher& matcher, const std::vector<Hit>& hits) {
  std::vector<std::string> out;
  for (const Hit& hit : hits) out.push_back(matcher.records()[hit.record].id);
  return out;
}

// The ranking tests measure no breadth: an empty benign corpus, so that what kbc carries does
// not change them.
const std::vector<BenignLine> kNoBenign;
const MatchOptions kPlain{.benign = &kNoBenign};

std::vector<std::string> ranked(const std::vector<MatchRecord>& records, const std::string& line) {
  const Matcher matcher(records, kPlain);
  return ids(matcher, matcher.match_line(line));
}

// What nlohmann's exception thrown by `read` says, or "" when it throws none.
template <typename Read>
std::string json_error(Read read) {
  try {
    read();
  } catch (const nlohmann::json::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("regex specificity counts the literal code points any match must contain") {
  struct Case {
    const char* pattern;
    int literals;
  };
  const Case cases[] = {
      {"(?i)cuda error: out of memory", 25},  // flags count nothing
      {"(?i)cuda.*error", 9},
      {"(?i)(oom|out of memory)", 3},  // the alternative with the fewest
      {"foo|barbaz", 3},
      {"(a|bc)(d|ef)", 2},
      {"a?b", 1},
      {"ab*", 1},
      {"a{0,3}b", 1},
      {"a{2}b", 2},
      {"a+b", 2},
      {"a+?b", 2},  // a lazy quantifier is still one item
      {"(?:foo)?bar", 3},
      {"(?P<name>foo)bar", 6},
      {"[abc]x", 1},
      {"[]a]x", 1},  // `]` first in a class is part of it
      {"[[:alpha:]]x", 1},
      {"\\d+ms", 2},
      {"\\pLx\\p{Greek}y", 2},
      {"\\.x", 2},
      {"\\x41\\x{263a}", 2},
      {"\\Qa.b\\E", 3},
      {"x{", 2},  // not a repetition: a literal brace
      {"x{2,", 4},
      {"^$", 0},
      {"", 0},
      {"错误", 2},
      {"(((", 0},   // not a valid pattern: still a number
      {"ab\\", 2},  // a trailing backslash
      {"(?i", 0},
  };
  for (const Case& c : cases) {
    INFO(c.pattern);
    CHECK(regex_specificity(c.pattern) == c.literals);
  }
}

TEST_CASE("coverage, rates and code points are whole numbers") {
  CHECK(coverage_permille(1, 3) == 333);
  CHECK(coverage_permille(2, 3) == 666);  // floor, not rounded
  CHECK(coverage_permille(3, 3) == 1000);
  CHECK(coverage_permille(0, 5) == 0);
  CHECK(coverage_permille(5, 0) == 0);
  CHECK(rate_permille(0.8) == 800);
  CHECK(rate_permille(0.925) == 925);
  CHECK(rate_permille(0.0) == 0);
  CHECK(rate_permille(1.5) == 1000);
  CHECK(rate_permille(-1) == 0);
  CHECK(rate_permille(std::nan("")) == 0);
  CHECK(code_points("abc") == 3);
  CHECK(code_points("é错") == 2);
  CHECK(code_points("") == 0);
}

TEST_CASE("a line looks like an error when it holds one of the error words, in any case") {
  CHECK(looks_like_error("RuntimeError: CUDA error: out of memory"));
  CHECK(looks_like_error("FATAL: the database system is shutting down"));
  CHECK(looks_like_error("java.lang.NullPointerException"));
  CHECK(looks_like_error("connect() TIMED OUT after 30 s"));
  CHECK(looks_like_error("Permission denied"));
  CHECK_FALSE(looks_like_error("INFO worker-3 processed batch 12 in 35 ms"));
  CHECK_FALSE(looks_like_error(""));
  // At either end of a short text, with a space or an apostrophe inside the word.
  CHECK(looks_like_error("fail"));
  CHECK(looks_like_error("ERRNO"));
  CHECK(looks_like_error("x: No Such file"));
  CHECK(looks_like_error("Can't open"));
  CHECK_FALSE(looks_like_error("fai"));
  CHECK_FALSE(looks_like_error("can not, no-such"));
  // As RE2's (?i) folds: the long s and the Kelvin sign are s and k; bytes beyond UTF-8 pass.
  CHECK(looks_like_error("\u017Fegfault"));
  CHECK(looks_like_error("\u212Ailled by the OOM killer"));
  CHECK(looks_like_error("\xff\xfe error \xc3"));
  CHECK_FALSE(looks_like_error("\u00E9rror, \u00C9RROR"));
}

TEST_CASE("ranking: what a pattern says beats how much of the line its match spans") {
  // ".*quota.*" covers the whole line, but "quota exceeded" says more about it.
  CHECK(ranked({record("a/specific", "quota exceeded"), record("b/broad", ".*quota.*")},
               "disk quota exceeded on /data") ==
        std::vector<std::string>{"a/specific", "b/broad"});
}

TEST_CASE("ranking: a more specific regex wins over a catch-all covering as much") {
  CHECK(ranked({record("a/catch-all", "(?i).*error.*", 0.99),
                record("b/cuda-oom", "(?i)cuda error: out of memory", 0.1)},
               "CUDA error: out of memory") ==
        std::vector<std::string>{"b/cuda-oom", "a/catch-all"});
}

TEST_CASE("ranking: specificity beats fix rate, fix rate beats id, id breaks ties") {
  CHECK(ranked({record("a/broad", "connection.*", 0.9),
                record("b/exact", "connection timed out", 0.1)},
               "connection timed out") == std::vector<std::string>{"b/exact", "a/broad"});
  CHECK(ranked({record("a/low", "timed out", 0.5), record("b/high", "timed out", 0.9)},
               "connection timed out") == std::vector<std::string>{"b/high", "a/low"});
  CHECK(ranked({record("b/same", "timed out", 0.9), record("a/same", "timed out", 0.9)},
               "connection timed out") == std::vector<std::string>{"a/same", "b/same"});
}

TEST_CASE("a hit carries its rank, its span and what matched") {
  const Matcher matcher({record("a/x", "out of memory", 0.925)}, kPlain);
  const std::vector<Hit> hits = matcher.match_line("  RuntimeError: CUDA error: out of memory  ");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].line == "RuntimeError: CUDA error: out of memory");  // trimmed
  CHECK(hits[0].line.substr(hits[0].begin, hits[0].end - hits[0].begin) == "out of memory");
  // 13 literal characters (65), 13 of the line's 39 (33), the line that states the error (150).
  CHECK(hits[0].rank == Rank{248, 1, 333, 13, 0, 925});
  CHECK(hits[0].kind == LineKind::key);
  CHECK_FALSE(hits[0].by_signature);
}

TEST_CASE("an entry also matches by its signature, as literal text ignoring case") {
  const std::vector<MatchRecord> records = {
      record("a/broken-regex", "this regex misses", 0.5, "Device (GPU 0) lost: Xid 79"),
      record("b/other", "nothing here")};
  const Matcher matcher(records);
  const std::vector<Hit> hits = matcher.match_line("kernel: device (gpu 0) LOST: xid 79");
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/broken-regex"});
  CHECK(hits[0].by_signature);
  CHECK(hits[0].rank.specificity == 27);
  CHECK(hits[0].rank.signature == 1);
  const Matcher regexes_only(records, {.signatures = false});
  CHECK(regexes_only.match_line("kernel: device (gpu 0) LOST: xid 79").empty());
}

TEST_CASE("an entry's regex is sought unless its signature covers the whole line") {
  const Matcher matcher({record("a/disk", "(?i)disk full on /dev/\\w+ and more", 0.5, "disk full"),
                         record("b/broad", "(?i)disk.*", 0.5, "Disk FULL")},
                        kPlain);
  // The signature covers part of the line; a's regex says more (27 characters: 135, against
  // 45 and the signature's 100), b's says less.
  std::vector<Hit> hits = matcher.match_line("Disk full on /dev/sda1 and more");
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/disk", "b/broad"});
  CHECK_FALSE(hits[0].by_signature);
  CHECK(hits[0].rank == Rank{135 + 87, 0, 1000, 27, 0, 500});
  CHECK(hits[1].by_signature);
  CHECK(hits[1].rank == Rank{145 + 29, 0, 290, 9, 1, 500});
  // The line is both signatures, which outrank b's regex covering it too: a tie, by id.
  hits = matcher.match_line("disk full");
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/disk", "b/broad"});
  CHECK(hits[1].by_signature);
  CHECK(hits[1].rank == Rank{145 + 100, 0, 1000, 9, 1, 500});
  // Over a text, each keeps its best line: the signature's line.
  hits = matcher.match_text("disk full on /dev/sdb and more\ndisk full\n", 5, 0);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/disk", "b/broad"});
  CHECK(hits[0].line_number == 2);
  CHECK(hits[0].lines == 2);
  CHECK(hits[1].line_number == 2);
  CHECK(hits[1].lines == 2);
}

TEST_CASE("ranking: of two matches as good, the entry whose signature it is comes first") {
  CHECK(ranked({record("a/regex", "(?i)exec format error", 0.9),
                record("b/signature", "exec format", 0.1, "exec format error")},
               "exec format error") == std::vector<std::string>{"b/signature", "a/regex"});
}

TEST_CASE("an empty match is no hit") {
  CHECK(ranked({record("a/x", "x*"), record("b/y", "(?:abc)?")}, "zzz").empty());
}

TEST_CASE("in a log, each entry keeps its best line, and error lines come first") {
  const Matcher matcher({record("a/connection", "connection"), record("b/pool", "pool.*")}, kPlain);
  const std::string log =
      "WARN pool ready: 8 connections\n"
      "WARN connection established to db\n"
      "\n"
      "ERROR connection refused by db\n";
  const std::vector<Hit> hits = matcher.match_text(log, 10, 0);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/connection", "b/pool"});
  CHECK(hits[0].line_number == 4);  // the error line, not the earlier one
  CHECK(hits[0].lines == 3);        // "connections" counts too
  CHECK(hits[1].line_number == 1);
  CHECK(hits[1].rank.error_line == 0);
  CHECK(matcher.match_text(log, 1, 0).size() == 1);
  CHECK(matcher.match_text(log, 10).size() == 1);  // b/pool's 33 is under the threshold
}

TEST_CASE(
    "a line declares a low severity by INFO DEBUG or TRACE as a capital word near its start") {
  CHECK(declares_low_severity("2024-06-01 12:00:00.123 INFO  [main] ready"));
  CHECK(declares_low_severity("DEBUG:root:cache hit"));
  CHECK(declares_low_severity("[TRACE] enter f()"));
  CHECK(declares_low_severity("INFO"));
  CHECK_FALSE(declares_low_severity("info: ready"));  // capitals only
  CHECK_FALSE(declares_low_severity("INFORMATION: ready"));
  CHECK_FALSE(declares_low_severity("XINFO ready"));
  CHECK_FALSE(declares_low_severity("WARN pool at 90%"));
  CHECK_FALSE(declares_low_severity("ERROR [main] bad INFO_BLOCK"));
  CHECK_FALSE(declares_low_severity(std::string(kSeverityBytes - 3, '.') + "INFO"));
  CHECK(declares_low_severity(std::string(kSeverityBytes - 4, '.') + "INFO"));
}

TEST_CASE("in a log the INFO DEBUG and TRACE lines without an error word match only such entries") {
  const Matcher matcher({record("a/idle", "(?i)idle"),
                         record("b/pip", "pip is looking", 0.5, "INFO: pip is looking at it")},
                        kPlain);
  const std::string log =
      "2024-06-01 INFO [pool] 3 idle connections\n"  // skipped
      "DEBUG pip is looking at it\n"                 // b/pip's signature declares INFO too
      "TRACE idle timeout reached\n";                // "timeout": an error word
  std::vector<Hit> hits = matcher.match_text(log, 10, 0);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/idle", "b/pip"});
  CHECK(hits[0].line_number == 3);  // an error line first
  CHECK(hits[0].lines == 1);
  CHECK(hits[1].line_number == 2);

  LogScan scan(matcher);
  scan.feed(log);
  CHECK(scan.finish(10, 0).size() == 2);
  CHECK(scan.low_lines() == 2);  // the first two

  LogScan all(matcher, {.all_lines = true});
  all.feed(log);
  hits = all.finish(10, 0);
  CHECK(all.low_lines() == 0);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/idle", "b/pip"});
  CHECK(hits[0].line_number == 3);
  CHECK(hits[0].lines == 2);  // the INFO line too

  // One line is an error message, matched in full; blank lines do not make it a log.
  for (const char* text : {"INFO [pool] 3 idle connections", "\n INFO [pool] 3 idle\n\n"}) {
    INFO(text);
    CHECK(ids(matcher, matcher.match_text(text, 10, 0)) == std::vector<std::string>{"a/idle"});
  }
  // Without an entry like b/pip, such lines are not matched at all.
  const Matcher idle_only({record("a/idle", "(?i)idle")}, kPlain);
  CHECK(idle_only.match_text("INFO 3 idle\nDEBUG 4 idle\n", 10, 0).empty());
}

TEST_CASE("a log gives the same hits however it is split into blocks") {
  std::vector<MatchRecord> records = {record("a/oom", "(?i)out of memory"),
                                      record("b/refused", "connection refused"),
                                      record("c/denied", "(?i)permission denied")};
  const Matcher matcher(std::move(records), kPlain);
  std::string log;
  for (int i = 0; i < 3000; ++i) {
    log += "INFO step " + std::to_string(i) + " ok\n";
    if (i % 700 == 3) log += "ERROR: connection refused (attempt " + std::to_string(i) + ")\n";
    if (i == 2500) log += "RuntimeError: CUDA out of memory\n";
    if (i == 1000) log += std::string(kMaxLineBytes * 2 + 10, 'x') + " Permission denied\n";
    if (i == 1500) log += std::string(kMaxLineBytes + 5, 'y') + " INFO out of memory\n";
  }
  log += "permission denied, no newline at the end";
  const std::vector<Hit> whole = matcher.match_text(log, 10);
  // Fed in blocks of `feed` bytes, matched whenever `buffered` bytes are waiting: small enough
  // to cut the long line into pieces before its end arrives, large enough to use every core.
  const std::pair<std::size_t, std::size_t> splits[] = {{1, 100}, {7, 100}, {4096, 70000}};
  for (const auto& [feed, buffered] : splits) {
    LogScan scan(matcher, {.block_bytes = buffered});
    for (std::size_t at = 0; at < log.size(); at += feed)
      scan.feed(std::string_view(log).substr(at, feed));
    const std::vector<Hit> split = scan.finish(10);
    INFO("feed " << feed << ", buffered " << buffered);
    REQUIRE(split.size() == whole.size());
    for (std::size_t i = 0; i < split.size(); ++i) {
      CHECK(split[i].record == whole[i].record);
      CHECK(split[i].line_number == whole[i].line_number);
      CHECK(split[i].lines == whole[i].lines);
      CHECK(split[i].rank == whole[i].rank);
    }
    CHECK(scan.lines() == 3000 + 5 + 1 + 1 + 1 + 1);
  }
  // "ERROR: connection refused" and "RuntimeError: ..." state their errors (key lines).
  REQUIRE(ids(matcher, whole) == std::vector<std::string>{"b/refused", "a/oom", "c/denied"});
  CHECK(whole[0].lines == 5);
  CHECK(whole[0].kind == LineKind::key);
  CHECK(whole[1].line_number == 2508);
  CHECK(whole[1].lines == 2);           // the long line's rest is no INFO line of its own
  CHECK(whole[2].line_number == 1004);  // the long line, found in its last piece
  CHECK(whole[2].lines == 2);
}

TEST_CASE("match records come from entries and published records alike") {
  const auto json = nlohmann::json::parse(R"({
    "id": "cuda/x", "signature": "CUDA error: x", "regex": "x", "fix_success_rate": 0.75,
    "workarounds": [{"action": "first", "success_rate": 0.5, "how": "a"},
                    {"action": "best", "success_rate": 0.9, "how": "b"},
                    {"action": "tie", "success_rate": 0.9}],
    "dead_ends": [{"action": "reinstall", "fail_rate": 0.8}, {"action": "reboot"}, 3]})");
  const MatchRecord r = match_record(json);
  CHECK(r.id == "cuda/x");
  CHECK(r.fix_success_rate == 0.75);
  REQUIRE(r.best_workaround);
  CHECK(r.best_workaround->action == "best");
  CHECK(r.best_workaround->how == "b");
  REQUIRE(r.dead_ends.size() == 2);
  CHECK(r.dead_ends[0].action == "reinstall");
  CHECK(r.dead_ends[1].rate == 0);
  CHECK_FALSE(match_record(nlohmann::json::object()).best_workaround);
}

TEST_CASE("a bundle must be an array of records with an id and a regex") {
  const auto bundle = nlohmann::json::parse(R"([{"id": "a/x", "regex": "x"},
                                                {"id": "b/y", "regex": "y"}])");
  CHECK(match_records_from_bundle(bundle).size() == 2);
  const auto fails = [](const char* text, const char* message) {
    INFO(text);
    CHECK_THROWS_WITH(match_records_from_bundle(nlohmann::json::parse(text)),
                      Catch::Contains(message));
    CHECK_THROWS_WITH(match_records_from_bundle_text(text), Catch::Contains(message));
  };
  fails(R"({"id": "a/x"})", "a bundle is a JSON array of records, not object");
  fails(R"([{"id": "a/x", "regex": "x"}, 3])", "record 2 of the bundle is not a JSON object");
  fails(R"([{"id": "a/x", "regex": "x"}, {"id": "b/y"}])",
        "record 2 of the bundle has no text 'regex'");
  fails(R"([{"id": 1, "regex": "x"}])", "record 1 of the bundle has no text 'id'");
  for (const auto& [text, type] : {std::pair{"\"a\"", "string"},
                                   {"3", "number"},
                                   {"1.5", "number"},
                                   {"null", "null"},
                                   {"true", "boolean"}}) {
    fails(text, (std::string("a bundle is a JSON array of records, not ") + type).c_str());
  }
  // The first record at fault, in order; the last of repeated keys.
  fails(R"([{"regex": "x"}, 3])", "record 1 of the bundle has no text 'id'");
  fails(R"([{"id": "a/x", "regex": "x"}, [{"id": "b/y", "regex": "y"}]])",
        "record 2 of the bundle is not a JSON object");
  fails(R"([{"id": "a/x", "id": 5, "regex": "x"}])", "record 1 of the bundle has no text 'id'");
  fails(R"([{"id": "a/x", "regex": "x", "regex": null}])",
        "record 1 of the bundle has no text 'regex'");
  // A syntax error anywhere, or a number out of range, comes before any record at fault.
  for (const char* text : {R"([3, {"id": "a/x")", R"([3, {"id": "a/x", "regex": "x"}] x)",
                           R"([{"id": "a/x", "regex": "x", "fix_success_rate": 1e999}, 3])"}) {
    INFO(text);
    const std::string whole =
        json_error([&] { match_records_from_bundle(nlohmann::json::parse(text)); });
    CHECK_FALSE(whole.empty());
    CHECK(json_error([&] { match_records_from_bundle_text(text); }) == whole);
  }
}

TEST_CASE("a bundle read from its text gives the records its whole document gives") {
  // Keys a record does not use, at every depth, some named as the used ones; repeated keys.
  const std::string text = R"([
    {"id": "a/x", "title": {"id": "not me", "regex": "nor me"}, "signature": "A x",
     "regex": "x+", "fix_success_rate": 1, "related": [{"id": "b/y", "how": "no"}],
     "workarounds": [{"action": "w1", "how": "h1", "success_rate": 0.25, "steps": ["s"]},
                     {"action": "w2", "how": {"how": "deep"}, "success_rate": 0.5,
                      "notes": {"action": "deeper"}}],
     "dead_ends": [{"action": "d1", "fail_rate": 0.75, "why": "because"}, "odd", [1]],
     "zh": {"signature": "not me", "dead_ends": [{"action": "nor me"}]}},
    {"id": "b/y", "regex": "y", "regex": "z", "fix_success_rate": "high",
     "workarounds": {"action": "not a list"}, "dead_ends": [{"action": 3, "fail_rate": "x"}]},
    {"id": 5, "id": "c/z", "signature": ["S"], "regex": "z", "fix_success_rate": 2,
     "workarounds": [{"action": "gone", "success_rate": 1}],
     "workarounds": [[{"action": "nested"}], {"action": "w", "how": "h", "how": 7,
                     "success_rate": 18446744073709551615, "success_rate": 3}],
     "dead_ends": [{"action": "gone"}], "dead_ends": "none", "signature": {"zh": "S"}}
  ])";
  const std::vector<MatchRecord> whole = match_records_from_bundle(nlohmann::json::parse(text));
  const std::vector<MatchRecord> read = match_records_from_bundle_text(text);
  const auto action = [](const MatchAction& a) { return std::tuple(a.action, a.how, a.rate); };
  REQUIRE(read.size() == 3);
  REQUIRE(whole.size() == 3);
  for (std::size_t i = 0; i < read.size(); ++i) {
    CHECK(read[i].id == whole[i].id);
    CHECK(read[i].signature == whole[i].signature);
    CHECK(read[i].regex == whole[i].regex);
    CHECK(read[i].fix_success_rate == whole[i].fix_success_rate);
    REQUIRE(read[i].best_workaround.has_value() == whole[i].best_workaround.has_value());
    if (read[i].best_workaround)
      CHECK(action(*read[i].best_workaround) == action(*whole[i].best_workaround));
    REQUIRE(read[i].dead_ends.size() == whole[i].dead_ends.size());
    for (std::size_t d = 0; d < read[i].dead_ends.size(); ++d)
      CHECK(action(read[i].dead_ends[d]) == action(whole[i].dead_ends[d]));
  }
  CHECK(read[0].signature == "A x");
  CHECK(read[0].best_workaround->action == "w2");
  CHECK(read[0].best_workaround->how.empty());
  REQUIRE(read[0].dead_ends.size() == 1);
  CHECK(action(read[0].dead_ends[0]) == std::tuple(std::string("d1"), std::string(), 0.75));
  CHECK(read[1].regex == "z");
  CHECK_FALSE(read[1].best_workaround);
  CHECK(read[2].id == "c/z");
  CHECK(read[2].signature.empty());
  CHECK(read[2].fix_success_rate == 2);
  REQUIRE(read[2].best_workaround);
  CHECK(action(*read[2].best_workaround) == std::tuple(std::string("w"), std::string(), 3.0));
  CHECK(read[2].dead_ends.empty());
  CHECK_THROWS_AS(match_records_from_bundle_text(R"([{"id": "a/x", "regex": "x"})"),
                  nlohmann::json::parse_error);
}

// A record whose strings hold what a cut must not be fooled by: quotes escaped after runs of
// backslashes, brackets, braces and commas; `n` numbers it.
std::string tricky_record(std::size_t n) {
  const std::string id = "r/" + std::to_string(n);
  return R"({"id": ")" + id + R"(", "signature": "a \"quoted\", [x] {y} \\", "regex": "\\[\\d+\\]",
    "title": {"en": "\\\"],{", "zh": "[\"},"}, "tags": [",", "]", "}", [1, [2]]],
    "workarounds": [{"action": "w\\\\", "how": "{,}", "success_rate": 0.5}],
    "dead_ends": [{"action": ")" +
         id + R"(", "fail_rate": 0.25}]})";
}

std::string tricky_bundle(std::size_t records) {
  std::string text = "[\n";
  for (std::size_t i = 0; i < records; ++i) text += (i ? ",\n  " : "  ") + tricky_record(i);
  return text + "\n]\n";
}

// Every field a MatchRecord holds, for comparing two readers.
auto all_fields(const MatchRecord& r) {
  const auto action = [](const std::optional<MatchAction>& a) {
    return a ? std::tuple(true, a->action, a->how, a->condition, a->rate)
             : std::tuple(false, std::string(), std::string(), std::string(), 0.0);
  };
  std::vector<std::tuple<std::string, double>> dead_ends;
  for (const MatchAction& d : r.dead_ends) dead_ends.emplace_back(d.action, d.rate);
  return std::tuple(r.id, r.signature, r.regex, r.fix_success_rate, action(r.best_workaround),
                    action(r.next_workaround), dead_ends, r.aliases, r.error_code, r.tags);
}

TEST_CASE("the simdjson reader reads a bundle as the SAX reader does, and leaves it every fault") {
  const std::string text = tricky_bundle(50) + " ";
  const std::vector<MatchRecord> fast = match_records_from_bundle_text(text);
  const std::vector<MatchRecord> sax = match_records_from_bundle_sax(text);
  REQUIRE(fast.size() == 50);
  REQUIRE(sax.size() == 50);
  for (std::size_t i = 0; i < fast.size(); ++i) CHECK(all_fields(fast[i]) == all_fields(sax[i]));
  // Texts that are not JSON, or JSON that is not a bundle, are reported as the SAX reader does.
  const auto outcome = [](const auto& read) {
    try {
      return "records: " + std::to_string(read().size());
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  };
  for (const std::string& faulty :
       {std::string("[1e400]"), std::string(R"([{"id": "a", "regex": "\ud800"}])"),
        std::string("[{\"id\": \"a\", \"regex\": \"\xff\"}]"), std::string("[] []"),
        std::string(R"([{"id": "a", "regex": "x"}, 3])"), std::string(R"({"id": "a"})"),
        std::string(R"([{"id": "a", "regex": 1}])"), std::string(""), std::string("\xef\xbb\xbf[]"),
        std::string(2000, '[') + std::string(2000, ']')}) {
    INFO(faulty.substr(0, 40));
    CHECK(outcome([&] { return match_records_from_bundle_text(faulty); }) ==
          outcome([&] { return match_records_from_bundle_sax(faulty); }));
  }
}

TEST_CASE("a large bundle gives the records of its whole document") {
  const auto action = [](const MatchAction& a) { return std::tuple(a.action, a.how, a.rate); };
  std::string text = tricky_bundle(4000);
  const std::vector<MatchRecord> whole = match_records_from_bundle(nlohmann::json::parse(text));
  const std::vector<MatchRecord> read = match_records_from_bundle_text(text);
  REQUIRE(read.size() == 4000);
  REQUIRE(whole.size() == 4000);
  for (std::size_t i = 0; i < read.size(); i += 97) {
    INFO("record " << i);
    CHECK(read[i].id == "r/" + std::to_string(i));
    CHECK(read[i].signature == whole[i].signature);
    CHECK(read[i].regex == whole[i].regex);
    REQUIRE(read[i].best_workaround);
    CHECK(action(*read[i].best_workaround) == action(*whole[i].best_workaround));
    REQUIRE(read[i].dead_ends.size() == 1);
    CHECK(read[i].dead_ends[0].action == read[i].id);
  }
  CHECK(read.back().id == "r/3999");
  // A fault far into the text is named as in the whole document, and a syntax error there too.
  std::string faulty = text;
  faulty.replace(faulty.find(R"("id": "r/3000")"), 14, R"("id": 3000)");
  CHECK_THROWS_WITH(match_records_from_bundle_text(faulty),
                    "record 3001 of the bundle has no text 'id'");
  std::string broken = text;
  broken.insert(broken.find(R"("id": "r/3500")"), "}");
  const std::string whole_error =
      json_error([&] { [[maybe_unused]] const auto document = nlohmann::json::parse(broken); });
  CHECK_FALSE(whole_error.empty());
  CHECK(json_error([&] { match_records_from_bundle_text(broken); }) == whole_error);
}

TEST_CASE("a regex RE2 rejects is reported and never matches") {
  const Matcher matcher({record("a/bad", "(unclosed"), record("b/good", "unclosed")});
  REQUIRE(matcher.regex_errors().size() == 1);
  CHECK(matcher.regex_errors()[0].first == "a/bad");
  CHECK(ids(matcher, matcher.match_line("(unclosed")) == std::vector<std::string>{"b/good"});
}

TEST_CASE("hit_json: stable keys, offsets in code points") {
  MatchRecord r = record("a/x", "错误", 0.5, "sig");
  r.best_workaround = MatchAction{"do it", "how", "on Linux", 0.9};
  r.next_workaround = MatchAction{"or this", "", "", 0.5};
  r.dead_ends = {{"do not", "", "", 0.7}};
  const Matcher matcher({r});
  const std::vector<Hit> hits = matcher.match_line("é 错误 x");
  REQUIRE(hits.size() == 1);
  const auto json = hit_json(matcher, hits[0], 1);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"rank", "id", "signature", "line", "text", "match",
                                         "score", "near", "lines", "fix_success_rate", "workaround",
                                         "next_workaround", "breadth", "dead_ends"});
  CHECK(json["workaround"]["condition"] == "on Linux");
  CHECK(json["next_workaround"]["action"] == "or this");
  CHECK(json["near"] == false);
  CHECK(json["breadth"]["benign_lines"] == 0);
  CHECK(json["score"]["line_kind"] == "plain");
  CHECK(json["match"]["begin"] == 2);
  CHECK(json["match"]["end"] == 4);
  CHECK(json["score"]["coverage"] == 333);
  CHECK(json["workaround"]["action"] == "do it");
  CHECK(json["dead_ends"][0]["fail_rate"] == 0.7);
}

namespace {

// Patterns of every kind the prefilter meets: with atoms, without (x?, ^$), beyond ASCII, and
// with atoms of digits alone (the last two, kept in a group of shards of their own); and texts
// that some of them match.
const std::vector<std::string> kIndexPatterns = {"(?i)out of memory",
                                                 "CUDA.*failed",
                                                 "[0-9]+ms",
                                                 "(?i)(oom|killed)",
                                                 "x?",
                                                 "^$",
                                                 "(?i)错误.*内存",
                                                 "(?i)(410.*gone|endpoint.*removed)",
                                                 "exit (code|status) 137"};
const std::vector<std::string> kIndexTexts = {"RuntimeError: CUDA out of memory",
                                              "OOMKilled",
                                              "CUDA launch failed after 35ms",
                                              "",
                                              "错误：显存内存不足",
                                              "nothing",
                                              "HTTP 410 Gone after 35ms",
                                              "HTTP 411 Gone after 35ms",
                                              "the endpoint was removed",
                                              "OOMKilled: exit code 137"};

}  // namespace

TEST_CASE("RegexIndex candidates are a superset of the matches, each answer remembered") {
  const std::vector<std::string>& patterns = kIndexPatterns;
  std::vector<std::optional<std::string_view>> views(patterns.begin(), patterns.end());
  views.push_back(std::nullopt);
  std::vector<std::string> texts = kIndexTexts;
  texts.push_back("exit status 137 (out of memory)");
  const RegexIndex index(views);
  RegexIndex::Scratch scratch;
  for (const std::string& text : texts) {
    INFO(text);
    std::vector<std::size_t> brute;
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      if (RE2::PartialMatch(text, *index.regex(i))) brute.push_back(i);
    }
    CHECK(index.matching(text) == brute);
    const std::vector<std::size_t>& candidates = index.candidates(text, scratch);
    CHECK(std::includes(candidates.begin(), candidates.end(), brute.begin(), brute.end()));
    CHECK(index.candidates(text) == candidates);
  }
  CHECK(index.matching("HTTP 410 Gone after 35ms") == std::vector<std::size_t>{2, 4, 7});
  CHECK(index.matching("OOMKilled: exit code 137") == std::vector<std::size_t>{3, 4, 8});
}

TEST_CASE("a RegexIndex built from plans matches as one that compiles every regex") {
  std::vector<std::string> patterns = kIndexPatterns;
  patterns.insert(patterns.end(), {"(unclosed", "Xid 79", "ab", "ÄRGER im Büro"});
  std::vector<std::optional<std::string_view>> views(patterns.begin(), patterns.end());
  views.push_back(std::nullopt);
  // The last three are literal texts: one found with the atoms, two compiled.
  std::vector<bool> literal(views.size(), false);
  literal[10] = literal[11] = literal[12] = true;
  const std::vector<std::string_view> markers = {"error"};
  RegexPlans plans;
  const RegexIndex planned(views, literal, markers, &plans);
  const RegexIndex full(views, literal, markers);
  CHECK(plans.changed());
  CHECK(planned.error(9) == full.error(9));
  CHECK_FALSE(planned.error(9).empty());
  std::vector<std::string> texts = kIndexTexts;
  texts.insert(texts.end(),
               {"GPU has fallen off the bus: xid 79", "xx AB ab", "ärger im büro, ÄRGER IM BÜRO"});
  RegexIndex::Scratch scratch, full_scratch;
  for (const std::string& text : texts) {
    INFO(text);
    CHECK(planned.matching(text) == full.matching(text));
    const std::vector<std::size_t>& candidates = planned.candidates(text, scratch);
    const std::vector<std::size_t> matching = planned.matching(text);
    CHECK(std::includes(candidates.begin(), candidates.end(), matching.begin(), matching.end()));
    full.candidates(text, full_scratch);
    CHECK(scratch.marked() == full_scratch.marked());
  }
  // A regex is compiled only once it is a candidate, and only when it compiles.
  CHECK(planned.regex(9) == nullptr);
  REQUIRE(planned.regex(1) != nullptr);
  CHECK(planned.regex(1)->pattern() == "CUDA.*failed");
  // Both atoms of CUDA.*failed are required: a text with one of them does not make it a
  // candidate; either atom of (oom|killed) does.
  const std::vector<std::size_t> cuda = planned.candidates("CUDA ok");
  CHECK_FALSE(std::binary_search(cuda.begin(), cuda.end(), 1));
  const std::vector<std::size_t> killed = planned.candidates("was killed");
  CHECK(std::binary_search(killed.begin(), killed.end(), 3));
}

TEST_CASE("a regex is a candidate of a planned index only for a text with an atom of each clause") {
  const std::vector<std::optional<std::string_view>> views = {
      "(?i)K0 .*?(?:DataBinding.*cannot resolve|symbol)", "K0 .*x?", "(?i)k0 .*failed"};
  RegexPlans plans;
  const RegexIndex planned(views, {}, {}, &plans);
  const RegexIndex full(views);
  const auto candidate = [&](std::size_t entry, std::string_view text) {
    const std::vector<std::size_t> candidates = planned.candidates(text);
    return std::binary_search(candidates.begin(), candidates.end(), entry);
  };
  CHECK_FALSE(candidate(0, "K0 nothing else"));  // its required atom alone
  CHECK(candidate(1, "K0 nothing else"));        // needs nothing more
  CHECK_FALSE(candidate(2, "K0 nothing else"));
  CHECK(candidate(0, "K0 unknown symbol"));
  CHECK(candidate(0, "k0 DataBinding: cannot resolve"));
  CHECK_FALSE(candidate(0, "symbol without the token"));
  for (const std::string_view text : {"K0 nothing else", "K0 unknown symbol", "k0 build failed",
                                      "k0 DataBinding: cannot resolve", "symbol K0"}) {
    INFO(text);
    CHECK(planned.matching(text) == full.matching(text));
  }
}

TEST_CASE("a RegexIndex for distinct texts lets through what the default form lets through") {
  std::vector<std::string> patterns = kIndexPatterns;
  patterns.insert(patterns.end(), {"(unclosed", "Xid 79"});
  std::vector<std::optional<std::string_view>> views(patterns.begin(), patterns.end());
  views.push_back(std::nullopt);
  const RegexIndex distinct(views, RegexIndex::DistinctTexts{});
  const RegexIndex full(views);
  for (std::size_t i = 0; i < views.size(); ++i) CHECK(distinct.error(i) == full.error(i));
  CHECK_FALSE(distinct.error(kIndexPatterns.size()).empty());
  std::vector<std::string> texts = kIndexTexts;
  texts.insert(texts.end(), {"GPU has fallen off the bus: xid 79", "CUDA ok", "was killed",
                             "failed", "exit status 137 (out of memory)"});
  RegexIndex::Scratch scratch(/*remember=*/false), full_scratch(/*remember=*/false);
  for (const std::string& text : texts) {
    INFO(text);
    // Few regexes: no atom feeds more than 8 others, so FilteredRE2 lets through the same.
    CHECK(distinct.candidates(text, scratch) == full.candidates(text, full_scratch));
    CHECK(distinct.matching(text) == full.matching(text));
  }
  // One atom of a shard is answered from its table: alone, an atom that a regex requires with
  // another lets nothing through; either atom of (oom|killed) lets it through.
  const std::size_t cuda = 1, either = 3;
  const std::vector<std::size_t> ok = distinct.candidates("CUDA ok");
  CHECK_FALSE(std::binary_search(ok.begin(), ok.end(), cuda));
  const std::vector<std::size_t> killed = distinct.candidates("was killed");
  CHECK(std::binary_search(killed.begin(), killed.end(), either));
  const std::vector<std::string_view> text_views(texts.begin(), texts.end());
  CHECK(distinct.matching_each(text_views) == full.matching_each(text_views));
}

TEST_CASE("whether a regex matches, and matches more than the empty text, is known without where") {
  // An empty match is a path of assertions alone, and they all hold in "" but `\b`: it matches
  // no part of "", but the empty text before "a" in " a b".
  CHECK_FALSE(may_match_empty(RE2("CUDA.*failed")));
  CHECK(may_match_empty(RE2("x*")));
  CHECK(may_match_empty(RE2("(?i)foo|")));
  CHECK(may_match_empty(RE2("\\bfoo")));
  CHECK(may_match_empty(RE2("\\b")));
  CHECK(may_match_empty(RE2("\\B")));
  CHECK(may_match_empty(RE2("(?m)^")));
  CHECK(may_match_empty(RE2("a?$")));
  CHECK_FALSE(may_match_empty(RE2("a$")));
  CHECK_FALSE(may_match_empty(RE2("^a")));
  CHECK_FALSE(may_match_empty(RE2("\\\\bx")));  // a backslash, then "bx"
  const std::vector<std::string> patterns = {"CUDA.*failed", "x*",    "\\b",    "(?:abc)?d?",
                                             "[$]5",         "a?\\B", "(?m)^$", "(?i)oom|killed"};
  const std::vector<std::optional<std::string_view>> views(patterns.begin(), patterns.end());
  const RegexIndex index(views);
  const RegexIndex distinct(views, RegexIndex::DistinctTexts{});
  RegexIndex::Scratch scratch;
  for (const std::string text :
       {"", "CUDA failed", "abc", "d", " a b", "costs $5", "axx", "OOM", "x\n\ny", "ab"}) {
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      INFO(patterns[i] << " in '" << text << "'");
      const std::optional<std::string_view> span = index.match(i, text, scratch);
      CHECK(index.matches(i, text, scratch) == span.has_value());
      CHECK(index.finds(i, text, scratch) == (span && !span->empty()));
      CHECK(distinct.finds(i, text, scratch) == (span && !span->empty()));
    }
  }
  CHECK(index.matches(1, "axx", scratch));
  CHECK_FALSE(index.finds(1, "axx", scratch));  // its leftmost match is the empty one before "a"
  CHECK_FALSE(index.finds(2, " a b", scratch));
  CHECK(index.finds(3, "abc", scratch));
}

namespace {

// The clauses of `plan` as sets of its atoms' texts.
std::set<std::set<std::string>> clause_texts(const RegexPlan& plan) {
  std::set<std::set<std::string>> texts;
  for (const std::vector<int>& clause : plan.clauses) {
    std::set<std::string> text;
    for (const int atom : clause) text.insert(plan.atoms[static_cast<std::size_t>(atom)]);
    texts.insert(std::move(text));
  }
  return texts;
}

}  // namespace

TEST_CASE("a regex's plan: its atoms and the sets of them a text holds one of, or its error") {
  const RegexPlan both = plan_regex("CUDA.*failed");
  CHECK(both.atoms.size() == 2);
  CHECK(both.clauses == std::vector<std::vector<int>>{{0}, {1}});  // both required
  const RegexPlan either = plan_regex("(?i)(oom|killed)");
  CHECK(either.atoms == std::vector<std::string>{"oom", "killed"});
  CHECK(either.clauses == std::vector<std::vector<int>>{{0, 1}});
  // `k0 ` is required, and alone it does not pass: `symbol` or both of the other two too. Its
  // minimal clauses are {k0 } and {symbol, one of the other two}; the plan finds the first and
  // one of the others.
  const std::set<std::set<std::string>> token =
      clause_texts(plan_regex("(?i)K0 .*?(?:DataBinding.*cannot resolve|symbol)"));
  CHECK(token.count({"k0 "}));
  CHECK((token.count({"databinding", "symbol"}) || token.count({"cannot resolve", "symbol"})));
  CHECK(token.size() <= 3);
  CHECK(clause_texts(plan_regex("K0 .*x?")) == std::set<std::set<std::string>>{{"k0 "}});
  CHECK(plan_regex("x?").clauses.empty());
  CHECK(plan_regex("x?").unfiltered);
  CHECK(plan_regex("x?").atoms.empty());
  CHECK(plan_regex("(unclosed").error == "missing ): (unclosed");
  CHECK_FALSE(plan_regex("(oom").unfiltered);
}

TEST_CASE("plans are kept in a file: read back as written, a damaged file gives none") {
  const std::string dir = std::filesystem::temp_directory_path() / "kbc-plans-XXXXXX";
  std::string folder = dir;
  REQUIRE(mkdtemp(folder.data()));
  const std::string path = folder + "/cache/regex-plans";
  RegexPlans plans;
  plans.add({"CUDA.*failed", "(?i)(oom|killed)", "(bad"});
  CHECK(plans.changed());
  REQUIRE(plans.write(path));
  RegexPlans read = RegexPlans::read(path);
  CHECK(read.size() == 3);
  CHECK_FALSE(read.changed());
  read.add({"CUDA.*failed", "(?i)(oom|killed)"});
  CHECK_FALSE(read.changed());  // nothing compiled
  CHECK(read.of("CUDA.*failed").clauses == std::vector<std::vector<int>>{{0}, {1}});
  CHECK(read.of("(?i)(oom|killed)").atoms == std::vector<std::string>{"oom", "killed"});
  CHECK(read.of("(?i)(oom|killed)").clauses == std::vector<std::vector<int>>{{0, 1}});
  read.add({"new.*one"});
  CHECK(read.changed());
  for (const std::string& damaged : {std::string("not cbor"), std::string("\xa1\x62"
                                                                          "by\x01")}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    CHECK(RegexPlans::read(path).size() == 0);
  }
  CHECK(RegexPlans::read(folder + "/missing").size() == 0);
  std::filesystem::remove_all(folder);
}

namespace {

// The span of `literal` in `text` as RE2 finds the literal quoted, ignoring case.
std::optional<std::pair<std::size_t, std::size_t>> re2_literal_span(std::string_view literal,
                                                                    std::string_view text) {
  const RE2 regex("(?i)" + RE2::QuoteMeta(re2::StringPiece(literal.data(), literal.size())));
  re2::StringPiece span;
  if (!regex.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED,
                   &span, 1))
    return std::nullopt;
  const auto begin = static_cast<std::size_t>(span.data() - text.data());
  return std::pair{begin, begin + span.size()};
}

std::optional<std::pair<std::size_t, std::size_t>> index_span(const RegexIndex& index,
                                                              std::size_t entry,
                                                              std::string_view text) {
  RegexIndex::Scratch scratch;
  const std::vector<std::size_t>& candidates = index.candidates(text, scratch);
  const bool candidate = std::binary_search(candidates.begin(), candidates.end(), entry);
  const std::optional<std::string_view> span = index.match(entry, text, scratch);
  if (!span) return std::nullopt;
  CHECK(candidate);
  const auto begin = static_cast<std::size_t>(span->data() - text.data());
  return std::pair{begin, begin + span->size()};
}

}  // namespace

TEST_CASE("a literal pattern matches where RE2 finds it quoted and ignoring case") {
  // ASCII literals of three bytes or more are found with the atoms; the others are compiled.
  const std::vector<std::string> literals = {"Device Lost: Xid 79", "ssl kernel",  "ab",
                                             "ÄRGER im Büro",       "device lost", "Device Lost"};
  std::vector<std::optional<std::string_view>> views(literals.begin(), literals.end());
  views.push_back("(?i)device lost");  // a regex whose atom is a literal too
  std::vector<bool> literal(literals.size(), true);
  literal.push_back(false);
  const RegexIndex index(views, literal);
  CHECK(index.regex(0) == nullptr);  // found without RE2
  CHECK(index.regex(2) != nullptr);
  CHECK(index.regex(3) != nullptr);
  const std::vector<std::string> texts = {
      "kernel: DEVICE LOST: xid 79 (gpu 0)",
      "ſſl \xe2\x84\xaa"
      "ernel",                      // ſ (long s) and K (Kelvin): RE2 folds them to s and k
      "Kſſ ſSL KERNEL ssl kernel",  // the first match after characters folded shorter
      "xx AB ab",
      "ärger im büro, ÄRGER IM BÜRO",
      "device los",
      "\xff\xfe broken bytes: device lost",  // not UTF-8
      ""};
  for (const std::string& text : texts) {
    for (std::size_t entry = 0; entry < literals.size(); ++entry) {
      INFO(text << " / " << literals[entry]);
      CHECK(index_span(index, entry, text) == re2_literal_span(literals[entry], text));
    }
  }
  CHECK(index.matching("kernel: DEVICE LOST: xid 79 (gpu 0)") ==
        std::vector<std::size_t>{0, 4, 5, 6});
  CHECK(index_span(index, 1,
                   "ſſl \xe2\x84\xaa"
                   "ernel") == std::pair<std::size_t, std::size_t>{0, 14});
}

TEST_CASE("a literal pattern agrees with RE2 on random texts of letters that fold alike") {
  const std::vector<std::string> alphabet = {"s", "S", "ſ", "k", "K", "\xe2\x84\xaa",
                                             "x", " ", "é"};
  const std::vector<std::string> literals = {"sk", "ssk", "kiss", "s k", "xsx", "kkk"};
  std::vector<std::optional<std::string_view>> views(literals.begin(), literals.end());
  const RegexIndex index(views, std::vector<bool>(literals.size(), true));
  std::mt19937 random(11);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (std::size_t i = random() % 12; i > 0; --i) text += alphabet[random() % alphabet.size()];
    for (std::size_t entry = 0; entry < literals.size(); ++entry) {
      INFO(text << " / " << literals[entry]);
      CHECK(index_span(index, entry, text) == re2_literal_span(literals[entry], text));
    }
  }
}

TEST_CASE("a regex ignoring case matches a capital beyond ASCII, in a line and in a log") {
  // RE2 lowercases the atom "allemansrätten" for all of Unicode; the line has "Ä".
  const std::vector<MatchRecord> records = {record("a/right", "(?i)allemansrätten"),
                                            record("b/other", "nothing here")};
  CHECK(ranked(records, "ALLEMANSRÄTTEN applies here") == std::vector<std::string>{"a/right"});
  const Matcher matcher(records);
  CHECK(ids(matcher, matcher.match_text("one\nALLEMANSRÄTTEN\ntwo", 5)) ==
        std::vector<std::string>{"a/right"});
  const std::vector<std::optional<std::string_view>> patterns = {"(?i)allemansrätten"};
  CHECK(RegexIndex(patterns).matching("ALLEMANSRÄTTEN") == std::vector<std::size_t>{0});
}

TEST_CASE("a hit under the threshold is not shown, and when none is left, the near matches are") {
  MatchRecord oom = record("a/oom", "(?i)(OutOfMemoryError|CUDA out of memory)", 0.5,
                           "torch.cuda.OutOfMemoryError: CUDA out of memory");
  MatchRecord code = record("b/code", "never matches this", 0.5, "cuDNN error: bad param");
  code.error_code = "CUDNN_STATUS_BAD_PARAM";
  const Matcher matcher({oom, code, record("c/ready", "(?i)ready", 0.9)}, kPlain);
  // An ordinary line: c/ready scores 25 + 21 (5 of 23 characters), under the threshold, and
  // nothing is near.
  CHECK(matcher.match_text("server ready on port 80", 5).empty());
  const std::vector<Hit> all = matcher.match_text("server ready on port 80", 5, 0);
  REQUIRE(ids(matcher, all) == std::vector<std::string>{"c/ready"});
  CHECK(all[0].rank.score == 46);
  // The alternative that matched counts (18 characters), not the weakest (15).
  std::vector<Hit> hits = matcher.match_text("RuntimeError: CUDA out of memory", 5);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"a/oom"});
  CHECK(hits[0].rank.specificity == 18);
  CHECK_FALSE(hits[0].near);
  // An error code pasted alone matches no pattern: a near match, scored under any hit.
  hits = matcher.match_text("CUDNN_STATUS_BAD_PARAM", 5);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"b/code"});
  CHECK(hits[0].near);
  CHECK(hits[0].rank.score < kDefaultMinScore);
}

TEST_CASE("a log's stack frames are context and its exception line weighs most") {
  const Matcher matcher({record("a/frame", "(?i)errors\\.py"), record("b/key", "(?i)bad value")},
                        kPlain);
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"/app/errors.py\", line 3, in <module>\n"
      "    raise ValueError(\"bad value\")\n"  // the source line the frame quotes
      "ValueError: bad value\n";
  const std::vector<Hit> hits = matcher.match_text(log, 5, -1000);
  REQUIRE(ids(matcher, hits) == std::vector<std::string>{"b/key", "a/frame"});
  CHECK(hits[0].line_number == 4);
  CHECK(hits[0].kind == LineKind::key);
  CHECK(hits[0].lines == 2);
  CHECK(hits[1].kind == LineKind::context);
  CHECK(hits[1].rank.score < 0);
  // Split anywhere, the frame before a part is still known.
  for (std::size_t block = 1; block < log.size(); block += 7) {
    LogScan scan(matcher, {.block_bytes = block});
    for (std::size_t at = 0; at < log.size(); at += block)
      scan.feed(std::string_view(log).substr(at, block));
    const std::vector<Hit> split = scan.finish(5, -1000);
    REQUIRE(split.size() == 2);
    CHECK(split[1].rank == hits[1].rank);
  }
}

TEST_CASE("a regex that matches the benign corpus or other errors' signatures loses score") {
  std::vector<BenignLine> benign;
  append_benign_lines("Removing intermediate container 1a2b3c\nStep 3/12 : RUN make\n",
                      "docker.log", benign);
  const Matcher matcher({record("a/removing", "Removing .+", 0.5, "Removing failed"),
                         record("b/exact", "Removing container failed: busy"),
                         record("c/other", "x", 0.5, "Removing container failed: busy")},
                        {.benign = &benign});
  const Breadth broad = matcher.breadth(0);
  CHECK(broad.benign_lines == 1);
  CHECK(broad.some_benign == std::vector<std::uint32_t>{0});
  CHECK(broad.other_errors == 1);  // c/other's signature; b/exact has none
  CHECK(matcher.breadth(1).benign_lines == 0);
  const std::vector<Hit> hits = matcher.match_line("Removing container failed: busy");
  REQUIRE(hits.size() == 3);
  const Hit& removing = hits[2];
  CHECK(matcher.records()[removing.record].id == "a/removing");
  CHECK(removing.rank.score == hit_score(false, 9, 31, LineKind::error) - breadth_penalty(1, 1));
  CHECK(error_of("python/keyboardinterrupt/py311-linux") == "python/keyboardinterrupt");
  CHECK(error_of("cuda/illegal-memory-access") == "cuda/illegal-memory-access");
}

TEST_CASE("a record's next workaround and conditions come from entries and bundles alike") {
  const std::string text = R"([{"id": "a/x", "regex": "x", "aliases": ["X failed", 3],
    "error_code": "E_X", "tags": ["t1", "t2"],
    "workarounds": [{"action": "second", "success_rate": 0.5},
                    {"action": "first", "success_rate": 0.9, "condition": "on Linux"},
                    {"action": "third", "success_rate": 0.4}]}])";
  const std::vector<MatchRecord> whole = match_records_from_bundle(nlohmann::json::parse(text));
  const std::vector<MatchRecord> read = match_records_from_bundle_text(text);
  for (const auto* records : {&whole, &read}) {
    const MatchRecord& r = records->at(0);
    REQUIRE(r.best_workaround);
    CHECK(r.best_workaround->action == "first");
    CHECK(r.best_workaround->condition == "on Linux");
    REQUIRE(r.next_workaround);
    CHECK(r.next_workaround->action == "second");
    CHECK(r.aliases == std::vector<std::string>{"X failed"});
    CHECK(r.error_code == "E_X");
    CHECK(r.tags == std::vector<std::string>{"t1", "t2"});
  }
}

TEST_CASE("a regex's breadth counts the same by searching the joined texts and by prefilter") {
  // More entries than RegexBreadth::kDirectEntries, so both ways are used; patterns whose
  // search over the joined texts could go wrong: anchors, white space across line ends, and
  // the anchors of the whole text, which a multi-line search cannot keep.
  const char* const patterns[] = {
      "(?i)error",      "^step \\d+",  "ok$",  "a\\s+b", "(?i)^$",      "[^x]{3}z", "done\\n?",
      "\\bfail",        "(?i)timeout", "x.*y", "^\\s*$", "Removing .+", "\\Astep",  "ok\\z",
      "(?-m)^step \\d", "(?i-m:^x)"};
  std::vector<MatchRecord> records;
  for (int i = 0; i < 64; ++i) {
    records.push_back(record("e/" + std::to_string(i), patterns[i % 16], 0.5,
                             i % 3 ? "step " + std::to_string(i) + " ok" : "x then y error"));
  }
  std::vector<BenignLine> benign;
  append_benign_lines(
      "step 1 ok\nthe end: a\nb starts here\nerrors: 0\nxyz z\nRemoving intermediate container\n"
      "2024-05-01T10:00:00Z step 3 done\nnot a failure\nTIMEOUT=30\n",
      "test.log", benign);
  const Matcher matcher(records, {.benign = &benign});
  for (std::size_t i = 0; i < records.size(); ++i) {
    INFO(records[i].id << " " << records[i].regex);
    const RE2 regex(records[i].regex, entry_regex_options());
    int expected_benign = 0;
    for (const BenignLine& line : benign) {
      std::string buffer;
      const std::string_view text = normalized_line(line.text, buffer);
      re2::StringPiece found;
      if (regex.Match(text, 0, text.size(), RE2::UNANCHORED, &found, 1) && !found.empty())
        ++expected_benign;
    }
    std::set<std::string_view> others;
    for (std::size_t j = 0; j < records.size(); ++j) {
      re2::StringPiece found;
      const std::string& signature = records[j].signature;
      if (error_of(records[j].id) != error_of(records[i].id) &&
          regex.Match(signature, 0, signature.size(), RE2::UNANCHORED, &found, 1) && !found.empty())
        others.insert(error_of(records[j].id));
    }
    const Breadth breadth = matcher.breadth(i);
    CHECK(breadth.benign_lines == expected_benign);
    CHECK(breadth.other_errors == static_cast<int>(others.size()));
  }
}
