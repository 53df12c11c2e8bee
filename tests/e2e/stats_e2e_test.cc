// End-to-end: `kbc stats` through the real binary, on the fixture knowledge base tests/stats/kb
// (copied to a temporary folder, since the parse cache writes under the root), with --today
// fixed: the text report against tests/stats/expected.txt, the JSON document, the usage errors.
#include <stdlib.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;

namespace {

const fs::path kFixture = fs::path(KBC_TEST_DATA) / "stats";

// The stats fixture, in a temporary copy.
struct FixtureKb : TempKb {
  FixtureKb() : TempKb(kFixture / "kb", "") {}
};

}  // namespace

TEST_CASE("stats prints the report, exits 0 though entries have errors, same from the cache") {
  FixtureKb kb;
  const std::string expected = read(kFixture / "expected.txt");
  REQUIRE_FALSE(expected.empty());
  const Run first = kbc("stats " + kb.arg() + " --today 2025-06-01");
  CHECK(first.status == 0);
  CHECK(first.output == expected);
  CHECK(fs::exists(kb.root / ".kbc-cache"));
  CHECK(kbc("stats " + kb.arg() + " --today 2025-06-01").output == expected);
  CHECK(kbc("stats --today=2025-06-01 --no-cache " + kb.arg()).output == expected);
  CHECK(kbc("lint --no-cache " + kb.arg()).status == 1);  // the same knowledge base fails lint
}

TEST_CASE("stats --format json prints one document, version first, every list in full") {
  FixtureKb kb;
  const Run run = kbc("stats --format json --no-cache --today 2025-06-01 " + kb.arg(), false);
  REQUIRE(run.status == 0);
  CHECK(run.output.starts_with("{\n  \"version\": 1,\n  \"today\": \"2025-06-01\",\n"));
  const auto stats = nlohmann::json::parse(run.output);
  CHECK(stats["entries"] == 4);
  CHECK(stats["left_out"]["entries"] == nlohmann::json{"docker/broken", "docker/unreadable"});
  CHECK(stats["tiers"]["ai_generated"] == 2);
  CHECK(stats["translations"]["zh"]["all_fields"]["translated"] == 5);
  CHECK(stats["stale"]["over_365_days"]["entries"][0]["id"] == "docker/gamma");
  CHECK(stats["links"]["isolated"]["entries"] == nlohmann::json{"docker/gamma"});
  CHECK(stats["regex_overlap"]["undeclared"] == 2);
  CHECK(kbc("stats --format json --no-cache --today 2025-06-01 " + kb.arg(), false).output ==
        run.output);
}

TEST_CASE("stats without --today ages entries from the current date") {
  FixtureKb kb;
  const auto stats =
      nlohmann::json::parse(kbc("stats --format json --no-cache " + kb.arg(), false).output);
  CHECK(stats["today"].get<std::string>() >= "2025-06-01");
  CHECK(stats["stale"]["over_365_days"]["count"] >= 1);
}

TEST_CASE("stats usage errors exit 2: --format, --today, a missing knowledge base") {
  FixtureKb kb;
  const Run format = kbc("stats --format jsn " + kb.arg());
  CHECK(format.status == 2);
  CHECK(format.output ==
        "kbc stats: --format must be one of text, json, not 'jsn'; did you mean 'json'?\n");
  const Run today = kbc("stats --today 2025-02-30 " + kb.arg());
  CHECK(today.status == 2);
  CHECK(today.output == "kbc stats: --today '2025-02-30' is not a calendar date YYYY-MM-DD\n");
  CHECK(kbc("stats --today 1.6.2025 " + kb.arg()).status == 2);
  CHECK(kbc("stats --root " + (kb.root / "missing").string()).status == 2);
  CHECK_FALSE(fs::exists(kb.root / ".kbc-cache"));
}
