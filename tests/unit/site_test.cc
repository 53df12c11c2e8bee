// The site: search tokenizer and index, page model, Markdown rendering, link checking.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "mustache_at.h"
#include "search/search_index.h"
#include "site/link_check.h"
#include "site/markdown_html.h"
#include "site/site_builder.h"
#include "site/site_model.h"

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

ordered_json record(const std::string& id, ordered_json extra = ordered_json::object()) {
  ordered_json r = {{"id", id},
                    {"signature", "Error in " + id},
                    {"signature_zh", nullptr},
                    {"domain", id.substr(0, id.find('/'))},
                    {"category", "runtime_error"},
                    {"root_cause", "Because of " + id + "."},
                    {"root_cause_zh", nullptr},
                    {"workarounds", ordered_json::array()},
                    {"dead_ends", ordered_json::array()},
                    {"transition_graph",
                     {{"leads_to", ordered_json::array()},
                      {"preceded_by", ordered_json::array()},
                      {"frequently_confused_with", ordered_json::array()}}},
                    {"last_updated", "2024-01-01"}};
  for (auto& [key, value] : extra.items()) r[key] = value;
  return r;
}

const json kStrings = {{"preceded_by", "Preceded by"},
                       {"leads_to", "Leads to"},
                       {"confused_with", "Often confused with"},
                       {"likelihood", "Likelihood"},
                       {"condition", "When"},
                       {"typical_delay", "Typical delay"},
                       {"colon", ":"}};

using kbc_test::at;

std::vector<std::string> link_ids(const kbc::MustacheData& page, const std::string& label) {
  std::vector<std::string> hrefs;
  for (const auto& group : page.get("related")->list_value()) {
    if (group.get("label")->string_value() != label) continue;
    for (const auto& link : group.get("links")->list_value())
      hrefs.push_back(link.get("href") ? link.get("href")->string_value() : "(none)");
  }
  return hrefs;
}

}  // namespace

TEST_CASE("the search tokenizer follows the shared cases that search.js is held to") {
  std::ifstream in(std::string(KBC_TEST_DATA) + "/browser/tokenizer-cases.json");
  REQUIRE(in);
  const json cases = json::parse(in);
  REQUIRE(cases.size() >= 12);
  for (const auto& c : cases) {
    INFO(c["text"].get<std::string>());
    CHECK(kbc::search_tokens(c["text"].get<std::string>()) ==
          c["tokens"].get<std::vector<std::string>>());
  }
  CHECK(kbc::search_tokens("\xff\xfe") == std::vector<std::string>{});  // invalid UTF-8 separates
}

namespace {

// The files of a search index, parsed, by path.
std::map<std::string, json> index_files(kbc::SearchIndex& index, const char* language) {
  std::map<std::string, json> files;
  index.each_file(language, [&files](const std::string& path, const std::string& text) {
    CHECK(files.count(path) == 0);  // each file once
    files[path] = json::parse(text);
  });
  return files;
}

}  // namespace

TEST_CASE("the search index keeps each token's best weight, with phrases, in sorted shards") {
  kbc::SearchIndex index;
  index.add({{"alpha beta", 8, true}, {"beta", 1}, {"", 2}});
  index.add({{"", 8, true}, {"批量归一 gamma delta", 1}, {"alpha", 2}});
  const auto files = index_files(index, "zh");
  REQUIRE(files.size() == 2);  // meta, one shard
  const json& meta = files.at("search/meta.json");
  CHECK(meta["lang"] == "zh");
  CHECK(meta["docs"] == 2);
  CHECK(meta["shards"] == json::array({"alpha"}));
  const json& terms = files.at("search/t0.json");
  // df, then doc and weight: 10 x the field's weight, more for a short field, less for a long
  // one (BM25F with the field's average length); the best field counts.
  const json& alpha = terms["alpha"];
  REQUIRE(alpha.size() == 5);
  CHECK(alpha[0] == 2);
  CHECK(alpha[1] == 0);
  CHECK(alpha[3] == 1);
  CHECK(alpha[2] > 40);  // weight 8, a field twice the average length: less than 80
  CHECK(alpha[2] < 80);
  CHECK(alpha[4] == 20);  // weight 2, a field of average length
  CHECK(terms["beta"][2] == alpha[2]);
  CHECK(terms["alpha beta"][0] == 1);          // a phrase of a phrase field
  CHECK_FALSE(terms.contains("gamma delta"));  // not a phrase field
  CHECK(terms["量归"][0] == 1);
  CHECK(terms["量归"][1] == 1);
  // Byte order, which search.js bisects.
  std::vector<std::string> keys;
  for (const auto& [key, value] : terms.items()) keys.push_back(key);
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  CHECK(json::parse(kbc::SearchIndex::document_chunk(
            {{"entries/a/x.html", "Alpha beta", "", "a/x", "cuda", ""},
             {"entries/a/y.html", "批量", "CODE", "a/y", "cuda", "Why \"so\"."}})) ==
        json::array(
            {json::array({"entries/a/x.html", "Alpha beta", "", "a/x", "cuda", ""}),
             json::array({"entries/a/y.html", "批量", "CODE", "a/y", "cuda", "Why \"so\"."})}));
}

TEST_CASE(
    "a large index is split in shards and chunks, and common terms keep their best postings") {
  kbc::SearchIndex index;
  std::vector<std::string> words;
  for (int i = 0; i < 3000; ++i) words.push_back("word" + std::to_string(i) + " common");
  words[2999] = "common";  // shorter than the others: the best weight
  for (int i = 0; i < 3000; ++i) index.add({{words[i], 1}, {i % 2 ? "odd" : "", 1}});
  const auto files = index_files(index, "en");
  const json& meta = files.at("search/meta.json");
  const std::size_t shards = meta["shards"].size();
  CHECK(shards > 1);
  CHECK(files.size() == shards + 1);
  std::size_t terms = 0;
  for (std::size_t k = 0; k < shards; ++k) {
    const json& shard = files.at("search/t" + std::to_string(k) + ".json");
    CHECK(shard.begin().key() == meta["shards"][k]);  // each shard starts at its first term
    CHECK(shard.dump().size() < 2 * kbc::SearchIndex::kShardBytes);
    terms += shard.size();
    if (shard.contains("common")) {
      const json& common = shard["common"];
      CHECK(common[0] == 3000);  // every document has it
      CHECK(common.size() == 1 + 2 * kbc::SearchIndex::kMaxPostings);
      CHECK(common[common.size() - 2] == 2999);  // the best weight is kept
    }
  }
  CHECK(terms == 2999 + 2);  // word<i>, common, odd
}

namespace {

// A document of the update tests: its key and its fields' texts.
struct IndexedDocument {
  std::string key;
  std::vector<std::string> texts;
};

std::vector<kbc::SearchIndex::Field> fields_of(const IndexedDocument& document) {
  std::vector<kbc::SearchIndex::Field> fields;
  for (std::size_t f = 0; f < document.texts.size(); ++f)
    fields.push_back({document.texts[f], static_cast<int>(f) + 1, f == 0});
  return fields;
}

// The files of `index`, which ends adding; its stored form in `stored`.
std::map<std::string, std::string> finished_files(kbc::SearchIndex& index, std::string* stored) {
  std::map<std::string, std::string> files;
  index.each_file("en", [&files](std::string path, std::string text) { files[path] = text; });
  if (stored) {
    std::ostringstream out;
    REQUIRE(index.store(out, "salt"));
    *stored = out.str();
  }
  return files;
}

// The index of `documents` made anew, and its files; its stored form in `stored`.
std::map<std::string, std::string> made_index(const std::vector<IndexedDocument>& documents,
                                              std::string* stored = nullptr) {
  kbc::SearchIndex index;
  for (const IndexedDocument& document : documents) index.add(fields_of(document), document.key);
  return finished_files(index, stored);
}

// The same, updated from `last` (a stored index): the documents it held are reused, and
// counted in `reused`; the stored form of the result in `stored`.
std::map<std::string, std::string> updated_index(const std::vector<IndexedDocument>& documents,
                                                 const std::string& last, std::size_t& reused,
                                                 std::string* stored = nullptr) {
  kbc::SearchIndex index;
  REQUIRE(index.use_last(last, "salt"));
  reused = 0;
  for (const IndexedDocument& document : documents) {
    if (index.reuse(document.key))
      ++reused;
    else
      index.add(fields_of(document), document.key);
  }
  return finished_files(index, stored);
}

}  // namespace

TEST_CASE("a search index updated from the last one is the index made anew") {
  std::mt19937 random(31);
  const auto pick = [&random](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  const std::vector<std::string> words = {"cuda", "out",   "of", "memory", "批量",   "归一化",
                                          "bad",  "param", "x1", "rocm",   "driver", "错误"};
  int made = 0;
  const auto document = [&] {
    IndexedDocument d{"k" + std::to_string(made++), {}};
    for (int f = 0; f < 3; ++f) {
      std::string text;
      for (std::size_t n = pick(6); n > 0; --n) text += words[pick(words.size())] + " ";
      if (pick(4) == 0) text += "w" + std::to_string(made) + " ";  // a term of its own
      d.texts.push_back(text);
    }
    return d;
  };
  std::vector<IndexedDocument> documents;
  for (int i = 0; i < 200; ++i) documents.push_back(document());
  std::string stored;
  made_index(documents, &stored);
  for (int round = 0; round < 30; ++round) {
    // Edits as a knowledge base has them: entries changed, removed, added anywhere, moved.
    std::vector<IndexedDocument> next = documents;
    for (std::size_t n = pick(4); n > 0; --n) next[pick(next.size())] = document();
    for (std::size_t n = pick(3); n > 0; --n) next.erase(next.begin() + pick(next.size()));
    for (std::size_t n = pick(3); n > 0; --n)
      next.insert(next.begin() + pick(next.size() + 1), document());
    // Two documents swapped: those between them are made again (a knowledge base's are in id
    // order, so a moved entry is one removed and one added).
    const bool swapped = round % 5 == 4;
    if (swapped) std::swap(next[pick(next.size())], next[pick(next.size())]);
    std::size_t reused = 0;
    std::string next_stored;
    const auto updated = updated_index(next, stored, reused, &next_stored);
    CHECK(updated == made_index(next));
    if (!swapped) CHECK(reused + 6 >= next.size());  // 3 changed and 2 added, at most
    stored = std::move(next_stored);                 // the next round updates this one
    documents = std::move(next);
  }
  // Every document of another index: none is reused, and the index is still right.
  std::vector<IndexedDocument> others;
  for (int i = 0; i < 50; ++i) others.push_back(document());
  std::size_t reused = 1;
  CHECK(updated_index(others, stored, reused) == made_index(others));
  CHECK(reused == 0);
  // One document, whose key is short enough to live inside its string.
  const std::vector<IndexedDocument> one = {{"k", {"alpha", "beta", "gamma"}}};
  made_index(one, &stored);
  CHECK(updated_index(one, stored, reused) == made_index(one));
  CHECK(reused == 1);
}

TEST_CASE("a damaged or foreign stored search index is not used") {
  std::vector<IndexedDocument> documents;
  for (int i = 0; i < 40; ++i) {
    documents.push_back(
        {"k" + std::to_string(i), {"alpha w" + std::to_string(i), "beta 批量", "gamma"}});
  }
  std::string stored;
  made_index(documents, &stored);
  kbc::SearchIndex index;
  CHECK_FALSE(index.use_last(stored, "another salt"));
  CHECK_FALSE(index.use_last("", "salt"));
  CHECK_FALSE(index.use_last("kbc search index 1\n", "salt"));
  // Cut anywhere: never taken.
  for (std::size_t size = 0; size < stored.size(); size += 7)
    CHECK_FALSE(kbc::SearchIndex().use_last(std::string_view(stored).substr(0, size), "salt"));
  CHECK_FALSE(kbc::SearchIndex().use_last(stored + "x", "salt"));
  // Any byte changed: never taken (the digest at its end).
  for (std::size_t at = 0; at < stored.size(); ++at) {
    std::string damaged = stored;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5A);
    CHECK_FALSE(kbc::SearchIndex().use_last(damaged, "salt"));
  }
  CHECK(kbc::SearchIndex().use_last(stored, "salt"));
  // A document added without a key: nothing to store.
  kbc::SearchIndex keyless;
  keyless.add({{"alpha", 1}});
  keyless.each_file("en", [](std::string, std::string) {});
  std::ostringstream out;
  CHECK_FALSE(keyless.store(out, "salt"));
}

kbc::SiteConfig config_with(std::string title, std::string base_url) {
  kbc::SiteConfig config;
  config.title = std::move(title);
  config.base_url = std::move(base_url);
  return config;
}

TEST_CASE("relative paths climb back to the site root") {
  CHECK(kbc::up_from("index.html") == "");
  CHECK(kbc::up_from("en/index.html") == "../");
  CHECK(kbc::up_from(kbc::site_entry_path("zh", "cuda/x/v2")) == "../../../../");
  CHECK(kbc::site_domain_path("en", "cuda") == "en/domains/cuda.html");
}

TEST_CASE("a domain page's key follows the records it lists, and only them") {
  std::vector<ordered_json> records;
  for (int i = 0; i < 150; ++i) {  // two pages of cuda entries (100 a page), in id order
    const std::string number = std::to_string(i);
    records.push_back(record("cuda/e" + std::string(3 - number.size(), '0') + number));
  }
  records.push_back(record("pytorch/p"));
  std::vector<const ordered_json*> pointers;
  for (const ordered_json& r : records) pointers.push_back(&r);
  const kbc::Language& en = kbc::default_languages()[0];
  const kbc::Language& zh = kbc::default_languages()[1];
  std::vector<std::string> digests;
  for (std::size_t i = 0; i < records.size(); ++i) digests.push_back("digest " + std::to_string(i));
  const auto keys = [&] {
    kbc::SiteModel model(pointers, {});
    model.set_digests("site", digests);
    return std::vector<std::string>{
        model.domain_page_key("cuda", en, 1), model.domain_page_key("cuda", en, 2),
        model.domain_page_key("pytorch", en, 1), model.domain_page_key("cuda", zh, 1)};
  };
  const std::vector<std::string> before = keys();
  CHECK(std::set<std::string>(before.begin(), before.end()).size() == 4);
  digests.back() = "pytorch/p changed";  // another domain: only its page
  const std::vector<std::string> other = keys();
  CHECK(other[0] == before[0]);
  CHECK(other[1] == before[1]);
  CHECK(other[2] != before[2]);
  digests[120] = "cuda/e120 changed";  // on cuda's second page
  const std::vector<std::string> second = keys();
  CHECK(second[0] == before[0]);
  CHECK(second[1] != before[1]);
  CHECK(second[3] == before[3]);
  CHECK(kbc::SiteModel(pointers, {}).domain_page_key("cuda", en, 1).empty());
}

TEST_CASE("related errors are shown in both directions, links to left-out entries as text") {
  const ordered_json a =
      record("cuda/a", {{"transition_graph",
                         {{"leads_to",
                           {{{"error_id", "cuda/b"},
                             {"probability", 0.3},
                             {"condition", "under load"},
                             {"typical_delay", "minutes"}}}},
                          {"preceded_by", ordered_json::array()},
                          {"frequently_confused_with",
                           {{{"error_id", "cuda/gone"}, {"distinction", "that one is gone"}}}}}}});
  const ordered_json b = record("cuda/b");
  const kbc::SiteModel model({&a, &b}, {});
  const kbc::Language& en = kbc::default_languages()[0];

  const kbc::MustacheData page_b = model.entry_page(1, en, kStrings);
  CHECK(link_ids(page_b, "Preceded by") ==
        std::vector<std::string>{"../../../en/entries/cuda/a.html"});
  CHECK(at(page_b, "related.0.links.0.detail") ==
        "Likelihood: 30% · When: under load · Typical delay: minutes");

  const kbc::MustacheData page_a = model.entry_page(0, en, kStrings);
  CHECK(link_ids(page_a, "Leads to") ==
        std::vector<std::string>{"../../../en/entries/cuda/b.html"});
  CHECK(link_ids(page_a, "Often confused with") == std::vector<std::string>{"(none)"});
  CHECK(at(page_a, "related.1.links.0.title") == "cuda/gone");  // left out: its id, no link
  CHECK(at(page_a, "has_related") == "true");
  CHECK(at(model.entry_page(1, en, kStrings), "has_related") == "true");
}

TEST_CASE("the Chinese page falls back to English, marked as not yet translated") {
  const ordered_json translated =
      record("cuda/a", {{"signature_zh", "错误"},
                        {"root_cause_zh", "原因。"},
                        {"workarounds", {{{"action", "Do it"}, {"success_rate", 0.5}}}},
                        {"workarounds_zh", {"做"}}});
  const ordered_json untranslated =
      record("cuda/b", {{"workarounds", {{{"action", "Do it"}, {"success_rate", 0.5}}}}});
  const kbc::SiteModel model({&translated, &untranslated}, {});
  const kbc::Language &en = kbc::default_languages()[0], &zh = kbc::default_languages()[1];

  const kbc::MustacheData done = model.entry_page(0, zh, kStrings);
  CHECK(at(done, "title.text") == "错误");
  CHECK(at(done, "title.untranslated") == "false");
  CHECK(at(done, "root_cause.untranslated") == "false");
  CHECK(at(done, "root_cause.html") == "<p>原因。</p>\n");
  CHECK(at(done, "workarounds.0.action.html") == "做");
  CHECK(at(done, "workarounds.0.number") == "1");
  CHECK(at(done, "workarounds.0.success") == "50%");
  CHECK(at(done, "workarounds.0.how") == "(absent)");
  CHECK(at(done, "workarounds.0.sources") == "(list of 0)");
  CHECK(at(done, "html_lang") == "zh-CN");
  CHECK(at(done, "switch.0.href") == "../../../en/entries/cuda/a.html");

  const kbc::MustacheData missing = model.entry_page(1, zh, kStrings);
  CHECK(at(missing, "title.text") == "Error in cuda/b");
  CHECK(at(missing, "title.untranslated") == "true");
  CHECK(at(missing, "root_cause.untranslated") == "true");
  CHECK(at(missing, "workarounds.0.action.untranslated") == "true");
  // English pages are never "untranslated".
  CHECK(at(model.entry_page(1, en, kStrings), "root_cause.untranslated") == "false");
}

TEST_CASE("a page in each language: its own texts, the base language's marked, every other one") {
  const std::vector<kbc::Language> languages = kbc::languages_from(
      json::parse(R"([{"code": "ja", "name": "日本語"}, {"code": "en"}, {"code": "de"}])"),
      [](const std::string&) { return std::nullopt; });
  const ordered_json a =
      record("cuda/a", {{"signature_en", "Error A"}, {"root_cause_de", "Weil."}});
  const kbc::SiteModel model({&a}, {}, languages);
  const kbc::MustacheData de = model.entry_page(0, languages[2], kStrings);
  CHECK(at(de, "html_lang") == "de");
  CHECK(at(de, "base_lang") == "ja");
  CHECK(at(de, "title.text") == "Error in cuda/a");
  CHECK(at(de, "title.untranslated") == "true");
  CHECK(at(de, "root_cause.html") == "<p>Weil.</p>\n");
  CHECK(at(de, "switch") == "(list of 2)");
  CHECK(at(de, "switch.0.href") == "../../../ja/entries/cuda/a.html");
  CHECK(at(de, "switch.0.hreflang") == "ja");
  CHECK(at(de, "switch.0.label") == "日本語");
  CHECK(at(de, "switch.1.href") == "../../../en/entries/cuda/a.html");
  CHECK(at(de, "switch.1.hreflang") == "en");
  CHECK(at(de, "switch.1.label") == "English");
  CHECK(at(de, "alternates") == "(list of 4)");
  CHECK(at(de, "alternates.3.hreflang") == "x-default");
  CHECK(at(de, "alternates.3.href") == "../../../ja/entries/cuda/a.html");
  CHECK(at(model.entry_page(0, languages[1], kStrings), "title.text") == "Error A");
  CHECK(at(model.entry_page(0, languages[0], kStrings), "title.untranslated") == "false");
}

TEST_CASE("absolute URLs appear only with a base_url") {
  const ordered_json a = record("cuda/a");
  const kbc::Language& en = kbc::default_languages()[0];
  const kbc::MustacheData without = kbc::SiteModel({&a}, {}).entry_page(0, en, kStrings);
  CHECK(at(without, "canonical") == "(absent)");
  CHECK(json::parse(at(without, "json_ld")).contains("url") == false);
  const kbc::MustacheData with = kbc::SiteModel({&a}, config_with("KB", "https://kb.example/docs/"))
                                     .entry_page(0, en, kStrings);
  CHECK(at(with, "canonical") == "https://kb.example/docs/en/entries/cuda/a.html");
  // hreflang links are absolute, and only to the languages the entry is written in.
  CHECK(at(with, "alternates.0.href") == "https://kb.example/docs/en/entries/cuda/a.html");
  CHECK(at(with, "alternates.1.hreflang") == "x-default");
  CHECK(at(with, "alternates.1.href") == "https://kb.example/docs/en/entries/cuda/a.html");
  CHECK(at(with, "alternates.2.href") == "(absent)");
  CHECK(at(with, "noindex") == "(absent)");
  const json json_ld = json::parse(at(with, "json_ld"));
  CHECK(json_ld["inLanguage"] == "en");
  CHECK(json_ld["url"] == "https://kb.example/docs/en/entries/cuda/a.html");
  // Its Chinese page, with no Chinese text: noindex, canonical to the English page, in English.
  const kbc::Language& zh = kbc::default_languages()[1];
  const kbc::MustacheData zh_page =
      kbc::SiteModel({&a}, config_with("KB", "https://kb.example/docs/"))
          .entry_page(0, zh, kStrings);
  CHECK(at(zh_page, "noindex") == "true");
  CHECK(at(zh_page, "untranslated_page") == "true");
  CHECK(at(zh_page, "mark_fields") == "false");
  CHECK(at(zh_page, "canonical") == "https://kb.example/docs/en/entries/cuda/a.html");
  CHECK(json::parse(at(zh_page, "json_ld"))["inLanguage"] == "en");
}

TEST_CASE("JSON-LD cannot close its script element") {
  const ordered_json a = record("cuda/a", {{"signature", "</script><script>alert(1)"}});
  const kbc::MustacheData page =
      kbc::SiteModel({&a}, {}).entry_page(0, kbc::default_languages()[0], kStrings);
  const std::string json_ld = at(page, "json_ld");
  CHECK(json_ld.find('<') == std::string::npos);
  CHECK(json::parse(json_ld)["headline"] == "</script><script>alert(1)");
}

TEST_CASE("Markdown renders with raw HTML and unsafe links left out") {
  CHECK(kbc::markdown_html("Use **eps** >= 1e-5") ==
        "<p>Use <strong>eps</strong> &gt;= 1e-5</p>\n");
  CHECK(kbc::markdown_html("<script>alert(1)</script>") ==
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
  CHECK(kbc::markdown_inline_html("a <b onclick=x>b</b>") == "a &lt;b onclick=x&gt;b&lt;/b&gt;");
  CHECK(kbc::markdown_inline_html("[x](javascript:alert(1))").find("javascript") ==
        std::string::npos);
  CHECK(kbc::markdown_inline_html("`x` and ~~y~~") == "<code>x</code> and <del>y</del>");
  CHECK(kbc::markdown_html("| a |\n|---|\n| 1 |").find("<table>") != std::string::npos);
  CHECK(kbc::escape_html("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST_CASE("the link checker reports links to files the site does not have") {
  kbc::OutputTree tree;
  tree.add("site/en/index.html",
           "<a href=\"entries/a.html\">ok</a>\n<a href=\"https://x.org/\">external</a>"
           "<a href=\"#top\">fragment</a> <a href=\"entries/a.html#s\">with fragment</a>\n"
           "<a href=\"entries/missing.html\">broken</a> <img src=\"../../outside.png\">"
           "<a href=\"../\">root folder</a>");
  tree.add("site/en/entries/a.html", "<a href=\"../index.html?q=x\">back</a>");
  tree.add("site/index.html", "");
  tree.add("outside.png", "");
  const kbc::Diagnostics problems = kbc::check_site_links(tree);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].path == "site/en/index.html");
  CHECK(problems[0].at.line == 3);
  CHECK(problems[0].at.column == 10);
  CHECK(problems[0].message == "broken link to 'entries/missing.html'");
  CHECK(problems[0].rule == "site-link");
  CHECK(problems[1].message == "broken link to '../../outside.png'");
}

TEST_CASE("the link checker reads pages as they are added, and keeps only links ahead of them") {
  kbc::OutputTree tree;
  kbc::LinkCheck links(tree);
  tree.observe(
      [&links](const std::string& path, std::string_view content) { links.read(path, content); });
  tree.add("site/en/index.html", "");
  tree.add("site/en/entries/b.html",
           "<a href=\"../index.html\">there</a> <a href=\"c.html\">ahead</a>\n"
           "<a href=\"gone.html\">never</a>");
  CHECK(links.kept() == 2);  // c.html and gone.html: index.html is there already
  tree.add("site/en/entries/c.html", "<a href=\"b.html\">back</a> <a href=\"gone.html\">x</a>");
  tree.add("site/en/entries/a.html", "<a href=\"gone.html#top\">first by path</a>");
  CHECK(links.kept() == 2);
  const kbc::Diagnostics problems = links.problems();
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == "site/en/entries/a.html");
  CHECK(problems[0].at.column == 10);
  CHECK(problems[0].message ==
        "broken link to 'gone.html#top' (and 2 more link(s) to the same file)");
}

TEST_CASE("the link checker resolves dot segments and folders as a browser does") {
  kbc::OutputTree tree;
  tree.add("site/en/entries/a.html",
           "<a href=\"./b.html\">b</a> <a href=\"../entries/./b.html\">b again</a> "
           "<a href=\"../\">language home</a> <a href=\".\">its folder</a> "
           "<a href=\"../../../en/index.html\">above the root</a> "
           "<a href=\"../../en/index.html\">site root and back</a> "
           "<a href=\"..//entries//b.html\">doubled slashes</a> "
           "<a href=\"../../../site/en/index.html\">the tree's root and back</a> "
           "<a href=\"b.html/../b.html\">a file's dot-dot</a>");
  tree.add("site/en/entries/b.html", "");
  tree.add("site/en/index.html", "");
  const kbc::Diagnostics problems = kbc::check_site_links(tree);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].message == "broken link to '.'");  // site/en/entries/ has no index.html
  CHECK(problems[1].message == "broken link to '../../../en/index.html'");
}

TEST_CASE("the not-found page gets a <base> only when the site has a base_url") {
  const ordered_json a = record("cuda/a");
  const kbc::Language& zh = kbc::default_languages()[1];
  CHECK_FALSE(kbc::SiteModel({&a}, {}).plain_page("404", zh, kStrings).contains("base_href"));
  const kbc::SiteModel model({&a}, config_with("KB", "https://kb.example/"));
  CHECK(model.plain_page("404", zh, kStrings)["base_href"] == "https://kb.example/zh/");
  CHECK_FALSE(model.plain_page("search", zh, kStrings).contains("base_href"));
}

TEST_CASE("Markdown renders the same on several threads at once") {
  const std::string text =
      "~strike~ and ~~more~~ | a | b |\n|---|---|\n| 1 | 2 |\n\nwww.example.org";
  const std::string expected = kbc::markdown_html(text);
  CHECK(expected.find("<del>strike</del>") != std::string::npos);
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        const std::string html = kbc::markdown_html(text);
        if (html != expected) results[t] = html;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const std::string& result : results) CHECK(result.empty());
}

TEST_CASE("Markdown's shortcut for plain text gives exactly what cmark gives") {
  // Every string over an alphabet of plain and meaningful characters, up to length 3, then
  // longer random ones: whenever markdown_html takes its shortcut it must agree with cmark.
  const std::string alphabet = "a Z0.:-'\"()!#=$%^{}\\`*_[]<>&~|@+w/\xe4\xb8\xad";
  std::vector<std::string> texts = {"",
                                    "a",
                                    "Set eps=1e-5 (not 1e-6).",
                                    "It's \"quoted\"",
                                    "see https://x.org",
                                    "www.example.org",
                                    "1. first",
                                    "# heading",
                                    "- item",
                                    "a  b",
                                    "  lead",
                                    "trail  "};
  for (char a : alphabet)
    for (char b : alphabet)
      for (char c : alphabet) texts.push_back({a, b, c});
  std::uint32_t seed = 12345;
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    for (int k = 0; k < 12; ++k) {
      seed = seed * 1664525 + 1013904223;
      text += alphabet[(seed >> 16) % alphabet.size()];
    }
    texts.push_back(text);
  }
  for (const std::string& text : texts) {
    INFO(text);
    CHECK(kbc::markdown_html(text) == kbc::markdown_html_with_cmark(text));
  }
}

TEST_CASE("Markdown code blocks and tables can be scrolled by keyboard") {
  CHECK(kbc::markdown_html("```\nx = 1\n```") ==
        "<pre tabindex=\"0\"><code>x = 1\n</code></pre>\n");
  const std::string table = kbc::markdown_html("| a | b |\n|---|---|\n| 1 | 2 |");
  CHECK(table.starts_with("<div class=\"table-wrap\" tabindex=\"0\"><table>"));
  CHECK(table.find("</table></div>") != std::string::npos);
  // Raw HTML is text, so a <pre> written in an entry gets nothing.
  CHECK(kbc::markdown_html("a <pre> b").find("tabindex") == std::string::npos);
}
