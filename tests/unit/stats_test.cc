// kbc stats: the figures knowledge_base_stats() computes, on the fixture knowledge base in
// tests/stats/kb (each entry's comment says what it is there for) and on small knowledge bases
// in a MemoryFileSystem for the edge cases; and the text report's lists.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "base/file_system.h"
#include "pipeline.h"
#include "stats/kb_stats.h"
#include "stats/stats_text.h"

namespace {

using nlohmann::ordered_json;
using namespace std::chrono;

constexpr sys_days kToday = 2025y / June / 1;

ordered_json fixture_stats() {
  const kbc::RealFileSystem fs;
  kbc::Diagnostics diagnostics;
  const auto kb =
      kbc::load_entries(fs, std::string(KBC_TEST_DATA) + "/stats/kb", false, diagnostics);
  return kbc::knowledge_base_stats(kb, kToday);
}

// A valid entry; `extra` holds further keys (each line ending in a newline).
std::string stats_entry(const std::string& id, const std::string& last_confirmed,
                        const std::string& extra = "") {
  return "id: " + id + "\nsignature: 'Error " + id + "'\nregex: 'Error " + id +
         "$'\ndomain: " + id.substr(0, id.find('/')) +
         "\ncategory: runtime_error\nroot_cause: 'A cause.'\n"
         "dead_ends:\n- {action: Retry, why_fails: Same input., fail_rate: 0.9}\n"
         "workarounds:\n- {action: Fix it, success_rate: 0.9}\n- {action: Work around it, "
         "success_rate: 0.5}\nverification_tier: human_reviewed\nconfidence: 0.8\n"
         "fix_success_rate: 0.8\nresolvable: 'true'\nfirst_seen: '2020-01-01'\n"
         "last_confirmed: '" +
         last_confirmed + "'\nlast_updated: '2020-01-01'\nevidence_count: 1\nlocale: en\n" + extra;
}

ordered_json stats_of(const std::vector<std::pair<std::string, std::string>>& entries) {
  kbc::MemoryFileSystem fs;
  for (const auto& [id, text] : entries) fs.files["kb/entries/" + id + ".yaml"] = text;
  kbc::Diagnostics diagnostics;
  return kbc::knowledge_base_stats(kbc::load_entries(fs, "kb", false, diagnostics), kToday);
}

ordered_json parsed(const char* text) { return ordered_json::parse(text); }

}  // namespace

TEST_CASE("stats: the document's keys, in order, and what is left out") {
  const ordered_json stats = fixture_stats();
  std::vector<std::string> keys;
  for (const auto& [key, value] : stats.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"version", "today", "files", "entries", "left_out",
                                         "domains", "tiers", "translations", "stale", "links",
                                         "regex_overlap"});
  CHECK(stats["version"] == 1);
  CHECK(stats["today"] == "2025-06-01");
  CHECK(stats["files"] == 6);
  CHECK(stats["entries"] == 4);
  CHECK(stats["left_out"] ==
        parsed(R"({"count": 2, "entries": ["docker/broken", "docker/unreadable"]})"));
}

TEST_CASE("stats: entries per domain and verification tier, every tier of the schema shown") {
  const ordered_json stats = fixture_stats();
  CHECK(stats["domains"] == parsed(R"({
    "cuda": {"ai_generated": 1, "human_reviewed": 0, "verified": 1, "total": 2},
    "docker": {"ai_generated": 1, "human_reviewed": 1, "verified": 0, "total": 2}})"));
  CHECK(stats["tiers"] == parsed(R"({"ai_generated": 2, "human_reviewed": 1, "verified": 1})"));
}

TEST_CASE("stats: Chinese coverage per entry and per field, where blank texts do not count") {
  CHECK(fixture_stats()["translations"] == parsed(R"({"zh": {
    "entries": {"complete": 1, "partial": 1, "none": 2},
    "fields": {
      "dead_ends_zh": {"english": 2, "translated": 1, "items_english": 2, "items_translated": 1},
      "root_cause_zh": {"english": 4, "translated": 1},
      "signature_zh": {"english": 4, "translated": 2},
      "workarounds_zh": {"english": 4, "translated": 1, "items_english": 5,
                         "items_translated": 2}},
    "all_fields": {"english": 14, "translated": 5}}})"));
}

TEST_CASE("stats: a list is translated when each of its items is, and extra items do not count") {
  const ordered_json stats = stats_of({
      {"cuda/a", stats_entry("cuda/a", "2025-01-01",
                             "workarounds_zh: [修好它, 绕过它, 多余的]\ndead_ends_zh: [重试]\n")},
      {"cuda/b",
       stats_entry("cuda/b", "2025-01-01", "workarounds_zh: [修好它]\ndead_ends_zh: ['  ']\n")},
  });
  const ordered_json& fields = stats["translations"]["zh"]["fields"];
  CHECK(fields["workarounds_zh"] ==
        parsed(R"({"english": 2, "translated": 1, "items_english": 4, "items_translated": 3})"));
  CHECK(fields["dead_ends_zh"] ==
        parsed(R"({"english": 2, "translated": 1, "items_english": 2, "items_translated": 1})"));
  CHECK(stats["translations"]["zh"]["entries"] ==
        parsed(R"({"complete": 0, "partial": 1, "none": 1})"));
}

TEST_CASE("stats: stale means more than 180 or 365 days before today, oldest first") {
  CHECK(fixture_stats()["stale"] == parsed(R"({
    "over_180_days": {"count": 2, "entries": [
      {"id": "docker/gamma", "last_confirmed": "2023-01-15"},
      {"id": "cuda/alpha", "last_confirmed": "2024-12-02"}]},
    "over_365_days": {"count": 1, "entries": [
      {"id": "docker/gamma", "last_confirmed": "2023-01-15"}]},
    "not_a_date": {"count": 1, "entries": ["docker/delta"]}})"));
  // 2024-06-01 is 365 days before 2025-06-01, 2024-05-31 366; ties sort by id.
  const ordered_json stale = stats_of({{"a/x", stats_entry("a/x", "2024-06-01")},
                                       {"a/y", stats_entry("a/y", "2024-05-31")},
                                       {"a/w", stats_entry("a/w", "2024-05-31")},
                                       {"a/z", stats_entry("a/z", "2025-06-02")}})["stale"];
  CHECK(stale["over_180_days"]["entries"] == parsed(R"([
    {"id": "a/w", "last_confirmed": "2024-05-31"}, {"id": "a/y", "last_confirmed": "2024-05-31"},
    {"id": "a/x", "last_confirmed": "2024-06-01"}])"));
  CHECK(stale["over_365_days"]["count"] == 2);
}

TEST_CASE("stats: links to itself do not count, links from left-out entries neither") {
  CHECK(fixture_stats()["links"] == parsed(R"({
    "no_outgoing": {"count": 2, "entries": ["cuda/beta", "docker/gamma"]},
    "isolated": {"count": 1, "entries": ["docker/gamma"]}})"));
}

TEST_CASE("stats: regex overlaps, in both directions, declared or not") {
  CHECK(fixture_stats()["regex_overlap"] == parsed(R"({
    "entries_matching_others": 3, "entries_matched": 3, "overlaps": 3, "declared": 1,
    "undeclared": 2, "pairs": 2})"));
}

TEST_CASE("stats text: lists show their first items and how many more") {
  const std::string text = kbc::format_stats_text(fixture_stats(), 1);
  CHECK(text.find(
            "  confirmed more than 180 days ago: 2\n    2023-01-15  docker/gamma\n    ... and 1 "
            "more\n") != std::string::npos);
  CHECK(text.find("    docker/broken\n    ... and 1 more\n") != std::string::npos);
  const std::string full = kbc::format_stats_text(fixture_stats());
  CHECK(full.find("... and") == std::string::npos);
  CHECK(full.find("    2024-12-02  cuda/alpha\n") != std::string::npos);
}
