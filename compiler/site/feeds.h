// The models of the site's machine-read files: each language's Atom feed (feed.xml), the
// sitemap (sitemap.xml, split past 50,000 URLs) and llms.txt, rendered through
// templates/site/<file>.mustache.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "model/languages.h"
#include "render/mustache_data.h"
#include "site/site_model.h"

namespace kbc {

// The 20 most recently updated entries of `language`, with absolute links (needs base_url).
nlohmann::json atom_feed_model(const SiteModel& model, const Language& language,
                               const nlohmann::json& strings);

// Every page of every language, with its alternates in the others and, for an entry, its
// last_updated (needs base_url). As mustache data, built without a JSON document first: a site
// of 100,000 entries has 180,000 URLs, and the document and its conversion took ten times the
// rendering's time.
MustacheData sitemap_model(const SiteModel& model);

// The URLs a sitemap may list (sitemaps.org): a site with more gets a sitemap index.
constexpr std::size_t kMaxSitemapUrls = 50000;

// The sitemap's files under site/, each with its template (under templates/site/) and model:
// sitemap.xml alone when the site has at most `max_urls` URLs; else sitemap.xml is the index
// (sitemap_index.xml) of sitemap-1.xml, sitemap-2.xml, ..., each of at most `max_urls` URLs.
struct SitemapFile {
  std::string path, template_name;
  MustacheData model;
};
std::vector<SitemapFile> sitemap_files(const SiteModel& model,
                                       std::size_t max_urls = kMaxSitemapUrls);

// The same files one at a time, so that each can be made on a core of its own: a site of
// 100,000 entries has 180,000 URLs.
class Sitemap {
 public:
  explicit Sitemap(const SiteModel& model, std::size_t max_urls = kMaxSitemapUrls);
  std::size_t size() const { return parts() == 1 ? 1 : parts() + 1; }
  // File k of sitemap_files (0: sitemap.xml).
  SitemapFile file(std::size_t k) const;
  // Its path under site/, and a key of what it is made from for OutputTree::reuse (the site's
  // digest and its URLs' pages, dates and languages; "" when the model has no site digest).
  std::string path(std::size_t k) const;
  std::string key(std::size_t k) const;
  // The files of at most max_urls URLs.
  std::size_t parts() const;

  // A page of each language, its path under the language's folder.
  struct Page {
    std::string suffix, lastmod;
    std::vector<bool> in;  // per language: whether the page is its own (an entry translated)
  };

 private:
  MustacheData urls(std::size_t begin, std::size_t end) const;  // URLs [begin, end)
  std::size_t page_of_url(std::size_t number) const;            // the page URL `number` is of
  bool is_index(std::size_t k) const { return parts() > 1 && k == 0; }
  std::pair<std::size_t, std::size_t> url_range(std::size_t k) const;  // file k's URLs

  const SiteModel& model_;
  std::size_t max_urls_;
  std::vector<Page> pages_;
  std::vector<std::size_t> first_url_;  // per page, the number of its first URL; then the count
};

// The knowledge base for language models (llmstxt.org): where its Markdown pages and records
// are, and each domain's entries with the first sentence of their root cause. `strings`: the
// base language's UI strings. A knowledge base of more than `max_entries` entries gets, instead
// of every entry, each domain with its count and a link to its page, and the `max_entries`
// entries updated last: llms.txt stays a few hundred kB however many entries there are.
constexpr std::size_t kMaxLlmsEntries = 500;
nlohmann::json llms_model(const SiteModel& model, const nlohmann::json& strings,
                          std::size_t max_entries = kMaxLlmsEntries);

}  // namespace kbc
