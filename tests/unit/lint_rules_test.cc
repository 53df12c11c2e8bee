// Every lint rule has a failing and a passing knowledge base under tests/lint/<rule-id>/:
//
//   fail/entries/...   entries on which the rule fires
//   fail/expected.txt  exactly that rule's diagnostics, first line of each, in printed order
//   pass/entries/...   entries on which the rule reports nothing
//
// A rule added to all_rules() without fixtures fails this suite, and so does a fixture folder
// whose rule no longer exists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "lint/rule.h"
#include "pipeline.h"

namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(KBC_TEST_DATA) / "lint";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string without_trailing_newlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// `path:line:col: severity: message [rule]` for each diagnostic of `rule`, one per line.
std::string findings_of(const kbc::Diagnostics& diagnostics, std::string_view rule) {
  std::string out;
  for (const kbc::Diagnostic& d : diagnostics) {
    if (d.rule != rule) continue;
    const std::string formatted = kbc::format_diagnostic(d);
    out += formatted.substr(0, formatted.find('\n')) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("every lint rule fires on its fail fixture and stays quiet on its pass fixture",
          "[lint]") {
  const kbc::RealFileSystem file_system;
  for (const kbc::Rule& rule : kbc::all_rules()) {
    const std::string id(rule.id);
    DYNAMIC_SECTION(id) {
      INFO("rule " << id);
      const fs::path fail = kFixtures / id / "fail";
      const fs::path pass = kFixtures / id / "pass";
      const fs::path expected_file = fail / "expected.txt";
      INFO("fixtures in " << (kFixtures / id).string());
      REQUIRE(fs::is_directory(fail / "entries"));
      REQUIRE(fs::is_directory(pass / "entries"));
      REQUIRE(fs::is_regular_file(expected_file));

      const std::string expected = without_trailing_newlines(read_text(expected_file));
      CHECK_FALSE(expected.empty());
      const kbc::CheckedKnowledgeBase failing =
          kbc::check_knowledge_base(file_system, fail.string());
      CHECK(without_trailing_newlines(findings_of(failing.diagnostics, id)) == expected);
      for (const kbc::Diagnostic& d : failing.diagnostics) {
        if (d.rule == id) CHECK(d.severity == rule.severity);
      }

      const kbc::CheckedKnowledgeBase passing =
          kbc::check_knowledge_base(file_system, pass.string());
      CHECK(findings_of(passing.diagnostics, id) == "");
    }
  }
}

TEST_CASE("every lint fixture folder belongs to a rule", "[lint]") {
  std::set<std::string> ids;
  for (const kbc::Rule& rule : kbc::all_rules()) ids.emplace(rule.id);
  REQUIRE(fs::is_directory(kFixtures));
  for (const auto& item : fs::directory_iterator(kFixtures)) {
    if (!item.is_directory()) continue;
    const std::string name = item.path().filename().string();
    INFO("tests/lint/" << name << " names no rule in all_rules()");
    CHECK(ids.count(name) == 1);
  }
}
