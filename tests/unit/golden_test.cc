// Golden tests: the YAML of seed 001 (with its dead-end actions written out) builds into
// exactly the published record and page, whose expected files are in tests/golden/; and a
// frozen copy of the shipped knowledge base (tests/golden/site/) builds into exactly the pages,
// feeds and sitemap under tests/golden/site/expected/, reviewed like code. After a deliberate
// change of the site, `KBC_UPDATE_GOLDEN=1 build/tests/kbc_tests "the site of*"` writes them
// again, and the diff is the change's review.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/file_system.h"
#include "base/output_stage.h"
#include "import/importer.h"
#include "load/yaml_loader.h"
#include "model/entry.h"
#include "pipeline.h"
#include "render/record.h"
#include "temp_dir.h"

namespace {

const std::string kRoot = std::string(KBC_TEST_DATA) + "/golden/seed001";

kbc::BuiltOutput build_golden() {
  const kbc::RealFileSystem fs;
  const auto checked = kbc::check_knowledge_base(fs, kRoot);
  CHECK(kbc::count_severity(checked.diagnostics, kbc::Severity::kError) == 0);
  return kbc::emit_outputs(checked.kb, {}, kbc::TemplateSet(fs, kRoot), checked.config);
}

}  // namespace

TEST_CASE("seed 001 builds into the published record and page") {
  const kbc::RealFileSystem fs;
  const auto built = build_golden();
  for (const char* path :
       {"api/cuda/cudnn-bn-epsilon-too-small.json", "md/en/cuda/cudnn-bn-epsilon-too-small.md"}) {
    INFO(path);
    REQUIRE(built.tree.files().count(path));
    CHECK(built.tree.files().at(path) == fs.read(kRoot + "/expected/" + path));
  }
  CHECK(built.tree.files().count("md/zh/cuda/cudnn-bn-epsilon-too-small.md"));
  CHECK(built.tree.files().count("kb.json"));
}

TEST_CASE("the Chinese page uses the _zh texts and falls back to English") {
  const auto built = build_golden();
  const std::string& page = built.tree.files().at("md/zh/cuda/cudnn-bn-epsilon-too-small.md");
  CHECK(page.starts_with("# 运行时错误：cuDNN 错误"));
  CHECK(page.find("## 根本原因") != std::string::npos);
  CHECK(page.find("1. **将 epsilon 设置为 >= 1e-5 的值") != std::string::npos);
  // No dead_ends_zh in this entry: the English action is shown.
  CHECK(page.find("- **Ignore the error and let training continue** —") != std::string::npos);
}

TEST_CASE("building twice gives byte-identical output") {
  CHECK(build_golden().tree.files() == build_golden().tree.files());
}

TEST_CASE("import then build gives back the same record") {
  const kbc::RealFileSystem fs;
  const std::string expected =
      fs.read(kRoot + "/expected/api/cuda/cudnn-bn-epsilon-too-small.json");
  const std::string yaml = kbc::record_to_yaml(nlohmann::ordered_json::parse(expected));
  kbc::Diagnostics out;
  auto document = kbc::load_yaml("entries/cuda/cudnn-bn-epsilon-too-small.yaml", yaml, out);
  REQUIRE(document);
  CHECK(out.empty());
  kbc::Entry entry{"entries/cuda/cudnn-bn-epsilon-too-small.yaml",
                   "cuda/cudnn-bn-epsilon-too-small", document->value, document->sources, true};
  CHECK(kbc::record_text(kbc::published_record(entry)) == expected);
  // Defaults are left out of the YAML: they come back from the build.
  CHECK(yaml.find("subcategory") == std::string::npos);
  CHECK(yaml.find("resolvable: 'true'") != std::string::npos);
  CHECK(yaml.find("first_seen: '2023-11-05'") != std::string::npos);
}

TEST_CASE("import keeps every multi-line text exactly, its final line breaks included") {
  nlohmann::ordered_json record = {{"id", "cuda/texts"}};
  const std::vector<std::string> texts = {
      "two\nlines",      "ends\nwith one\n",  "ends\nwith two\n\n", "  leading\nspace",
      "\nleading break", "a: |\n- |\n  b: |", "blank\n\n\ninside",  "tab\tand\ntrailing  \n",
      "中文\n第二行",    "one line"};
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < texts.size(); ++i) {
    record["text_" + std::to_string(i)] = texts[i];
    list.push_back({{"action", texts[i]}, {"how", texts[i]}});
  }
  record["workarounds"] = list;
  record["samples"] = texts;  // items that are blocks themselves: "- |"
  const std::string yaml = kbc::record_to_yaml(record);
  INFO(yaml);
  kbc::Diagnostics out;
  const auto document = kbc::load_yaml("t.yaml", yaml, out);
  REQUIRE(document);
  CHECK(out.empty());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    CHECK(document->value["text_" + std::to_string(i)] == texts[i]);
    CHECK(document->value["workarounds"][i]["action"] == texts[i]);
    CHECK(document->value["workarounds"][i]["how"] == texts[i]);
    CHECK(document->value["samples"][i] == texts[i]);
  }
  CHECK(yaml.find("text_0: |-\n  two\n  lines\n") != std::string::npos);
  CHECK(yaml.find("text_1: |\n  ends\n  with one\n") != std::string::npos);
}

TEST_CASE("kb.json is the dump of the array of records, made from their texts") {
  const std::vector<nlohmann::ordered_json> records = {
      nlohmann::ordered_json::parse(R"({"id": "a/b", "list": [1, {"x": "line\nbreak"}], "e": {}})"),
      nlohmann::ordered_json::parse(R"({"id": "c/d", "empty": [], "text": "  spaced  "})")};
  for (std::size_t count = 0; count <= records.size(); ++count) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < count; ++i) {
      array.push_back(records[i]);
      texts.push_back(kbc::record_text(records[i]));
    }
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    const std::string bundle = kbc::bundle_text(views);
    CHECK(bundle == array.dump(2) + "\n");
    // Made in one allocation of its exact size (a bundle can be hundreds of megabytes).
    if (count > 0) CHECK(bundle.capacity() == bundle.size());
  }
  // A build keeps each record as kb.json holds it, and writes api/<id>.json from that.
  for (const nlohmann::ordered_json& record : records) {
    const std::string text = kbc::record_text(record);
    const std::string indented = kbc::indented_record(text);
    CHECK(indented != text);
    CHECK(nlohmann::ordered_json::parse(indented) == record);
    CHECK(kbc::unindented_record(indented) == text);
  }
  CHECK(kbc::unindented_record(kbc::indented_record("{}\n")) == "{}\n");
}

TEST_CASE(
    "the site of the golden knowledge base is exactly its expected pages, feeds and sitemap") {
  const std::string root = std::string(KBC_TEST_DATA) + "/golden/site";
  const kbc::RealFileSystem fs;
  const auto checked = kbc::check_knowledge_base(fs, root);
  REQUIRE(kbc::count_severity(checked.diagnostics, kbc::Severity::kError) == 0);
  const auto built = kbc::emit_outputs(checked.kb, {}, kbc::TemplateSet(fs, root), checked.config);
  REQUIRE(built.problems.empty());
  const bool update = std::getenv("KBC_UPDATE_GOLDEN") != nullptr;
  for (const char* path :
       {"site/index.html", "site/404.html", "site/llms.txt", "site/robots.txt", "site/sitemap.xml",
        "site/en/index.html", "site/en/search.html", "site/en/404.html", "site/en/feed.xml",
        "site/en/domains/cuda.html", "site/en/entries/cuda/cudnn-bn-epsilon-too-small.html",
        "site/en/entries/pytorch/cuda-out-of-memory.html", "site/zh/index.html", "site/zh/feed.xml",
        "site/zh/entries/cuda/cudnn-bn-epsilon-too-small.html"}) {
    INFO(path);
    REQUIRE(built.tree.files().count(path));
    const std::string expected = root + "/expected/" + path;
    if (update) {
      std::filesystem::create_directories(std::filesystem::path(expected).parent_path());
      std::ofstream(expected, std::ios::binary) << built.tree.files().at(path);
    }
    CHECK(built.tree.files().at(path) == fs.read(expected));
  }
  // kbc.yaml's logo, published as the site's logo and icon.
  CHECK(built.tree.files().at("site/assets/logo.svg") == fs.read(root + "/logo.svg"));
  CHECK(built.tree.files().count("site/assets/favicon.svg"));  // kbc's own, still there
}

TEST_CASE("the golden site built into an output folder is its expected pages too") {
  // Through an output stage, an entry page reads its record back from a scratch file beside the
  // output, not from memory.
  const std::string root = std::string(KBC_TEST_DATA) + "/golden/site";
  const kbc::RealFileSystem fs;
  const auto checked = kbc::check_knowledge_base(fs, root);
  REQUIRE(kbc::count_severity(checked.diagnostics, kbc::Severity::kError) == 0);
  kbc_test::TempDir dir;
  const std::string out = (dir.root / "dist").string();
  {
    kbc::OutputStage stage(out, false);
    kbc::EmitOptions options;
    options.stage = &stage;
    const auto built =
        kbc::emit_outputs(checked.kb, {}, kbc::TemplateSet(fs, root), checked.config, options);
    REQUIRE(built.problems.empty());
    stage.commit();
  }
  for (const char* path :
       {"site/en/entries/cuda/cudnn-bn-epsilon-too-small.html",
        "site/en/entries/pytorch/cuda-out-of-memory.html",
        "site/zh/entries/cuda/cudnn-bn-epsilon-too-small.html", "site/en/index.html"}) {
    INFO(path);
    CHECK(fs.read(out + "/" + path) == fs.read(root + "/expected/" + path));
  }
  // Nothing but the output is left beside it: the scratch file has no name.
  std::size_t beside = 0;
  for (const auto& item : std::filesystem::directory_iterator(dir.root))
    beside += item.path().filename().string().find("kbc-lock") == std::string::npos ? 1 : 0;
  CHECK(beside == 1);
}
