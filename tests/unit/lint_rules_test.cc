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

// A document as the parse cache stores it.
std::string cbor(const nlohmann::json& document) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(document);
  return std::string(bytes.begin(), bytes.end());
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
  kbc::LastLint::EntryFacts& facts = last.entries["entries/a.yaml"];
  facts.digest = "file-1";
  facts.compiled = true;
  facts.atoms = {"abc"};
  facts.hits = {{"entries/b.yaml", "/signature"}};
  facts.benign_lines = 4;
  facts.some_benign = {1, 7};

  // Written without the document, byte for byte what nlohmann writes of it, whatever the count
  // of findings (CBOR writes a count below 24 in its first byte, else in 1, 2 or 4 more).
  for (const std::size_t count : {1, 23, 24, 255, 256, 65536}) {
    kbc::LastLint many = last;
    many.findings.resize(count, last.findings.front());
    std::ostringstream findings, written_facts;
    CHECK(many.write_findings_cbor(findings));
    CHECK(findings.str() == cbor(many.findings_json()));
    for (std::size_t k = 0; k < count; ++k) many.entries["entries/" + std::to_string(k)] = facts;
    CHECK(many.write_facts_cbor(written_facts));
    CHECK(written_facts.str() == cbor(many.facts_json()));
  }
  std::optional<kbc::LastLint> read = kbc::LastLint::from_cbor(cbor(last.findings_json()));
  REQUIRE(read);
  CHECK(read->digest == "kb-1");
  CHECK(read->findings.size() == 1);
  CHECK(read->entries.empty());  // the facts are read only when asked for
  REQUIRE(read->add_facts(cbor(last.facts_json())));
  const kbc::LastLint::EntryFacts& back = read->entries.at("entries/a.yaml");
  CHECK(back.hits == facts.hits);
  CHECK(back.some_benign == facts.some_benign);
  CHECK(back.atoms == facts.atoms);
  CHECK(back.digest == "file-1");
  CHECK(back.compiled);
  CHECK(back.benign_lines == 4);
  CHECK(back.clauses == facts.clauses);
  // Every field of every entry, through the reader that builds no document.
  kbc::LastLint::EntryFacts& second = last.entries["entries/b.yaml"];
  second.atoms = {"x", "y", "z"};
  second.clauses = {{0}, {1, 2}};
  second.hits = {{"entries/a.yaml", "/signature"}, {"entries/c.yaml", "/examples/0"}};
  second.winner_candidates = {"entries/a.yaml", "entries/b.yaml"};
  second.winner = "entries/a.yaml";
  std::optional<kbc::LastLint> both = kbc::LastLint::from_cbor(cbor(last.findings_json()));
  REQUIRE(both->add_facts(cbor(last.facts_json())));
  CHECK(both->facts_json() == last.facts_json());
  // What facts_json did not write is refused, whole: an entry's facts one short, or not CBOR.
  nlohmann::json short_facts = last.facts_json();
  short_facts["entries"]["entries/b.yaml"].erase(8);
  CHECK_FALSE(both->add_facts(cbor(short_facts)));
  nlohmann::json foreign_clause = last.facts_json();  // a clause naming an atom it lacks
  foreign_clause["entries"]["entries/b.yaml"][3] = {{0}, {3}};
  CHECK_FALSE(both->add_facts(cbor(foreign_clause)));
  CHECK_FALSE(both->add_facts("not CBOR"));
  CHECK(both->facts_json() == last.facts_json());

  kbc::LastLint other = last;
  other.digest = "kb-2";
  std::optional<kbc::LastLint> mixed = kbc::LastLint::from_cbor(cbor(other.findings_json()));
  CHECK_FALSE(mixed->add_facts(cbor(last.facts_json())));
  CHECK(mixed->entries.empty());
  CHECK_FALSE(kbc::LastLint::from_cbor(cbor(nlohmann::json::array())));
  CHECK_FALSE(kbc::LastLint::from_cbor("not CBOR"));
  // What findings_json did not write is refused, whole.
  nlohmann::json stored = last.findings_json();
  CHECK(kbc::LastLint::from_cbor(cbor(stored)));
  for (const auto& damage : std::vector<std::function<void(nlohmann::json&)>>{
           [](nlohmann::json& j) { j.erase("benign"); }, [](nlohmann::json& j) { j["extra"] = 1; },
           [](nlohmann::json& j) { j["findings"][0][0] = "2"; },
           [](nlohmann::json& j) { j["findings"][0][1] = -1; },
           [](nlohmann::json& j) { j["findings"][0].erase(7); },
           [](nlohmann::json& j) { j["findings"][0].push_back("more"); },
           [](nlohmann::json& j) { j["findings"][0][3] = nullptr; },
           [](nlohmann::json& j) { j["findings"].push_back(nlohmann::json::object()); }}) {
    nlohmann::json damaged = stored;
    damage(damaged);
    CHECK_FALSE(kbc::LastLint::from_cbor(cbor(damaged)));
  }
  const std::string bytes = cbor(stored);
  CHECK_FALSE(kbc::LastLint::from_cbor(std::string_view(bytes).substr(0, bytes.size() - 3)));
}
