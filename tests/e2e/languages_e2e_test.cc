// End-to-end: kbc.yaml's `languages` through the real binary. Japanese added to English and
// Chinese as configuration alone (kbc.yaml, templates/strings/ja.json, the _ja keys): its pages,
// records, sitemap, schema and lint; a language's keys unknown while kbc.yaml does not list it;
// the mistakes of the setting; the parse cache following it; kbc new, import and stats.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;

namespace {

const char* const kLanguagesEntry = "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
const char* const kId = "cuda/cudnn-bn-epsilon-too-small";
const char* const kThree =
    "languages: [{code: en}, {code: zh, html_lang: zh-CN}, {code: ja, name: 日本語}]\n";
const char* const kSignatureJa = "ランタイムエラー：cuDNN の epsilon が小さすぎます";

// The golden knowledge base (one entry, translated into Chinese) with a Japanese signature
// (signature_ja, after signature_zh on line 3) but no Japanese root cause, and the UI strings of
// Japanese: kbc's English ones with a few of their own.
struct JapaneseKb : TempKb {
  JapaneseKb() : TempKb(fs::path(KBC_TEST_DATA) / "golden/seed001/entries") {
    std::string text = read(root / kLanguagesEntry);
    const std::size_t line_4 = text.find("\nregex: ") + 1;
    write(root / kLanguagesEntry,
          text.insert(line_4, "signature_ja: '" + std::string(kSignatureJa) + "'\n"));
    auto strings =
        nlohmann::json::parse(read(fs::path(KBC_SOURCE_DIR) / "templates/strings/en.json"));
    strings["language_name"] = "日本語";
    strings["english_name"] = "Japanese";
    strings["home"] = "ホーム";
    write(root / "templates/strings/ja.json", strings.dump(2) + "\n");
  }
  void set_languages(const std::string& yaml) const { write(root / "kbc.yaml", yaml); }
  // Drops the lines of the entry's keys that end in `suffix`, with their list items.
  void drop_keys(const std::string& suffix) const {
    std::string kept, line;
    bool dropping = false;
    std::istringstream in(read(root / kLanguagesEntry));
    while (std::getline(in, line)) {
      const std::size_t colon = line.find(':');
      if (!line.starts_with("- ") && !line.starts_with(" "))
        dropping = colon != std::string::npos && line.substr(0, colon).ends_with(suffix);
      if (!dropping) kept += line + "\n";
    }
    write(root / kLanguagesEntry, kept);
  }
};

std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    if (item.is_regular_file()) files[fs::relative(item.path(), dir).string()] = read(item.path());
  }
  return files;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The keys of a JSON object, in order.
std::vector<std::string> keys_of(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

}  // namespace

TEST_CASE("a third language in kbc.yaml gets its pages, records, sitemap, schema and lint") {
  JapaneseKb kb;
  kb.set_languages(kThree);
  const Run lint = kbc("lint " + kb.arg());
  CHECK(lint.status == 0);
  CHECK(has(lint.output, std::string(kLanguagesEntry) +
                             ":9:1: warning: root_cause has no Japanese text (root_cause_ja) "
                             "[i18n-missing]"));
  CHECK_FALSE(has(lint.output, "signature has no Japanese text"));
  const Run build = kbc("build " + kb.arg() + " --base-url https://kb.example/");
  INFO(build.output);
  REQUIRE(build.status == 0);
  const auto files = files_under(kb.root / "dist");
  const std::string id = kId;
  CHECK(has(files.at("md/ja/" + id + ".md"), std::string("# ") + kSignatureJa));
  CHECK(files.count("md/zh/" + id + ".md"));
  const std::string page = files.at("site/ja/entries/" + id + ".html");
  CHECK(has(page, "<html lang=\"ja\">"));
  CHECK(has(page, std::string("<h1>") + kSignatureJa + "</h1>"));
  CHECK(has(page, "hreflang=\"zh-CN\" lang=\"zh-CN\">中文</a>"));  // the switcher lists the others
  CHECK(has(page, "hreflang=\"en\" lang=\"en\">English</a>"));
  CHECK(has(page, "<div class=\"prose\" lang=\"en\">"));  // the root cause, untranslated
  CHECK(has(files.at("site/zh/entries/" + id + ".html"), "lang=\"ja\">日本語</a>"));
  CHECK(has(files.at("site/index.html"), "location.replace(\"ja/index.html\")"));
  CHECK(files.count("site/ja/search/meta.json"));
  CHECK(files.count("site/ja/match.json"));
  CHECK(files.count("site/ja/feed.xml"));
  CHECK(has(files.at("site/sitemap.xml"),
            "<xhtml:link rel=\"alternate\" hreflang=\"ja\" href=\"https://kb.example/ja/entries/" +
                id + ".html\"/>"));
  const auto record = nlohmann::ordered_json::parse(files.at("api/" + id + ".json"));
  const std::vector<std::string> keys = keys_of(record);
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 5) ==
        std::vector<std::string>{"id", "signature", "signature_zh", "signature_ja", "regex"});
  CHECK(record["root_cause_ja"] == nullptr);
  CHECK(record["workarounds_ja"] == nlohmann::ordered_json::array());
  const auto schema = nlohmann::json::parse(files.at("site/schema/entry.schema.json"));
  CHECK(schema["properties"]["signature_ja"]["description"] ==
        "Japanese rendering of the signature.");
}

TEST_CASE("a language's keys are unknown while kbc.yaml does not list it") {
  JapaneseKb kb;
  const Run by_default = kbc("lint " + kb.arg());
  CHECK(by_default.status == 1);
  CHECK(has(by_default.output,
            std::string(kLanguagesEntry) + ":4:1: error: unknown key 'signature_ja'"));
  kb.set_languages("languages: [{code: en}, {code: ja}]\n");
  const Run without_zh = kbc("lint " + kb.arg());
  CHECK(without_zh.status == 1);
  CHECK(has(without_zh.output,
            std::string(kLanguagesEntry) + ":3:1: error: unknown key 'signature_zh'"));
  kb.drop_keys("_zh");
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  for (const auto& [path, content] : files_under(kb.root / "dist")) {
    INFO(path);
    CHECK_FALSE(has(path, "zh"));
    CHECK_FALSE(has(content, "zh-CN"));
    CHECK_FALSE(has(content, "_zh"));
  }
  CHECK(fs::exists(kb.root / "dist/site/ja/entries" / (std::string(kId) + ".html")));
}

TEST_CASE("a language listed twice or without UI strings is an error at its line and column") {
  JapaneseKb kb;
  kb.set_languages("languages:\n- code: en\n- code: ja\n- code: ko\n- code: ja\n");
  const Run lint = kbc("lint " + kb.arg());
  CHECK(lint.status == 1);
  CHECK(has(lint.output,
            "kbc.yaml:4:9: error: the language 'ko' has no UI strings: add them to the knowledge "
            "base as templates/strings/ko.json"));
  CHECK(has(lint.output,
            "kbc.yaml:5:9: error: the language 'ja' is listed twice (first on line 3) "
            "[config-language]"));
  // The setting is not used: the entries are checked in the default languages.
  CHECK(has(lint.output, "unknown key 'signature_ja'"));
  CHECK(kbc("build " + kb.arg()).status == 1);
  kb.set_languages("languages: [{code: EN}]\n");
  CHECK(has(kbc("lint " + kb.arg()).output,
            "kbc.yaml:1:20: error: languages[0].code text 'EN' does not match the pattern"));
}

TEST_CASE("the parse cache follows kbc.yaml's languages") {
  JapaneseKb kb;
  const std::string unknown = "unknown key 'signature_ja'";
  CHECK(has(lint_same_as_uncached(kb).output, unknown));
  kb.set_languages(kThree);
  const Run with_ja = lint_same_as_uncached(kb);
  CHECK(with_ja.status == 0);
  CHECK_FALSE(has(with_ja.output, unknown));
  fs::remove(kb.root / "kbc.yaml");
  CHECK(has(lint_same_as_uncached(kb).output, unknown));
}

TEST_CASE("kbc new, import and stats follow kbc.yaml's languages") {
  JapaneseKb kb;
  kb.set_languages(kThree);
  REQUIRE(kbc("new cuda/fresh " + kb.arg()).status == 0);
  const std::string scaffold = read(kb.root / "entries/cuda/fresh.yaml");
  CHECK(has(scaffold,
            "# signature_zh: ''                 # the signature in Chinese\n"
            "# signature_ja: ''                 # the signature in Japanese\n"));
  CHECK(has(scaffold, "# dead_ends_ja:                    # each dead end's action in Japanese"));
  fs::remove(kb.root / "entries/cuda/fresh.yaml");

  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const fs::path record = kb.root / "dist/api" / (std::string(kId) + ".json");
  REQUIRE(kbc("import --force " + record.string() + " " + kb.arg()).status == 0);
  const std::string imported = read(kb.root / kLanguagesEntry);
  CHECK(has(imported, "signature_ja: "));
  CHECK_FALSE(has(imported, "root_cause_ja"));  // null: the build puts it back
  const std::string before = read(record);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(read(record) == before);

  const Run stats = kbc("stats --format json --today 2025-01-01 " + kb.arg(), false);
  const auto translations = nlohmann::ordered_json::parse(stats.output)["translations"];
  CHECK(keys_of(translations) == std::vector<std::string>{"zh", "ja"});
  CHECK(translations["ja"]["fields"]["signature_ja"]["translated"] == 1);
  CHECK(translations["ja"]["fields"]["root_cause_ja"]["translated"] == 0);
}
