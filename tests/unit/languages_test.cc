// The languages of a knowledge base: the entry schema derived from them, their names, and
// kbc.yaml's `languages` as load_kb_config reads it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/file_system.h"
#include "model/config.h"
#include "model/languages.h"

using kbc::Language;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string source_schema_text() {
  std::ifstream in(std::string(KBC_SOURCE_DIR) + "/schema/entry.schema.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> property_names(const ordered_json& schema) {
  std::vector<std::string> names;
  for (const auto& [key, value] : schema.at("properties").items()) names.push_back(key);
  return names;
}

// English, Chinese and Japanese, as kbc.yaml would list them.
std::vector<Language> three_languages() {
  const json list = json::parse(
      R"([{"code": "en"}, {"code": "zh", "html_lang": "zh-CN"}, {"code": "ja", "name": "日本語"}])");
  return kbc::languages_from(list, [](const std::string& code) -> std::optional<json> {
    if (code == "ja") return json{{"english_name", "Japanese"}};
    return std::nullopt;
  });
}

kbc::KbConfig config_of(const std::string& yaml, kbc::Diagnostics& out,
                        const std::string& ja_strings = "") {
  kbc::MemoryFileSystem fs;
  fs.files["kb/kbc.yaml"] = yaml;
  if (!ja_strings.empty()) fs.files["kb/templates/strings/ja.json"] = ja_strings;
  return kbc::load_kb_config(fs, "kb", out);
}

}  // namespace

TEST_CASE("the default languages leave the entry schema exactly as schema/ writes it") {
  const std::vector<Language>& languages = kbc::default_languages();
  CHECK(kbc::entry_schema(languages) == ordered_json::parse(source_schema_text()));
  CHECK(kbc::entry_schema_text(languages) == source_schema_text());
}

TEST_CASE("each language but the base gets the translated keys where the _zh ones stand") {
  const ordered_json schema = kbc::entry_schema(three_languages());
  const std::vector<std::string> names = property_names(schema);
  const auto after = [&](const std::string& key) {
    const auto it = std::find(names.begin(), names.end(), key);
    REQUIRE(it != names.end());
    return std::vector<std::string>(it + 1, std::min(it + 3, names.end()));
  };
  CHECK(after("signature") == std::vector<std::string>{"signature_zh", "signature_ja"});
  CHECK(after("root_cause_type") == std::vector<std::string>{"root_cause_zh", "root_cause_ja"});
  CHECK(after("workarounds") == std::vector<std::string>{"workarounds_zh", "workarounds_ja"});
  CHECK(after("workarounds_ja") == std::vector<std::string>{"dead_ends_zh", "dead_ends_ja"});
  CHECK(after("dead_ends_ja").front() == "transition_graph");
  CHECK(names.size() == property_names(ordered_json::parse(source_schema_text())).size() + 4);
  CHECK(
      schema["properties"]["signature_ja"] ==
      ordered_json::parse(
          R"({"description": "Japanese rendering of the signature.", "type": ["string", "null"]})"));
  CHECK(schema["properties"]["dead_ends_ja"]["description"] ==
        "Japanese text of each dead end's action, one string per dead end.");
  CHECK(kbc::entry_schema_text(three_languages()) == schema.dump(2) + "\n");
}

TEST_CASE("without a language besides the base there are no translated keys") {
  const ordered_json schema = kbc::entry_schema({three_languages().front()});
  for (const std::string& name : property_names(schema)) {
    INFO(name);
    CHECK_FALSE(name.ends_with("_zh"));
  }
  std::vector<std::string> keys;
  for (const kbc::TranslatedKey& key : kbc::translated_keys())
    keys.push_back(key.key + (key.list ? "[]" : ""));
  CHECK(keys ==
        std::vector<std::string>{"signature", "root_cause", "workarounds[]", "dead_ends[]"});
}

TEST_CASE("languages are named by kbc.yaml, else by their UI strings, else by their code") {
  const std::vector<Language>& defaults = kbc::default_languages();
  REQUIRE(defaults.size() == 2);
  CHECK(defaults[0].code == "en");
  CHECK(defaults[0].html_lang == "en");
  CHECK(defaults[0].name == "English");
  CHECK(defaults[0].base);
  CHECK(defaults[1].html_lang == "zh-CN");
  CHECK(defaults[1].name == "中文");
  CHECK(defaults[1].english_name == "Chinese");
  CHECK_FALSE(defaults[1].base);
  CHECK(defaults[0].key("signature") == "signature");
  CHECK(defaults[1].key("signature") == "signature_zh");

  const std::vector<Language> three = three_languages();
  CHECK(three[2].name == "日本語");
  CHECK(three[2].html_lang == "ja");
  CHECK(three[2].english_name == "Japanese");
  CHECK(three[1].english_name == "Chinese");  // kbc's own strings stand in
  const std::vector<Language> bare =
      kbc::languages_from(json::parse(R"([{"code": "fr"}])"), kbc::built_in_strings);
  CHECK(bare[0].name == "fr");
  CHECK(bare[0].english_name == "fr");
}

TEST_CASE("kbc.yaml's languages, and its mistakes at their line and column") {
  kbc::Diagnostics out;
  const kbc::KbConfig japanese =
      config_of("languages:\n- code: en\n- code: ja\n", out, R"({"language_name": "日本語"})");
  CHECK(out.empty());
  REQUIRE(japanese.languages.size() == 2);
  CHECK(japanese.languages[1].name == "日本語");
  CHECK(japanese.languages[1].key("root_cause") == "root_cause_ja");

  const kbc::KbConfig twice = config_of("languages:\n- code: en\n- code: zh\n- code: zh\n", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].path == "kbc.yaml");
  CHECK(out[0].at.line == 4);
  CHECK(out[0].at.column == 9);
  CHECK(out[0].rule == "config-language");
  CHECK(out[0].severity == kbc::Severity::kError);
  CHECK(out[0].message == "the language 'zh' is listed twice (first on line 3)");
  CHECK(twice.languages.size() == 2);  // the defaults
  CHECK(twice.languages[1].html_lang == "zh-CN");

  out.clear();
  config_of("languages:\n- code: en\n- code: ja\n", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].at.line == 3);
  CHECK(
      out[0].message.starts_with("the language 'ja' has no UI strings: add them to the "
                                 "knowledge base as templates/strings/ja.json"));

  out.clear();
  config_of("languages: []\n", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].rule == "schema");
}
