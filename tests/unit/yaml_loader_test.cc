// The YAML loader: scalar resolution (YAML 1.2 core schema), source positions, and a table of
// inputs that must fail with a given rule at a given line and column.
#include <catch2/catch.hpp>

#include <cmath>

#include "load/yaml_loader.h"
#include "model/entry.h"

using kbc::Diagnostics;
using nlohmann::json;

namespace {

json load_value(const std::string& text) {
  Diagnostics out;
  auto document = kbc::load_yaml("t.yaml", text, out);
  REQUIRE(document);
  REQUIRE(out.empty());
  return document->value;
}

}  // namespace

TEST_CASE("plain and quoted scalars resolve like the YAML 1.2 core schema") {
  const json v = load_value(
      "quoted_bool: 'true'\nbool: true\nrate: 1.0\nint: 42\nhex: 0x1F\ndate: 2024-06-01\n"
      "null_value: ~\nempty:\nquoted_number: '0.5'\ntext: cuDNN error\nnegative: -3\nexp: 1e-5\n");
  CHECK(v["quoted_bool"] == json("true"));
  CHECK(v["bool"] == json(true));
  CHECK(v["rate"].is_number_float());
  CHECK(v["rate"].dump() == "1.0");
  CHECK(v["int"] == json(42));
  CHECK(v["hex"] == json(31));
  CHECK(v["date"] == json("2024-06-01"));
  CHECK(v["null_value"].is_null());
  CHECK(v["empty"].is_null());
  CHECK(v["quoted_number"] == json("0.5"));
  CHECK(v["text"] == json("cuDNN error"));
  CHECK(v["negative"] == json(-3));
  CHECK(v["exp"].get<double>() == Approx(1e-5));
}

TEST_CASE("every double-quoted escape gives UTF-8, \\N and \\_ included") {
  // yaml-cpp writes \N and \_ as the single bytes 0x85 and 0xA0.
  const json v = load_value(
      "nel: \"a\\Nb\"\nnbsp: \"\\_x\\_\"\nboth: \"\u00e9\\N\\_\"\nls: \"\\L\"\nhex: \"\\x85\"\n"
      "\"key\\_\": 1\n");
  CHECK(v["nel"] == json("a\u0085b"));
  CHECK(v["nbsp"] == json("\u00a0x\u00a0"));
  CHECK(v["both"] == json("\u00e9\u0085\u00a0"));
  CHECK(v["ls"] == json("\u2028"));
  CHECK(v["hex"] == json("\u0085"));
  CHECK(v["key\u00a0"] == json(1));
}

TEST_CASE("special floats load as non-finite numbers") {
  const json v = load_value("a: .nan\nb: -.inf\n");
  CHECK(std::isnan(v["a"].get<double>()));
  CHECK(std::isinf(v["b"].get<double>()));
}

TEST_CASE("aliases copy the anchored value") {
  const json v = load_value("base: &b {x: 1}\ncopy: *b\n");
  CHECK(v["copy"] == json({{"x", 1}}));
}

TEST_CASE("every node remembers the line and column of its key and value") {
  Diagnostics out;
  const auto document =
      kbc::load_yaml("t.yaml", "id: a/b\nlist:\n  - first\n  - {k: [1, 2]}\n", out);
  REQUIRE(document);
  const auto id = document->sources.find("/id");
  CHECK(id.key.line == 1);
  CHECK(id.key.column == 1);
  CHECK(id.value.column == 5);
  CHECK(document->sources.find("/list/1/k/1").value.line == 4);
  CHECK(document->sources.find("/list/1/k/1").value.column == 13);
  // A pointer that does not exist falls back to its nearest ancestor.
  CHECK(document->sources.find("/list/0/missing").value.line == 3);
}

TEST_CASE("an empty value is placed after its key's colon, not at the next key") {
  Diagnostics out;
  const auto document = kbc::load_yaml(
      "t.yaml", "id: a/b\nsignature:\n\"quoted: key\":   # nothing\nnested:\n  inner:\nlast: ~\n",
      out);
  REQUIRE(document);
  CHECK(document->value["signature"].is_null());
  const auto at = [&](const std::string& pointer) {
    const auto found = document->sources.find(pointer).value;
    return std::pair{found.line, found.column};
  };
  CHECK(at("/signature") == std::pair{2, 11});
  CHECK(at("/quoted: key") == std::pair{3, 15});
  CHECK(at("/nested/inner") == std::pair{5, 9});
  CHECK(at("/last") == std::pair{6, 7});
}

TEST_CASE("columns count characters, not bytes") {
  Diagnostics out;
  const auto document = kbc::load_yaml("t.yaml", "中文: x\n", out);
  REQUIRE(document);
  CHECK(document->sources.find("/中文").value.column == 5);
}

TEST_CASE("bad input fails with the rule and position at fault") {
  struct Case {
    std::string name, text, rule;
    int line, column;
  };
  const std::string deep = "a: " + std::string(200, '[') + std::string(200, ']') + "\n";
  const std::string bomb =
      "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
      "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n";
  const std::vector<Case> cases = {
      {"unclosed flow", "a: [1, 2\nb: 3\n", "yaml-syntax", 2, 2},
      {"bad indentation", "a:\n  b: 1\n c: 2\n", "yaml-syntax", 3, 2},
      {"tab indentation", "a:\n\tb: 1\n", "yaml-syntax", 2, 1},
      {"duplicate key", "a: 1\nb: 2\na: 3\n", "yaml-duplicate-key", 3, 1},
      {"duplicate nested key", "a:\n  x: 1\n  x: 2\n", "yaml-duplicate-key", 3, 3},
      {"empty file", "", "yaml-structure", 0, 0},
      {"comment only", "# nothing\n", "yaml-structure", 0, 0},
      {"two documents", "a: 1\n---\nb: 2\n", "yaml-structure", 2, 1},
      {"list root", "- a\n", "yaml-structure", 1, 1},
      {"scalar root", "just text\n", "yaml-structure", 1, 1},
      {"not utf-8", "a: caf\xe9\n", "yaml-encoding", 1, 7},
      {"deep nesting", deep, "yaml-structure", 1, 67},
      {"alias explosion", bomb, "yaml-structure", 5, 29},
      {"mapping as key", "? [a, b]\n: c\n", "yaml-structure", 1, 3},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Diagnostics out;
    const auto document = kbc::load_yaml("t.yaml", c.text, out);
    REQUIRE_FALSE(out.empty());
    CHECK(out.front().rule == c.rule);
    CHECK(out.front().at.line == c.line);
    CHECK(out.front().at.column == c.column);
    // Duplicate keys and extra documents are reported; the first value is still loaded.
    if (c.rule != "yaml-duplicate-key" && c.name != "two documents") CHECK_FALSE(document);
  }
}

TEST_CASE("files over the size limit are refused before parsing") {
  Diagnostics out;
  const std::string huge = "a: '" + std::string(kbc::kMaxFileBytes, 'x') + "'\n";
  CHECK_FALSE(kbc::load_yaml("t.yaml", huge, out));
  REQUIRE(out.size() == 1);
  CHECK(out[0].rule == "yaml-structure");
}

TEST_CASE("an entry finds nodes by JSON pointer with escapes") {
  kbc::Entry entry;
  entry.data = nlohmann::json::parse(R"({"a/b": {"c~d": [1, 2]}, "list": [{"k": "v"}]})");
  REQUIRE(entry.find("/a~1b/c~0d/1"));
  CHECK(*entry.find("/a~1b/c~0d/1") == 2);
  CHECK(entry.find("") == &entry.data);
  CHECK(entry.text("/list/0/k") == "v");
  CHECK(entry.find("/a~1b/c~0d/2") == nullptr);
  CHECK(entry.find("/a~1b/c~0d/x") == nullptr);
  CHECK(entry.find("/a/b") == nullptr);
  CHECK(entry.find("/list/0/k/deeper") == nullptr);
}
