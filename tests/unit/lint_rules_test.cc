// Every lint rule has a failing and a passing knowledge base under tests/lint/<rule-id>/:
//
//   fail/entries/...   entries on which the rule fires
//   fail/expected.txt  exactly that rule's diagnostics, first line of each, in printed order
//   pass/entries/...   entries on which the rule reports nothing
//
// and may have more beside them, named fail-<name>/ and pass-<name>/ (fail-ja/: the rule in a
// knowledge base whose kbc.yaml adds Japanese).
//
// A rule added to all_rules() without fixtures fails this suite, and so does a fixture folder
// whose rule no longer exists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "lint/last_lint.h"
#include "lint/rule.h"
#include "model/parse_cache.h"
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

// The last lint's two parts, as the parse cache stores them.
std::string findings_text(const kbc::LastLint& last) {
  std::ostringstream out;
  REQUIRE(last.write_findings(out));
  return out.str();
}
std::string facts_text(const kbc::LastLint& last) {
  std::ostringstream out;
  REQUIRE(last.write_facts(out));
  return out.str();
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

// The fixtures of one kind ("fail" or "pass") under `folder`: <kind> and <kind>-<name>, sorted.
std::vector<fs::path> fixtures(const fs::path& folder, const std::string& kind) {
  std::vector<fs::path> out;
  for (const auto& item : fs::directory_iterator(folder)) {
    const std::string name = item.path().filename().string();
    if (item.is_directory() && (name == kind || name.starts_with(kind + "-")))
      out.push_back(item.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Each finding as "path:line:col: rule: message", sorted.
std::vector<std::string> listed(const kbc::Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const kbc::Diagnostic& d : diagnostics) {
    out.push_back(d.path + ":" + std::to_string(d.at.line) + ":" + std::to_string(d.at.column) +
                  ": " + d.rule + ": " + d.message);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void check_fail_fixture(const kbc::Rule& rule, const fs::path& fail) {
  const std::string id(rule.id);
  INFO("fixture " << fail.string());
  REQUIRE(fs::is_directory(fail / "entries"));
  REQUIRE(fs::is_regular_file(fail / "expected.txt"));
  const std::string expected = without_trailing_newlines(read_text(fail / "expected.txt"));
  CHECK_FALSE(expected.empty());
  const kbc::RealFileSystem file_system;
  const kbc::CheckedKnowledgeBase failing = kbc::check_knowledge_base(file_system, fail.string());
  CHECK(without_trailing_newlines(findings_of(failing.diagnostics, id)) == expected);
  for (const kbc::Diagnostic& d : failing.diagnostics) {
    if (d.rule == id) CHECK(d.severity == rule.severity);
  }
}

void check_pass_fixture(const kbc::Rule& rule, const fs::path& pass) {
  INFO("fixture " << pass.string());
  REQUIRE(fs::is_directory(pass / "entries"));
  const kbc::RealFileSystem file_system;
  const kbc::CheckedKnowledgeBase passing = kbc::check_knowledge_base(file_system, pass.string());
  CHECK(findings_of(passing.diagnostics, rule.id) == "");
}

}  // namespace

TEST_CASE("every lint rule fires on its fail fixture and stays quiet on its pass fixture",
          "[lint]") {
  for (const kbc::Rule& rule : kbc::all_rules()) {
    const std::string id(rule.id);
    DYNAMIC_SECTION(id) {
      INFO("rule " << id);
      const fs::path folder = kFixtures / id;
      REQUIRE(fs::is_directory(folder / "fail"));
      REQUIRE(fs::is_directory(folder / "pass"));
      for (const fs::path& fail : fixtures(folder, "fail")) check_fail_fixture(rule, fail);
      for (const fs::path& pass : fixtures(folder, "pass")) check_pass_fixture(rule, pass);
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

TEST_CASE("a lint that compiles the regexes a few at a time finds exactly what one lint finds",
          "[lint]") {
  const kbc::RealFileSystem file_system;
  std::vector<fs::path> roots = {fs::path(KBC_SOURCE_DIR)};  // clean: nothing to find
  for (const char* id : {"regex-overlap", "entry-unreachable", "regex-too-broad", "xref-unknown"})
    roots.push_back(kFixtures / id / "fail");
  for (const fs::path& root : roots) {
    INFO(root.string());
    kbc::Diagnostics problems;
    const kbc::KnowledgeBase kb = kbc::load_entries(file_system, root.string(), false, problems);
    REQUIRE(kb.entries.size() >= 2);
    const kbc::Diagnostics whole = kbc::run_lint(kb);
    // The shipped entries have one finding, which a kbc-disable comment suppresses: the
    // recipe that shows that the seed's claim no longer holds (evidence-failed).
    const bool only_evidence = std::all_of(
        whole.begin(), whole.end(), [](const auto& d) { return d.rule == "evidence-failed"; });
    CHECK(only_evidence == (root == fs::path(KBC_SOURCE_DIR)));
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{5}})
      CHECK(listed(kbc::run_lint(kb, {}, chunk)) == listed(whole));
  }
}

TEST_CASE("the last lint is kept in two parts, and facts of another lint are refused") {
  kbc::LastLint last;
  last.digest = "kb-1";
  last.benign = "benign-1";
  last.findings.push_back(
      {"entries/a.yaml", {2, 3}, kbc::Severity::kWarning, "m", "rule-x", "", ""});
  last.findings.push_back({"entries/b.yaml",
                           {7, 1},
                           kbc::Severity::kError,
                           "two\nlines, \"quoted\", 中文",
                           "rule-y",
                           "  x: 1\n  ^",
                           "/x"});
  kbc::LastLint::EntryFacts& facts = last.entries["entries/a.yaml"];
  facts.digest = "file-1";
  facts.compiled = true;
  facts.atoms = {"abc"};
  facts.hits = {{"entries/b.yaml", "/signature"}};
  facts.benign_lines = 4;
  facts.some_benign = {1, 7};
  facts.regex[0] = 0xab;

  std::optional<kbc::LastLint> read = kbc::LastLint::from_bytes(findings_text(last));
  REQUIRE(read);
  CHECK(read->digest == "kb-1");
  CHECK(read->benign == "benign-1");
  CHECK(kbc::diagnostics_to_json(read->findings) == kbc::diagnostics_to_json(last.findings));
  CHECK(read->entries.empty());  // the facts are read only when asked for
  REQUIRE(read->add_facts(facts_text(last)));
  const kbc::LastLint::EntryFacts& back = read->entries.at("entries/a.yaml");
  CHECK(back.hits == facts.hits);
  CHECK(back.some_benign == facts.some_benign);
  CHECK(back.atoms == facts.atoms);
  CHECK(back.digest == "file-1");
  CHECK(back.compiled);
  CHECK(back.benign_lines == 4);
  CHECK(back.clauses == facts.clauses);
  CHECK(back.regex == facts.regex);
  // Every field of every entry, and many findings and entries.
  kbc::LastLint::EntryFacts& second = last.entries["entries/b.yaml"];
  second.atoms = {"x", "y", "z"};
  second.clauses = {{0}, {1, 2}};
  second.hits = {{"entries/a.yaml", "/signature"}, {"entries/c.yaml", "/examples/0"}};
  second.winner_candidates = {"entries/a.yaml", "entries/b.yaml"};
  second.winner = "entries/a.yaml";
  second.texts[15] = 0x01;
  for (const std::size_t count : {0, 1, 20000}) {  // past a megabyte written at once
    kbc::LastLint many = last;
    many.findings.resize(count, last.findings.back());
    for (std::size_t k = 0; k < count; ++k) many.entries["entries/" + std::to_string(k)] = second;
    std::optional<kbc::LastLint> both = kbc::LastLint::from_bytes(findings_text(many));
    REQUIRE(both);
    CHECK(both->findings.size() == count);
    REQUIRE(both->add_facts(facts_text(many)));
    CHECK(both->entries.size() == many.entries.size());
    CHECK(facts_text(*both) == facts_text(many));
    CHECK(findings_text(*both) == findings_text(many));
  }

  // What write_facts did not write is refused, whole, and the facts held stay as they were:
  // cut at every byte, with a byte more, of another lint, the findings', a clause naming an
  // atom its entry lacks.
  std::optional<kbc::LastLint> both = kbc::LastLint::from_bytes(findings_text(last));
  const std::string facts_bytes = facts_text(last);
  REQUIRE(both->add_facts(facts_bytes));
  for (std::size_t size = 0; size < facts_bytes.size(); ++size)
    CHECK_FALSE(both->add_facts(facts_bytes.substr(0, size)));
  CHECK_FALSE(both->add_facts(facts_bytes + "x"));
  kbc::LastLint other = last;
  other.digest = "kb-2";
  CHECK_FALSE(both->add_facts(facts_text(other)));
  CHECK_FALSE(both->add_facts(findings_text(last)));
  kbc::LastLint foreign_clause = last;
  foreign_clause.entries["entries/b.yaml"].clauses = {{0}, {3}};
  CHECK_FALSE(both->add_facts(facts_text(foreign_clause)));
  CHECK(facts_text(*both) == facts_bytes);

  // What write_findings did not write is refused, whole.
  const std::string bytes = findings_text(last);
  for (std::size_t size = 0; size < bytes.size(); ++size)
    CHECK_FALSE(kbc::LastLint::from_bytes(bytes.substr(0, size)));
  CHECK_FALSE(kbc::LastLint::from_bytes(bytes + "x"));
  CHECK_FALSE(kbc::LastLint::from_bytes(facts_bytes));
  kbc::LastLint before_the_start = last;
  before_the_start.findings[0].at.line = -1;
  CHECK_FALSE(kbc::LastLint::from_bytes(findings_text(before_the_start)));
  std::string severity = bytes;  // the first finding's flag: 0 or 1
  const std::size_t flag = bytes.find("benign-1") + 8 + 8 + 8;
  REQUIRE(severity[flag] == 0);
  severity[flag] = 2;
  CHECK_FALSE(kbc::LastLint::from_bytes(severity));
  std::string count = bytes;  // one finding more than there are
  count[bytes.find("benign-1") + 8] = 3;
  CHECK_FALSE(kbc::LastLint::from_bytes(count));
}
