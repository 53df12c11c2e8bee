// kbc.yaml's `rules` and `exclude`, and the kbc-disable comments: how they change what lint
// reports, and what they report about themselves. Knowledge bases in a MemoryFileSystem.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "base/file_system.h"
#include "base/glob.h"
#include "pipeline.h"

namespace {

// A valid entry with one warning: line 3, `signature_zh: ''` [i18n-missing].
std::string entry(const std::string& id, const std::string& before_zh = "") {
  return "id: " + id + "\nsignature: 'Error " + id + " happened'\n" + before_zh +
         "signature_zh: ''\nregex: 'Error " + id +
         " happened'\ndomain: " + id.substr(0, id.find('/')) +
         "\ncategory: runtime_error\nroot_cause: 'A cause.'\nroot_cause_zh: '原因。'\n"
         "dead_ends: []\nworkarounds: []\nverification_tier: human_reviewed\nconfidence: 0.8\n"
         "fix_success_rate: 0.8\nresolvable: 'true'\nfirst_seen: '2024-01-01'\n"
         "last_confirmed: '2024-01-01'\nlast_updated: '2024-01-01'\nevidence_count: 1\n"
         "locale: en\n";
}

struct Kb {
  kbc::MemoryFileSystem fs;
  Kb() {
    fs.files["kb/entries/cuda/a.yaml"] = entry("cuda/a");
    fs.files["kb/entries/cuda/legacy-b.yaml"] = entry("cuda/legacy-b");
  }
  // The first line of every diagnostic.
  std::vector<std::string> lint(const std::set<std::string>& only = {}) const {
    const auto checked = kbc::check_knowledge_base(fs, "kb", {false, only});
    std::vector<std::string> lines;
    for (const kbc::Diagnostic& d : checked.diagnostics) {
      const std::string text = kbc::format_diagnostic(d);
      lines.push_back(text.substr(0, text.find('\n')));
    }
    return lines;
  }
};

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("without kbc.yaml or comments, each entry has its warning") {
  CHECK(Kb().lint() ==
        Lines{"entries/cuda/a.yaml:3:15: warning: signature_zh is blank [i18n-missing]",
              "entries/cuda/legacy-b.yaml:3:15: warning: signature_zh is blank [i18n-missing]"});
}

TEST_CASE("kbc.yaml rules turn a rule off, or change its severity") {
  Kb kb;
  kb.fs.files["kb/kbc.yaml"] = "rules:\n  i18n-missing: off\n";
  CHECK(kb.lint() == Lines{});
  kb.fs.files["kb/kbc.yaml"] = "rules:\n  i18n-missing: error\n  regex-no-match: warning\n";
  CHECK(kb.lint() ==
        Lines{"entries/cuda/a.yaml:3:15: error: signature_zh is blank [i18n-missing]",
              "entries/cuda/legacy-b.yaml:3:15: error: signature_zh is blank [i18n-missing]"});
  kb.fs.files["kb/entries/cuda/a.yaml"] = entry("cuda/a", "samples: ['no']\n");
  CHECK(kb.lint().at(0) ==
        "entries/cuda/a.yaml:3:11: warning: regex does not match this sample "
        "[regex-no-match]");
}

TEST_CASE("kbc.yaml mistakes about rules are errors at their line and column") {
  Kb kb;
  const auto lint_config = [&](const std::string& text) {
    kb.fs.files["kb/kbc.yaml"] = text;
    Lines config;
    for (const std::string& line : kb.lint())
      if (line.starts_with("kbc.yaml")) config.push_back(line);
    return config;
  };
  CHECK(lint_config("rules:\n  i18n-mising: off\n") ==
        Lines{"kbc.yaml:2:3: error: unknown rule 'i18n-mising'; did you mean 'i18n-missing'? "
              "(kbc lint --list-rules lists them) [config-unknown-rule]"});
  CHECK(lint_config("rules:\n  i18n-missing: of\n") ==
        Lines{"kbc.yaml:2:17: error: rules.i18n-missing must be one of \"off\", \"warning\", "
              "\"error\", not text 'of' [schema]"});
  CHECK(lint_config("rules:\n  schema: warning\n  entry-id-path: off\n  yaml-syntax: error\n") ==
        Lines{"kbc.yaml:2:11: error: 'schema' is required and stays an error: the build cannot "
              "do without it [config-required-rule]",
              "kbc.yaml:3:18: error: 'entry-id-path' is required and stays an error: the build "
              "cannot do without it [config-required-rule]"});
  CHECK(lint_config("exclude:\n- entries: [cuda/a]\n  rule: [i18n-missing]\n") ==
        Lines{"kbc.yaml:2:3: error: missing required key 'rules' in exclude[0] [schema]",
              "kbc.yaml:3:3: error: unknown key 'rule'; did you mean 'rules'? "
              "[schema-unknown-key]"});
  CHECK(lint_config("exclude:\n- entries: [cuda/a]\n  rules: [schema, suppression-unused, x]\n") ==
        Lines{"kbc.yaml:3:11: error: 'schema' cannot be excluded: the build cannot do without it "
              "(a required rule) [config-required-rule]",
              "kbc.yaml:3:19: error: 'suppression-unused' cannot be excluded; set its level under "
              "rules in kbc.yaml [config-required-rule]",
              "kbc.yaml:3:39: error: unknown rule 'x' (kbc lint --list-rules lists them) "
              "[config-unknown-rule]"});
}

TEST_CASE("a bad severity does not undo the other rule settings") {
  Kb kb;
  kb.fs.files["kb/kbc.yaml"] = "title: ''\nrules:\n  i18n-missing: off\n  date-order: of\n";
  const Lines lines = kb.lint();
  REQUIRE(lines.size() == 2);  // the two schema errors, and no i18n-missing warnings
  CHECK(lines[0].starts_with("kbc.yaml:1:8: error:"));
  CHECK(lines[1].starts_with("kbc.yaml:4:15: error:"));
}

TEST_CASE("kbc.yaml exclude turns rules off for the entries its patterns match") {
  Kb kb;
  kb.fs.files["kb/kbc.yaml"] = "exclude:\n- entries: ['cuda/legacy-*']\n  rules: [i18n-missing]\n";
  CHECK(kb.lint() ==
        Lines{"entries/cuda/a.yaml:3:15: warning: signature_zh is blank [i18n-missing]"});
  kb.fs.files["kb/kbc.yaml"] = "exclude:\n- entries: ['**']\n  rules: [i18n-missing]\n";
  CHECK(kb.lint() == Lines{});
  // A pattern that matches nothing, a rule that reports nothing there: warnings at each.
  kb.fs.files["kb/kbc.yaml"] =
      "exclude:\n- entries: [cuda/a, entries/cuda/a.yaml]\n  rules: [i18n-missing, date-order]\n";
  CHECK(kb.lint() ==
        Lines{"entries/cuda/legacy-b.yaml:3:15: warning: signature_zh is blank [i18n-missing]",
              "kbc.yaml:2:21: warning: 'entries/cuda/a.yaml' matches no entry: patterns match "
              "entry ids such as 'cuda/x', not paths [suppression-unused]",
              "kbc.yaml:3:25: warning: 'date-order' reports nothing in the entries this exclusion "
              "names: remove it [suppression-unused]"});
  // With FILE arguments nothing can be said to be unused.
  CHECK(kb.lint({"entries/cuda/a.yaml"}) == Lines{});
}

TEST_CASE("kbc-disable comments suppress their rules on the next line or in the file") {
  Kb kb;
  kb.fs.files["kb/entries/cuda/a.yaml"] =
      entry("cuda/a", "# kbc-disable-next-line i18n-missing -- no translator yet\n");
  kb.fs.files["kb/entries/cuda/legacy-b.yaml"] =
      "# kbc-disable-file i18n-missing\n" + entry("cuda/legacy-b");
  CHECK(kb.lint() == Lines{});
}

TEST_CASE("kbc-disable comments that suppress nothing, or cannot, get a warning") {
  Kb kb;
  kb.fs.files["kb/entries/cuda/a.yaml"] = entry(
      "cuda/a", "# kbc-disable-next-line date-order, i18n-missing\n\n# kbc-disable-nextline x\n");
  kb.fs.files["kb/entries/cuda/legacy-b.yaml"] =
      "# kbc-disable-file schema, i18n-mising, suppression-unused\n# kbc-disable-file\n" +
      entry("cuda/legacy-b") + "# kbc-disable-next-line i18n-missing\n";
  CHECK(kb.lint() ==
        Lines{"entries/cuda/a.yaml:3:25: warning: 'date-order' reports nothing on line 6: remove "
              "it from the comment [suppression-unused]",
              "entries/cuda/a.yaml:5:3: warning: unknown directive 'kbc-disable-nextline': write "
              "kbc-disable-next-line or kbc-disable-file [suppression-invalid]",
              "entries/cuda/legacy-b.yaml:1:20: warning: 'schema' cannot be disabled: the build "
              "cannot do without it (a required rule) [suppression-invalid]",
              "entries/cuda/legacy-b.yaml:1:28: warning: unknown rule 'i18n-mising'; did you "
              "mean 'i18n-missing'? (kbc lint --list-rules lists them) [suppression-invalid]",
              "entries/cuda/legacy-b.yaml:1:41: warning: 'suppression-unused' cannot be "
              "disabled; set its level under rules in kbc.yaml [suppression-invalid]",
              "entries/cuda/legacy-b.yaml:2:3: warning: kbc-disable-file names no rule: list the "
              "rule ids it disables [suppression-invalid]",
              "entries/cuda/legacy-b.yaml:5:15: warning: signature_zh is blank [i18n-missing]",
              "entries/cuda/legacy-b.yaml:22:3: warning: kbc-disable-next-line has no line after "
              "it to apply to [suppression-unused]"});
}

TEST_CASE(
    "a comment for a rule kbc.yaml turns off says so, and suppression rules have levels too") {
  Kb kb;
  kb.fs.files["kb/entries/cuda/a.yaml"] = entry("cuda/a", "# kbc-disable-next-line i18n-missing\n");
  kb.fs.files["kb/kbc.yaml"] = "rules:\n  i18n-missing: off\n  suppression-unused: error\n";
  CHECK(kb.lint() ==
        Lines{"entries/cuda/a.yaml:3:25: error: 'i18n-missing' reports nothing on line 4: remove "
              "it from the comment (kbc.yaml turns it off) [suppression-unused]"});
  kb.fs.files["kb/kbc.yaml"] = "rules:\n  i18n-missing: off\n  suppression-unused: off\n";
  CHECK(kb.lint() == Lines{});
}

TEST_CASE("with FILE arguments, comments are checked in those files only") {
  Kb kb;
  kb.fs.files["kb/entries/cuda/legacy-b.yaml"] =
      "# kbc-disable-file date-order\n" + entry("cuda/legacy-b");
  CHECK(kb.lint({"entries/cuda/a.yaml"}) ==
        Lines{"entries/cuda/a.yaml:3:15: warning: signature_zh is blank [i18n-missing]"});
  CHECK(kb.lint({"entries/cuda/legacy-b.yaml"}) ==
        Lines{"entries/cuda/legacy-b.yaml:1:20: warning: 'date-order' reports nothing in this "
              "file: remove it from the comment [suppression-unused]",
              "entries/cuda/legacy-b.yaml:4:15: warning: signature_zh is blank [i18n-missing]"});
}

TEST_CASE("glob patterns: * within a segment, ** across segments") {
  struct Case {
    const char* pattern;
    const char* name;
    bool match;
  };
  const Case cases[] = {
      {"cuda/*", "cuda/x", true},
      {"cuda/*", "cuda/x/v", false},
      {"cuda/**", "cuda/x/v", true},
      {"cuda/**", "cuda", true},
      {"**/v", "cuda/x/v", true},
      {"**", "cuda/x", true},
      {"cuda/legacy-*", "cuda/legacy-a", true},
      {"cuda/legacy-*", "cuda/new", false},
      {"*/x", "cuda/x", true},
      {"c?da/[xy]", "cuda/y", true},
      {"cuda", "cuda/x", false},
      {"cuda/x", "cuda/x", true},
      {"**/**/x", "x", true},
      {"cuda/*/v", "cuda/x/w", false},
  };
  for (const Case& c : cases) {
    INFO(c.pattern << " " << c.name);
    CHECK(kbc::glob_match(c.pattern, c.name) == c.match);
  }
}
