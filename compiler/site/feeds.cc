#include "site/feeds.h"

#include <algorithm>
#include <limits>

#include "base/digest.h"
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

// Every page: the home and search pages, each page of each domain's list, each entry's page.
std::vector<Sitemap::Page> sitemap_pages(const SiteModel& model) {
  const auto& languages = model.languages();
  const std::vector<bool> all(languages.size(), true);
  std::vector<Sitemap::Page> pages = {{"index.html", "", all}, {"search.html", "", all}};
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

Sitemap::Sitemap(const SiteModel& model, std::size_t max_urls)
    : model_(model), max_urls_(std::max<std::size_t>(max_urls, 1)), pages_(sitemap_pages(model)) {
  first_url_.push_back(0);
  for (const Page& page : pages_)
    first_url_.push_back(first_url_.back() +
                         static_cast<std::size_t>(std::ranges::count(page.in, true)));
}

std::size_t Sitemap::parts() const {
  const std::size_t count = first_url_.back();
  return count <= max_urls_ ? 1 : (count - 1) / max_urls_ + 1;
}

MustacheData Sitemap::urls(std::size_t begin, std::size_t end) const {
  const std::string& base = model_.config().base_url;
  const auto& languages = model_.languages();
  MustacheData urls = list_data();
  reserve(urls, end - begin);
  std::size_t k = page_of_url(begin);
  const auto link = [](const std::string& hreflang, std::string href) {
    MustacheData alternate = object_data();
    put_text(alternate, "hreflang", hreflang);
    put_text(alternate, "href", std::move(href));
    return alternate;
  };
  for (std::size_t number = first_url_[k]; k < pages_.size() && number < end; ++k) {
    const Page& page = pages_[k];
    for (std::size_t l = 0; l < languages.size(); ++l) {
      if (!page.in[l]) continue;  // noindex, and canonical to the base language's page
      if (number++ < begin || number > end) continue;  // in another part
      MustacheData alternates = list_data();
      reserve(alternates, languages.size() + 1);
      for (std::size_t a = 0; a < languages.size(); ++a) {
        if (page.in[a])
          append(alternates,
                 link(languages[a].html_lang, base + languages[a].code + "/" + page.suffix));
      }
      append(alternates, link("x-default", base + languages.front().code + "/" + page.suffix));
      MustacheData url = object_data();
      put_text(url, "loc", base + languages[l].code + "/" + page.suffix);
      put(url, "alternates", std::move(alternates));
      put_text(url, "lastmod", page.lastmod);
      append(urls, std::move(url));
    }
  }
  return urls;
}

// The last page whose first URL is not after URL `number`.
std::size_t Sitemap::page_of_url(std::size_t number) const {
  return static_cast<std::size_t>(
      std::upper_bound(first_url_.begin(), first_url_.end() - 1, number) - first_url_.begin() - 1);
}

std::string Sitemap::path(std::size_t k) const {
  return parts() == 1 || is_index(k) ? "sitemap.xml" : "sitemap-" + std::to_string(k) + ".xml";
}

std::pair<std::size_t, std::size_t> Sitemap::url_range(std::size_t k) const {
  const std::size_t count = first_url_.back();
  if (parts() == 1) return {0, count};
  const std::size_t begin = (k - 1) * max_urls_;
  return {begin, std::min(begin + max_urls_, count)};
}

std::string Sitemap::key(std::size_t k) const {
  if (model_.site_digest().empty()) return "";
  Digest key;
  key.add("sitemap 1").add(model_.site_digest()).add(k).add(parts());
  if (is_index(k)) return key.hex().substr(0, 32);  // its parts only
  const auto [begin, end] = url_range(k);
  key.add(begin).add(end);
  for (std::size_t page = page_of_url(begin); page < pages_.size() && first_url_[page] < end;
       ++page) {
    key.add(pages_[page].suffix).add(pages_[page].lastmod);
    for (const bool in : pages_[page].in) key.add(in ? 1 : 0);
  }
  return key.hex().substr(0, 32);
}

SitemapFile Sitemap::file(std::size_t k) const {
  const auto with = [](const char* key, MustacheData list) {
    MustacheData model = object_data();
    put(model, key, std::move(list));
    return model;
  };
  if (is_index(k)) {
    MustacheData sitemaps = list_data();
    for (std::size_t part = 1; part <= parts(); ++part) {
      MustacheData sitemap = object_data();
      put_text(sitemap, "loc", model_.config().base_url + path(part));
      append(sitemaps, std::move(sitemap));
    }
    return {path(k), "sitemap_index.xml", with("sitemaps", std::move(sitemaps))};
  }
  const auto [begin, end] = url_range(k);
  return {path(k), "sitemap.xml", with("urls", urls(begin, end))};
}

MustacheData sitemap_model(const SiteModel& model) {
  const Sitemap sitemap(model, std::numeric_limits<std::size_t>::max());
  return std::move(sitemap.file(0).model);
}

std::vector<SitemapFile> sitemap_files(const SiteModel& model, std::size_t max_urls) {
  const Sitemap sitemap(model, max_urls);
  std::vector<SitemapFile> files;
  for (std::size_t k = 0; k < sitemap.size(); ++k) files.push_back(sitemap.file(k));
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
