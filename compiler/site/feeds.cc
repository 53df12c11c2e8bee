#include "site/feeds.h"

#include "base/text.h"
#include "render/record.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string date_time(const std::string& date) { return date + "T00:00:00Z"; }

}  // namespace

json atom_feed_model(const SiteModel& model, const Language& language, const json& strings) {
  const std::string& base = model.config().base_url;
  const std::string root = base + language.code + "/";
  const auto recent = model.recently_updated(20);
  const std::string updated =
      recent.empty() ? "1970-01-01" : model.row(recent.front()).last_updated;
  json entries = json::array();
  for (std::size_t i : recent) {
    const RecordRow& r = model.row(i);
    entries.push_back({{"title", model.title(i, language).text},
                       {"url", base + site_entry_path(language.code, r.id)},
                       {"updated", date_time(r.last_updated)},
                       {"summary", first_sentence(model.root_cause(i, language), 300)}});
  }
  return {{"lang", language.html_lang},
          {"title", model.config().title + " — " +
                        strings.value("feed_title", std::string("Recently updated"))},
          {"root", root},
          {"self", root + "feed.xml"},
          {"home", root + "index.html"},
          {"updated", date_time(updated)},
          {"author", model.config().title},
          {"entries", std::move(entries)}};
}

namespace {

// A page of each language, its path under the language's folder.
struct SitemapPage {
  std::string suffix, lastmod;
  std::vector<bool> in;  // per language: whether the page is its own (an entry translated)
};

// Every page: the home and search pages, each page of each domain's list, each entry's page.
std::vector<SitemapPage> sitemap_pages(const SiteModel& model) {
  const auto& languages = model.languages();
  const std::vector<bool> all(languages.size(), true);
  std::vector<SitemapPage> pages = {{"index.html", "", all}, {"search.html", "", all}};
  for (const auto& [domain, members] : model.domains()) {
    for (std::size_t k = 1; k <= model.domain_page_count(domain); ++k)
      pages.push_back({site_domain_path("", domain, k).substr(1), "", all});
  }
  for (std::size_t i = 0; i < model.size(); ++i) {
    const RecordRow& row = model.row(i);
    pages.push_back({site_entry_path("", row.id).substr(1), row.last_updated,
                     std::vector<bool>(row.translated.begin(), row.translated.end())});
  }
  return pages;
}

}  // namespace

json sitemap_model(const SiteModel& model) {
  const std::string& base = model.config().base_url;
  const auto& languages = model.languages();
  json urls = json::array();
  for (const SitemapPage& page : sitemap_pages(model)) {
    json alternates = json::array();
    for (std::size_t l = 0; l < languages.size(); ++l) {
      if (page.in[l])
        alternates.push_back({{"hreflang", languages[l].html_lang},
                              {"href", base + languages[l].code + "/" + page.suffix}});
    }
    alternates.push_back(
        {{"hreflang", "x-default"}, {"href", base + languages.front().code + "/" + page.suffix}});
    for (std::size_t l = 0; l < languages.size(); ++l) {
      if (!page.in[l]) continue;  // noindex, and canonical to the base language's page
      json url = {{"loc", base + languages[l].code + "/" + page.suffix},
                  {"alternates", alternates}};
      if (!page.lastmod.empty()) url["lastmod"] = page.lastmod;
      urls.push_back(std::move(url));
    }
  }
  return {{"urls", std::move(urls)}};
}

std::vector<SitemapFile> sitemap_files(const SiteModel& model, std::size_t max_urls) {
  json urls = std::move(sitemap_model(model)["urls"]);
  if (urls.size() <= max_urls) return {{"sitemap.xml", "sitemap.xml", {{"urls", std::move(urls)}}}};
  std::vector<SitemapFile> files = {
      {"sitemap.xml", "sitemap_index.xml", {{"sitemaps", json::array()}}}};
  for (std::size_t begin = 0; begin < urls.size(); begin += max_urls) {
    const std::string name = "sitemap-" + std::to_string(files.size()) + ".xml";
    files.front().model["sitemaps"].push_back({{"loc", model.config().base_url + name}});
    const auto from = urls.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto to =
        urls.begin() + static_cast<std::ptrdiff_t>(std::min(begin + max_urls, urls.size()));
    files.push_back({name, "sitemap.xml", {{"urls", json(from, to)}}});
  }
  return files;
}

namespace {

// A record's line in llms.txt: its signature as the text of a link to its Markdown page.
json llms_entry(const RecordRow& row, const std::string& base_pages) {
  std::string title = row.signature;
  for (char& c : title) {
    if (c == '[' || c == ']' || c == '\n') c = ' ';  // inside a Markdown link's text
  }
  return {{"title", title},
          {"href", base_pages + row.id + ".md"},
          {"summary", first_sentence(row.root_causes.front(), 200)}};
}

// What llms.txt has of a knowledge base too large to list: each domain with its count and its
// page, and the entries updated last.
json llms_bounded(const SiteModel& model, const std::string& base_pages, std::size_t max_entries) {
  const std::string& base_code = model.languages().front().code;
  json domains = json::array();
  for (const auto& [domain, members] : model.domains()) {
    domains.push_back({{"name", domain},
                       {"href", site_domain_path(base_code, domain)},
                       {"count", std::to_string(members.size())}});
  }
  json recent = json::array();
  for (std::size_t i : model.recently_updated(max_entries))
    recent.push_back(llms_entry(model.row(i), base_pages));
  return {{"total", std::to_string(model.size())},
          {"domains", std::move(domains)},
          {"recent", std::move(recent)}};
}

}  // namespace

json llms_model(const SiteModel& model, const json& strings, std::size_t max_entries) {
  std::string pages;
  for (const Language& language : model.languages())
    pages += (pages.empty() ? "md/" : ", md/") + language.code + "/<id>.md";
  const std::string base_pages = "md/" + model.languages().front().code + "/";
  json llms = {
      {"title", model.config().title},
      {"summary", model.config().description.empty() ? strings.value("llms_summary", std::string())
                                                     : model.config().description},
      {"pages", pages},
      {"domains", json::array()}};
  if (model.size() > max_entries) {
    llms["bounded"] = llms_bounded(model, base_pages, max_entries);
    return llms;
  }
  for (const auto& [domain, members] : model.domains()) {
    json entries = json::array();
    for (std::size_t i : members) entries.push_back(llms_entry(model.row(i), base_pages));
    llms["domains"].push_back({{"name", domain}, {"entries", std::move(entries)}});
  }
  return llms;
}

}  // namespace kbc
