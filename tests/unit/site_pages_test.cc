// The site's lists at scale: a domain's list cut in pages, the sitemap split past its limit,
// llms.txt bounded, and the links of a site with a paginated domain.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <atomic>
#include <set>

#include "base/file_system.h"
#include "mustache_at.h"
#include "render/templates.h"
#include "site/feeds.h"
#include "site/link_check.h"
#include "site/match_figures.h"
#include "site/record_row.h"
#include "site/site_builder.h"
#include "site/site_model.h"

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// `count` records of domain `domain`, ids <domain>/e000, <domain>/e001, ...; every third of
// category build_error, the others runtime_error.
std::vector<ordered_json> domain_records(const std::string& domain, std::size_t count) {
  std::vector<ordered_json> records;
  for (std::size_t i = 0; i < count; ++i) {
    std::string number = std::to_string(i);
    number.insert(0, 3 - std::min<std::size_t>(3, number.size()), '0');
    const std::string id = domain + "/e" + number;
    records.push_back({{"id", id},
                       {"signature", "Error " + id},
                       {"domain", domain},
                       {"category", i % 3 == 0 ? "build_error" : "runtime_error"},
                       {"root_cause", "Because of " + id + "."},
                       {"last_updated", "2024-01-" + std::string(i % 2 ? "02" : "01")}});
  }
  return records;
}

std::vector<const ordered_json*> pointers(const std::vector<ordered_json>& records) {
  std::vector<const ordered_json*> out;
  for (const auto& r : records) out.push_back(&r);
  return out;
}

kbc::SiteConfig with_base_url() {
  kbc::SiteConfig config;
  config.title = "KB";
  config.base_url = "https://kb.example/";
  return config;
}

const json kPageStrings = {{"entries_count", "{n} entries"}, {"page_of", "Page {k} of {n}"},
                           {"page_number", "Page {n}"},      {"pagination", "Pages"},
                           {"previous_page", "Previous"},    {"next_page", "Next"}};

using kbc_test::at;

std::size_t entry_count(const kbc::MustacheData& page) {
  std::size_t count = 0;
  for (const auto& category : page.get("categories")->list_value())
    count += category.get("entries")->list_value().size();
  return count;
}

// The page numbers of a page's pagination, "…" for a gap, "[k]" for the current page.
std::string numbers(const kbc::MustacheData& page) {
  std::string out;
  for (const auto& item : page.get("pagination")->get("pages")->list_value()) {
    if (!out.empty()) out += " ";
    if (item.get("gap"))
      out += "…";
    else if (item.get("current"))
      out += "[" + item.get("number")->string_value() + "]";
    else
      out += item.get("number")->string_value();
  }
  return out;
}

}  // namespace

TEST_CASE("a domain of 250 entries is listed on 3 pages, the first at the domain's old path") {
  const auto records = domain_records("cuda", 250);
  const kbc::SiteModel model(pointers(records), with_base_url());
  const kbc::Language& en = kbc::default_languages()[0];
  REQUIRE(model.domain_page_count("cuda") == 3);
  CHECK(kbc::site_domain_path("en", "cuda", 1) == "en/domains/cuda.html");
  CHECK(kbc::site_domain_path("en", "cuda", 2) == "en/domains/cuda/page-2.html");

  const kbc::MustacheData first = model.domain_page("cuda", en, kPageStrings, 1);
  CHECK(at(first, "canonical") == "https://kb.example/en/domains/cuda.html");
  CHECK(at(first, "page_title") == "cuda");
  CHECK(at(first, "count") == "250 entries");  // the whole domain's, on every page
  CHECK(entry_count(first) == 100);
  // By category, then id: build_error's 84 entries first, then runtime_error's.
  CHECK(at(first, "categories.0.name") == "build_error");
  CHECK(at(first, "categories.0.entries") == "(list of 84)");
  CHECK(at(first, "categories.1.entries.0.href") == "../../en/entries/cuda/e001.html");
  CHECK(at(first, "pagination.label") == "Pages");
  CHECK(at(first, "pagination.page_of") == "Page 1 of 3");
  CHECK(at(first, "pagination.prev") == "(absent)");
  CHECK(at(first, "pagination.next.href") == "../../en/domains/cuda/page-2.html");
  CHECK(numbers(first) == "[1] 2 3");
  CHECK(at(first, "pagination.pages.0.href") == "../../en/domains/cuda.html");
  CHECK(at(first, "pagination.pages.2.label") == "Page 3");

  const kbc::MustacheData second = model.domain_page("cuda", en, kPageStrings, 2);
  CHECK(at(second, "up") == "../../../");
  CHECK(at(second, "canonical") == "https://kb.example/en/domains/cuda/page-2.html");
  CHECK(at(second, "page_title") == "cuda – Page 2 of 3");
  CHECK(at(second, "alternates.1.href") == "https://kb.example/zh/domains/cuda/page-2.html");
  CHECK(at(second, "switch.0.href") == "../../../zh/domains/cuda/page-2.html");
  CHECK(at(second, "pagination.prev.href") == "../../../en/domains/cuda.html");
  CHECK(at(second, "pagination.next.href") == "../../../en/domains/cuda/page-3.html");
  CHECK(numbers(second) == "1 [2] 3");
  // The 101st entry: the 17th of runtime_error, whose ids skip every third number.
  CHECK(at(second, "categories.0.entries.0.href") == "../../../en/entries/cuda/e025.html");

  const kbc::MustacheData third = model.domain_page("cuda", en, kPageStrings, 3);
  CHECK(entry_count(third) == 50);
  CHECK(at(third, "pagination.next") == "(absent)");
  CHECK(at(third, "categories") == "(list of 1)");
  CHECK(at(third, "categories.0.entries") == "(list of 50)");
  CHECK(at(third, "categories.0.entries.49.href") == "../../../en/entries/cuda/e248.html");
}

TEST_CASE("the title of a later page keeps its number however long the domain's name") {
  const std::string domain(64, 'd');
  const auto records = domain_records(domain, 101);
  const kbc::SiteModel model(pointers(records), with_base_url());
  const kbc::Language& en = kbc::default_languages()[0];
  const std::string title = at(model.domain_page(domain, en, kPageStrings, 2), "page_title");
  CHECK(title.ends_with("… – Page 2 of 2"));
  CHECK(title.size() < domain.size() + 14);
  CHECK(at(model.domain_page(domain, en, kPageStrings, 1), "page_title") ==
        at(model.domain_page(domain, en, kPageStrings), "page_title"));
}

TEST_CASE("a domain of at most 100 entries has one page and no page links") {
  const auto records = domain_records("cuda", 100);
  const kbc::SiteModel model(pointers(records), {});
  CHECK(model.domain_page_count("cuda") == 1);
  const kbc::MustacheData page =
      model.domain_page("cuda", kbc::default_languages()[1], kPageStrings);
  CHECK(entry_count(page) == 100);
  CHECK(at(page, "pagination") == "(absent)");
  CHECK(at(page, "page_title") == "cuda");
}

TEST_CASE("a long list links its first and last pages and those near the current one") {
  const auto records = domain_records("d", 2000);  // 20 pages
  const kbc::SiteModel model(pointers(records), {});
  const kbc::Language& en = kbc::default_languages()[0];
  CHECK(numbers(model.domain_page("d", en, kPageStrings, 1)) == "[1] 2 3 … 20");
  CHECK(numbers(model.domain_page("d", en, kPageStrings, 4)) == "1 2 3 [4] 5 6 … 20");
  CHECK(numbers(model.domain_page("d", en, kPageStrings, 5)) ==
        "1 2 3 4 [5] 6 7 … 20");  // no gap of 1
  CHECK(numbers(model.domain_page("d", en, kPageStrings, 10)) == "1 … 8 9 [10] 11 12 … 20");
  CHECK(numbers(model.domain_page("d", en, kPageStrings, 20)) == "1 … 18 19 [20]");
}

// The sitemap's mustache data as JSON: the keys its templates read, where present (kainjow's
// objects cannot be listed).
json sitemap_json(const kbc::MustacheData& data) {
  if (data.is_string()) return data.string_value();
  if (data.is_list()) {
    json list = json::array();
    for (const kbc::MustacheData& item : data.list_value()) list.push_back(sitemap_json(item));
    return list;
  }
  json object = json::object();
  for (const char* key : {"urls", "sitemaps", "loc", "lastmod", "alternates", "hreflang", "href"})
    if (const kbc::MustacheData* value = data.get(key)) object[key] = sitemap_json(*value);
  return object;
}

TEST_CASE("the sitemap lists every page of every domain") {
  const auto records = domain_records("cuda", 250);
  const kbc::SiteModel model(pointers(records), with_base_url());
  std::set<std::string> locs;
  const json sitemap = sitemap_json(kbc::sitemap_model(model));
  for (const auto& url : sitemap["urls"]) locs.insert(url["loc"].get<std::string>());
  for (const char* language : {"en", "zh"}) {
    for (std::size_t page = 1; page <= 3; ++page)
      CHECK(locs.count("https://kb.example/" + kbc::site_domain_path(language, "cuda", page)));
  }
  CHECK_FALSE(locs.count("https://kb.example/en/domains/cuda/page-4.html"));
}

TEST_CASE("a sitemap past its limit becomes an index of parts within it") {
  const auto records = domain_records("cuda", 3);
  const kbc::SiteModel model(pointers(records), with_base_url());
  // Each language's home, search, domain page and 3 entry pages (the Chinese ones untranslated,
  // so not listed): 6 English and 3 Chinese URLs.
  const json urls = sitemap_json(kbc::sitemap_model(model))["urls"];
  REQUIRE(urls.size() == 9);

  const auto whole = kbc::sitemap_files(model, 9);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].path == "sitemap.xml");
  CHECK(whole[0].template_name == "sitemap.xml");
  CHECK(sitemap_json(whole[0].model)["urls"] == urls);

  const auto split = kbc::sitemap_files(model, 4);
  REQUIRE(split.size() == 4);  // the index and 3 parts: 4, 4 and 1 URLs
  CHECK(split[0].path == "sitemap.xml");
  CHECK(split[0].template_name == "sitemap_index.xml");
  CHECK(sitemap_json(split[0].model)["sitemaps"] ==
        json::array({{{"loc", "https://kb.example/sitemap-1.xml"}},
                     {{"loc", "https://kb.example/sitemap-2.xml"}},
                     {{"loc", "https://kb.example/sitemap-3.xml"}}}));
  json joined = json::array();
  for (std::size_t k = 1; k < split.size(); ++k) {
    CHECK(split[k].path == "sitemap-" + std::to_string(k) + ".xml");
    CHECK(split[k].template_name == "sitemap.xml");
    const json part = sitemap_json(split[k].model)["urls"];
    CHECK(part.size() == (k < 3 ? 4 : 1));
    for (const auto& url : part) joined.push_back(url);
  }
  CHECK(joined == urls);
  CHECK(kbc::sitemap_files(model, 3).size() == 4);  // 3 parts of exactly 3
}

// A sitemap file is put again unread when its key is the output's: the key must change with
// the file, and only with it.
TEST_CASE("a sitemap file's key changes when its URLs do, and only then") {
  auto records = domain_records("cuda", 3);
  const auto keys = [&](const std::string& site) {
    kbc::SiteModel model(pointers(records), with_base_url());
    model.set_digests(site, std::vector<std::string>(records.size(), "d"));
    const kbc::Sitemap sitemap(model, 4);  // the index and 3 parts: 4, 4 and 1 URLs
    std::vector<std::string> out;
    for (std::size_t k = 0; k < sitemap.size(); ++k) {
      CHECK(sitemap.path(k) == sitemap.file(k).path);
      out.push_back(sitemap.key(k));
    }
    return out;
  };
  const auto before = keys("site");
  REQUIRE(before.size() == 4);
  CHECK(std::set<std::string>(before.begin(), before.end()).size() == 4);
  CHECK(keys("site") == before);
  CHECK(keys("another site") != before);
  // The last entry's date: on the last part's only URL (its Chinese page is not listed).
  records.back()["last_updated"] = "2025-05-05";
  const auto dated = keys("site");
  CHECK(dated[0] == before[0]);
  CHECK(dated[1] == before[1]);
  CHECK(dated[2] == before[2]);
  CHECK(dated[3] != before[3]);
  kbc::SiteModel plain(pointers(records), with_base_url());  // no digests: no key
  CHECK(kbc::Sitemap(plain, 4).key(1).empty());
}

TEST_CASE("llms.txt lists every entry of a small knowledge base, domains and recent of a large") {
  const auto records = domain_records("cuda", 5);
  const kbc::SiteModel model(pointers(records), {});
  const json all = kbc::llms_model(model, kPageStrings, 5);
  CHECK(all["domains"][0]["entries"].size() == 5);
  CHECK_FALSE(all.contains("bounded"));

  const json bounded = kbc::llms_model(model, kPageStrings, 2);
  CHECK(bounded["domains"].empty());
  CHECK(bounded["bounded"]["domains"] ==
        json::array({{{"name", "cuda"}, {"href", "en/domains/cuda.html"}, {"count", "5"}}}));
  REQUIRE(bounded["bounded"]["recent"].size() == 2);
  CHECK(bounded["bounded"]["recent"][0]["href"] == "md/en/cuda/e001.md");  // updated last
}

TEST_CASE("a site with a paginated domain has every page, and every link leads to a page") {
  const auto records = domain_records("cuda", 201);
  const kbc::SiteModel model(pointers(records), with_base_url());
  const kbc::MemoryFileSystem fs;
  const kbc::TemplateSet templates(fs, "/kb");
  kbc::OutputTree tree;
  kbc::build_site(model, templates, tree);
  const auto& files = tree.files();
  for (const char* path : {"site/en/domains/cuda.html", "site/en/domains/cuda/page-2.html",
                           "site/zh/domains/cuda/page-3.html"})
    CHECK(files.count(path));
  CHECK_FALSE(files.count("site/en/domains/cuda/page-4.html"));
  // Each entry's page links to page 1 of its domain; api/ and md/ are the caller's.
  for (const auto& problem : kbc::check_site_links(tree)) {
    INFO(problem.path << ": " << problem.message);
    CHECK((problem.message.find("api/") != std::string::npos ||
           problem.message.find("md/") != std::string::npos));
  }
  const std::string& second = files.at("site/en/domains/cuda/page-2.html");
  CHECK(second.find("<title>cuda – Page 2 of 3 · KB</title>") != std::string::npos);
  CHECK(second.find("<p class=\"lede\">201 entries · Page 2 of 3</p>") != std::string::npos);
  CHECK(second.find("<nav class=\"pagination\" aria-label=\"Pages\">") != std::string::npos);
  CHECK(second.find("<a href=\"../../../en/domains/cuda/page-2.html\" aria-label=\"Page 2\" "
                    "aria-current=\"page\">2</a>") != std::string::npos);
  CHECK(second.find("rel=\"prev\">Previous</a>") != std::string::npos);
  CHECK(files.at("site/sitemap.xml").find("https://kb.example/zh/domains/cuda/page-3.html") !=
        std::string::npos);
  CHECK(files.at("site/en/domains/cuda.html").find("aria-current=\"page\">1</a>") !=
        std::string::npos);
}

TEST_CASE("a row holds what the lists read of a record, in each language") {
  const auto& languages = kbc::default_languages();
  const ordered_json record = {
      {"id", "cuda/a"},
      {"signature", "CUDA error A"},
      {"signature_zh", "CUDA 错误 A"},
      {"root_cause", "Because."},
      {"root_cause_zh", ""},
      {"tags", {"gpu", 3, "cuda"}},
      {"fix_success_rate", 0.5},
      {"workarounds", {{{"action", "a"}}, {{"action", "b"}}}},
      {"transition_graph",
       {{"leads_to", {{{"error_id", "cuda/b"}, {"probability", 0.3}}, "not an edge"}},
        {"frequently_confused_with", {{{"error_id", "cuda/c"}}}}}}};
  const kbc::RecordRow row = kbc::record_row(record, languages);
  CHECK(row.signatures == std::vector<std::string>{"", "CUDA 错误 A"});
  CHECK(row.root_causes == std::vector<std::string>{"Because.", "Because."});  // zh falls back
  CHECK(row.translated == std::vector<char>{1, 1});
  CHECK(row.tags == std::vector<std::string>{"gpu", "cuda"});
  CHECK(row.fix_success_rate == 0.5);
  CHECK(row.workarounds == 2);
  CHECK(row.dead_ends == 0);
  REQUIRE(row.leads_to.size() == 2);
  CHECK(row.leads_to[0].target == "cuda/b");
  CHECK(row.leads_to[0].item["probability"] == 0.3);
  CHECK(row.leads_to[1].target.empty());
  CHECK(row.confused_with.at(0).target == "cuda/c");

  // Blank or empty translations are no text of its own.
  const ordered_json blank = {{"id", "cuda/d"},
                              {"signature", "D"},
                              {"signature_zh", "  "},
                              {"dead_ends_zh", ordered_json::array()},
                              {"root_cause_zh", nullptr}};
  CHECK(kbc::record_row(blank, languages).translated == std::vector<char>{1, 0});
}

TEST_CASE("a row read back from the build's cache is the row that was stored") {
  const auto& languages = kbc::default_languages();
  const ordered_json record = {{"id", "cuda/a"},
                               {"signature", "CUDA error A"},
                               {"signature_zh", "CUDA 错误 A"},
                               {"error_code", "E1"},
                               {"domain", "cuda"},
                               {"category", "runtime"},
                               {"last_updated", "2026"},
                               {"regex", "CUDA error A"},
                               {"root_cause", "Because."},
                               {"tags", {"gpu", "cuda"}},
                               {"aliases", {"cuda-a"}},
                               {"fix_success_rate", 0.25},
                               {"dead_ends", {{{"action", "x"}}}},
                               {"transition_graph",
                                {{"leads_to", {{{"error_id", "cuda/b"}, {"probability", 0.3}}}},
                                 {"preceded_by", {{{"error_id", "cuda/c"}}}},
                                 {"frequently_confused_with",
                                  {{{"error_id", "cuda/d"}, {"distinguishing_feature", "y"}}}}}}};
  const kbc::RecordRow row = kbc::record_row(record, languages);
  const ordered_json stored = kbc::row_to_json(row);
  const std::optional<kbc::RecordRow> back =
      kbc::row_from_json(ordered_json::from_cbor(ordered_json::to_cbor(stored)));
  REQUIRE(back);
  CHECK(kbc::row_to_json(*back) == stored);
  CHECK(back->id == "cuda/a");
  CHECK(back->signatures == std::vector<std::string>{"", "CUDA 错误 A"});
  CHECK(back->translated == std::vector<char>{1, 1});
  CHECK(back->aliases == std::vector<std::string>{"cuda-a"});
  CHECK(back->fix_success_rate == 0.25);
  CHECK(back->dead_ends == 1);
  CHECK(back->preceded_by.at(0).target == "cuda/c");
  CHECK(back->confused_with.at(0).item.dump() == row.confused_with.at(0).item.dump());
  // The paste box's regex is translated with the row, and read back with it.
  REQUIRE(row.paste_regex.size() == 5);
  CHECK(row.paste_regex[0] == "CUDA error A");
  CHECK(row.paste_regex[1] == "u");
  CHECK(back->paste_regex == row.paste_regex);
  // Anything else is no row: the build makes that entry's again.
  CHECK_FALSE(kbc::row_from_json(ordered_json::array()));
  ordered_json wrong = stored;
  wrong[13] = "two";
  CHECK_FALSE(kbc::row_from_json(wrong));
  wrong = stored;
  wrong[18] = ordered_json::array();
  CHECK_FALSE(kbc::row_from_json(wrong));
  CHECK_FALSE(kbc::row_from_json(ordered_json{{"id", "cuda/a"}}));
}

TEST_CASE("a site from rows reads each record whole once, for its entry pages only") {
  const auto records = domain_records("cuda", 150);
  const auto& languages = kbc::default_languages();
  std::vector<kbc::RecordRow> rows;
  for (const auto& record : records) rows.push_back(kbc::record_row(record, languages));
  std::vector<std::atomic<int>> reads(records.size());
  const kbc::SiteModel model(
      std::move(rows),
      [&](std::size_t i) {
        ++reads.at(i);
        return records[i];
      },
      with_base_url(), languages);
  const kbc::MemoryFileSystem fs;
  const kbc::TemplateSet templates(fs, "/kb");
  kbc::OutputTree tree;
  kbc::build_site(model, templates, tree);
  for (std::size_t i = 0; i < reads.size(); ++i) {
    INFO(i);
    CHECK(reads[i] == 1);  // one read for the page in both languages
  }
  // The lists, the feed, the sitemap, llms.txt and the paste box's data read rows only.
  for (auto& count : reads) count = 0;
  for (const kbc::Language& language : languages) {
    (void)model.home_page(language, kPageStrings);
    (void)model.domain_page("cuda", language, kPageStrings, 2);
    (void)kbc::atom_feed_model(model, language, kPageStrings);
    (void)kbc::match_data(model, language, kbc::match_figures(model));
  }
  (void)kbc::sitemap_files(model);
  (void)kbc::llms_model(model, kPageStrings);
  for (const auto& count : reads) CHECK(count == 0);

  // The same site as one made from the records themselves.
  kbc::OutputTree direct;
  kbc::build_site(kbc::SiteModel(pointers(records), with_base_url()), templates, direct);
  CHECK(tree.files() == direct.files());
}
