// The forms of `kbc lint`'s output: text (with and without colour and source lines), JSON,
// SARIF and GitHub workflow commands, from hand-made diagnostics.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "base/file_system.h"
#include "cli/diagnostic_output.h"
#include "lint/rule.h"

namespace {

using kbc::Diagnostic;
using kbc::Diagnostics;
using kbc::Severity;
using nlohmann::json;

Diagnostic make(std::string path, int line, int column, Severity severity, std::string message,
                std::string rule, std::string pointer = "") {
  Diagnostic d;
  d.path = std::move(path);
  d.at = {line, column};
  d.severity = severity;
  d.message = std::move(message);
  d.rule = std::move(rule);
  d.pointer = std::move(pointer);
  return d;
}

// An error at a node, a warning about a whole file.
Diagnostics sample() {
  return {make("entries/cuda/x.yaml", 8, 11, Severity::kError,
               "dead_ends[0] has a blank action: name the fix that does not work",
               "entry-blank-text", "/dead_ends/0/action"),
          make("entries/cuda/y.yaml", 0, 0, Severity::kWarning, "a whole-file warning",
               "i18n-missing")};
}

std::string without_escapes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      out += text[i];
      continue;
    }
    while (i < text.size() && text[i] != 'm') ++i;
  }
  return out;
}

const kbc::ToolInfo kTool{"kbc", "9.8.7", "https://kbc.dev"};

}  // namespace

TEST_CASE("format and colour names parse, and nothing else does") {
  CHECK(kbc::parse_output_format("text") == kbc::OutputFormat::kText);
  CHECK(kbc::parse_output_format("json") == kbc::OutputFormat::kJson);
  CHECK(kbc::parse_output_format("sarif") == kbc::OutputFormat::kSarif);
  CHECK(kbc::parse_output_format("github") == kbc::OutputFormat::kGithub);
  CHECK_FALSE(kbc::parse_output_format("jsn"));
  CHECK_FALSE(kbc::parse_output_format(""));
  CHECK(kbc::parse_color_mode("auto") == kbc::ColorMode::kAuto);
  CHECK(kbc::parse_color_mode("always") == kbc::ColorMode::kAlways);
  CHECK(kbc::parse_color_mode("never") == kbc::ColorMode::kNever);
  CHECK_FALSE(kbc::parse_color_mode("yes"));
}

TEST_CASE("colour: always and never decide, auto colours a terminal without NO_COLOR") {
  using kbc::ColorMode;
  using kbc::use_color;
  CHECK(use_color(ColorMode::kAlways, false, "1", "dumb"));
  CHECK_FALSE(use_color(ColorMode::kNever, true, nullptr, "xterm"));
  CHECK(use_color(ColorMode::kAuto, true, nullptr, "xterm"));
  CHECK(use_color(ColorMode::kAuto, true, "", nullptr));  // an empty NO_COLOR does not count
  CHECK_FALSE(use_color(ColorMode::kAuto, false, nullptr, "xterm"));
  CHECK_FALSE(use_color(ColorMode::kAuto, true, "1", "xterm"));
  CHECK_FALSE(use_color(ColorMode::kAuto, true, nullptr, "dumb"));
}

TEST_CASE("plain text is format_diagnostic's lines and the summary line, byte for byte") {
  const std::string expected =
      "entries/cuda/x.yaml:8:11: error: dead_ends[0] has a blank action: name the fix that does "
      "not work [entry-blank-text]\n"
      "entries/cuda/y.yaml: warning: a whole-file warning [i18n-missing]\n"
      "1 error, 1 warning in 2 files\n";
  CHECK(kbc::format_text(sample(), 2, false) == expected);
  CHECK(kbc::format_text({}, 1, false) == "0 errors, 0 warnings in 1 file\n");
}

TEST_CASE("coloured text: bold location, red error, yellow warning, green caret") {
  Diagnostics diagnostics = sample();
  diagnostics[0].excerpt = "- action: ''";
  const std::string text = kbc::format_text(diagnostics, 2, true);
  CHECK(text.find("\x1b[1mentries/cuda/x.yaml:8:11:\x1b[0m \x1b[1;31merror:\x1b[0m dead_ends[0]") !=
        std::string::npos);
  CHECK(text.find("\x1b[1mentries/cuda/y.yaml:\x1b[0m \x1b[1;33mwarning:\x1b[0m a whole") !=
        std::string::npos);
  CHECK(text.find("\x1b[1;32m^\x1b[0m\n") != std::string::npos);
  // Apart from the colours, the same text.
  CHECK(without_escapes(text) == kbc::format_text(diagnostics, 2, false));
  CHECK(kbc::format_text(diagnostics, 2, false).find('\x1b') == std::string::npos);
}

TEST_CASE("source lines are read from the files, once, with control characters made harmless") {
  kbc::MemoryFileSystem fs;
  fs.files["kb/entries/a.yaml"] = "id: a\nsignature: \x1b[2Jboom\r\n";
  Diagnostics diagnostics = {
      make("entries/a.yaml", 2, 12, Severity::kError, "bad", "schema"),
      make("entries/a.yaml", 1, 5, Severity::kError, "worse", "schema"),
      make("entries/a.yaml", 0, 0, Severity::kError, "whole", "schema"),
      make("entries/gone.yaml", 3, 1, Severity::kError, "missing file", "schema"),
      make("entries/a.yaml", 9, 1, Severity::kError, "past the end", "schema")};
  diagnostics.push_back(make("entries/a.yaml", 1, 1, Severity::kError, "kept", "yaml-syntax"));
  diagnostics.back().excerpt = "its own excerpt";
  kbc::attach_source_lines(diagnostics, fs, "kb");
  CHECK(diagnostics[0].excerpt == "signature: ?[2Jboom");
  CHECK(diagnostics[1].excerpt == "id: a");
  CHECK(diagnostics[2].excerpt.empty());
  CHECK(diagnostics[3].excerpt.empty());
  CHECK(diagnostics[4].excerpt.empty());
  CHECK(diagnostics[5].excerpt == "its own excerpt");
  CHECK(kbc::format_text_diagnostics({diagnostics[0]}, false) ==
        "entries/a.yaml:2:12: error: bad [schema]\n  signature: ?[2Jboom\n             ^\n");
}

TEST_CASE("the caret stands under its column after Chinese (two columns each) and a tab") {
  Diagnostic d = make("entries/a.yaml", 3, 10, Severity::kWarning, "w", "i18n-length");
  d.excerpt = "zh:\t\xe9\x94\x99\xe8\xaf\xaf\xe4\xbf\xa1\xe6\x81\xaf x";  // 错误信息
  CHECK(kbc::format_text_diagnostics({d}, false) ==
        "entries/a.yaml:3:10: warning: w [i18n-length]\n  " + d.excerpt + "\n     \t         ^\n");
}

TEST_CASE("json: one document with every diagnostic's fields and the summary") {
  const json out = json::parse(kbc::format_json(sample(), 2));
  CHECK(out["version"] == 1);
  REQUIRE(out["diagnostics"].size() == 2);
  const json& first = out["diagnostics"][0];
  CHECK(first["path"] == "entries/cuda/x.yaml");
  CHECK(first["line"] == 8);
  CHECK(first["column"] == 11);
  CHECK(first["severity"] == "error");
  CHECK(first["rule"] == "entry-blank-text");
  CHECK(first["message"] == "dead_ends[0] has a blank action: name the fix that does not work");
  CHECK(first["pointer"] == "/dead_ends/0/action");
  const json& second = out["diagnostics"][1];
  CHECK(second["severity"] == "warning");
  CHECK(second["line"] == 0);
  CHECK(second["column"] == 0);
  CHECK(second["pointer"] == "");
  CHECK(out["summary"] == json({{"errors", 1}, {"warnings", 1}, {"files", 2}}));
  const std::string empty = kbc::format_json({}, 0);
  CHECK(json::parse(empty)["diagnostics"] == json::array());
  CHECK(empty.ends_with("}\n"));
}

TEST_CASE("json and sarif are written a finding at a time, as nlohmann's dump would write them") {
  // Byte for byte what the document dumped whole gives: the form scripts and tools depend on.
  const auto canonical = [](const std::string& text) {
    return nlohmann::ordered_json::parse(text).dump(2) + "\n";
  };
  Diagnostics many = sample();
  for (int k = 0; k < 30; ++k) many.push_back(many[k % 2]);
  const kbc::ToolInfo tool{"kbc", "1.0", ""};
  for (const Diagnostics& diagnostics : {Diagnostics{}, Diagnostics{sample().front()}, many}) {
    const std::string json_text = kbc::format_json(diagnostics, 3);
    CHECK(json_text == canonical(json_text));
    CHECK(json::parse(json_text)["diagnostics"].size() == diagnostics.size());
    const std::string sarif = kbc::format_sarif(diagnostics, kbc::all_rules(), tool);
    CHECK(sarif == canonical(sarif));
    CHECK(json::parse(sarif)["runs"][0]["results"].size() == diagnostics.size());
  }
}

TEST_CASE("sarif: one run naming every rule, results pointing at rule, file and region") {
  const std::vector<kbc::Rule>& rules = kbc::all_rules();
  const json log = json::parse(kbc::format_sarif(sample(), rules, kTool));
  CHECK(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  CHECK(log["version"] == "2.1.0");
  REQUIRE(log["runs"].size() == 1);
  const json& run = log["runs"][0];
  const json& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "kbc");
  CHECK(driver["version"] == "9.8.7");
  CHECK(driver["informationUri"] == "https://kbc.dev");
  REQUIRE(driver["rules"].size() == rules.size());
  std::set<std::string> ids;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const json& rule = driver["rules"][i];
    CHECK(rule["id"] == std::string(rules[i].id));
    CHECK(rule["shortDescription"]["text"] == std::string(rules[i].summary));
    CHECK(rule["defaultConfiguration"]["level"] ==
          (rules[i].severity == Severity::kError ? "error" : "warning"));
    ids.insert(rule["id"].get<std::string>());
  }
  CHECK(ids.size() == rules.size());
  REQUIRE(run["results"].size() == 2);
  const json& first = run["results"][0];
  CHECK(first["ruleId"] == "entry-blank-text");
  CHECK(driver["rules"][first["ruleIndex"].get<std::size_t>()]["id"] == "entry-blank-text");
  CHECK(driver["rules"][first["ruleIndex"].get<std::size_t>()]["name"] == "EntryBlankText");
  CHECK(first["level"] == "error");
  CHECK(first["message"]["text"] ==
        "dead_ends[0] has a blank action: name the fix that does not work");
  const json& location = first["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "entries/cuda/x.yaml");
  CHECK(location["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(location["region"] == json({{"startLine", 8}, {"startColumn", 11}}));
  const json& second = run["results"][1];
  CHECK(second["level"] == "warning");
  CHECK_FALSE(second["locations"][0]["physicalLocation"].contains("region"));
}

TEST_CASE("sarif: a rule missing from the list gets no ruleIndex") {
  const Diagnostics diagnostics = {
      make("site/en/404.html", 3, 1, Severity::kError, "broken", "site-link")};
  const json log = json::parse(kbc::format_sarif(diagnostics, kbc::all_rules(), kTool));
  const json& result = log["runs"][0]["results"][0];
  CHECK(result["ruleId"] == "site-link");
  CHECK_FALSE(result.contains("ruleIndex"));
}

TEST_CASE("sarif: a file name with a space, % or beyond ASCII is percent-encoded in its URI") {
  const Diagnostics diagnostics = {
      make("entries/cuda/a b%c#d?.yaml", 1, 1, Severity::kError, "x", "schema"),
      make("entries/zh/中文.yaml", 1, 1, Severity::kError, "x", "schema")};
  const json log = json::parse(kbc::format_sarif(diagnostics, kbc::all_rules(), kTool));
  const auto uri = [&](std::size_t i) {
    return log["runs"][0]["results"][i]["locations"][0]["physicalLocation"]["artifactLocation"]
              ["uri"];
  };
  CHECK(uri(0) == "entries/cuda/a%20b%25c%23d%3F.yaml");
  CHECK(uri(1) == "entries/zh/%E4%B8%AD%E6%96%87.yaml");
}

TEST_CASE("github: one escaped workflow command per diagnostic, then the summary") {
  CHECK(kbc::format_github(sample(), 2) ==
        "::error file=entries/cuda/x.yaml,line=8,col=11,title=entry-blank-text::dead_ends[0] has "
        "a blank action: name the fix that does not work\n"
        "::warning file=entries/cuda/y.yaml,title=i18n-missing::a whole-file warning\n"
        "1 error, 1 warning in 2 files\n");
  const Diagnostics odd = {make("entries/a,b:c%.yaml", 2, 1, Severity::kError,
                                "100% sure:\r\nsecond, line", "rule:x,y")};
  CHECK(kbc::format_github(odd, 1) ==
        "::error file=entries/a%2Cb%3Ac%25.yaml,line=2,col=1,title=rule%3Ax%2Cy::100%25 "
        "sure:%0D%0Asecond, line\n1 error, 0 warnings in 1 file\n");
}

TEST_CASE(
    "diagnostics are sorted by path, line, column, rule and message, equal ones kept in order") {
  const auto at = [](std::string path, int line, std::string message) {
    return kbc::Diagnostic{
        std::move(path), {line, 1}, kbc::Severity::kWarning, std::move(message), "rule", "", ""};
  };
  const auto messages = [](const kbc::Diagnostics& diagnostics) {
    std::string out;
    for (const kbc::Diagnostic& d : diagnostics)
      out += d.path + ":" + std::to_string(d.at.line) + d.message + " ";
    return out;
  };
  // A few sorted runs end to end (merged), and many (sorted): the same order either way.
  kbc::Diagnostics runs = {at("b", 1, "x"),  at("c", 2, "x"), at("a", 5, "x"),
                           at("b", 1, "x2"), at("a", 1, "x"), at("c", 1, "x")};
  kbc::Diagnostics many;
  for (int i = 0; i < 40; ++i) many.push_back(at(i % 2 ? "a" : "b", 40 - i, "y"));
  kbc::sort_diagnostics(runs);
  CHECK(messages(runs) == "a:1x a:5x b:1x b:1x2 c:1x c:2x ");
  kbc::Diagnostics expected = many;
  std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
    return std::tie(a.path, a.at.line) < std::tie(b.path, b.at.line);
  });
  kbc::sort_diagnostics(many);
  CHECK(messages(many) == messages(expected));
  // Equal keys keep their order, in a merge as in a sort.
  kbc::Diagnostics equal = {at("b", 1, "m"), at("a", 1, "m"), at("a", 1, "m")};
  equal[1].excerpt = "first";
  equal[2].excerpt = "second";
  kbc::sort_diagnostics(equal);
  CHECK(equal[0].excerpt == "first");
  CHECK(equal[1].excerpt == "second");
}
