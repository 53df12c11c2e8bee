// The page model of the site: for each page, the data its template shows, computed from the
// published records so the site, the JSON and the Markdown never disagree.
//
// Models are plain JSON values (easy to test, independent of the template engine), except the
// entry page's, which is built as the template engine's data: there are 2 x 2,522 of those in
// the benchmark, and building JSON first and converting it cost a fifth of a build. The UI
// strings of the language are not copied into each model: the renderer layers them beneath it as
// `t`. Models carry ready-to-use relative links: every page knows `up`, the way back to the site's
// root, so the site works from any sub-path and from the file system. Absolute URLs (canonical)
// appear only when the knowledge base has a base_url.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"
#include "model/languages.h"
#include "model/site_config.h"
#include "render/mustache_data.h"
#include "site/record_row.h"

namespace kbc {

// Paths of pages under site/. A domain's list is cut in pages of SiteModel::kDomainPageSize
// entries: page 1 is domains/<domain>.html, page k domains/<domain>/page-<k>.html (a domain has
// no '/' in its name, so no domain's page 1 can have that path).
std::string site_entry_path(std::string_view language, std::string_view id);
std::string site_domain_path(std::string_view language, std::string_view domain,
                             std::size_t page = 1);
// The site's icon under site/assets/: kbc.yaml's favicon, else its logo when browsers take it as
// an icon, else kbc's own (favicon.svg); and the MIME type of an image by its name.
std::string favicon_name(const SiteConfig& config);
std::string image_type(const std::string& name);
// "../" once per folder of `path` under site/: the way from that page back to site/.
std::string up_from(std::string_view path);

class SiteModel {
 public:
  // Gives the whole record of row i, for its entry page.
  using RecordReader = std::function<nlohmann::ordered_json(std::size_t)>;

  // `rows` are those of the published records of the built entries (record_row, in
  // `languages`), sorted by id; `read` gives a record whole; `languages` those of the knowledge
  // base, the base language (the x-default) first.
  SiteModel(std::vector<RecordRow> rows, RecordReader read, SiteConfig config,
            std::vector<Language> languages);
  // The model of `records` (sorted by id), which must outlive it; their rows are made here.
  SiteModel(const std::vector<const nlohmann::ordered_json*>& records, SiteConfig config,
            const std::vector<Language>& languages = default_languages());

  // The entries' files relative to the root, in the order of `records`, for edit links.
  void set_source_paths(std::vector<std::string> paths) { source_paths_ = std::move(paths); }
  // kbc verify's current evidence of each record (nullptr where there is none), in the order
  // of `records`: the entry page shows where and when the error was reproduced.
  void set_evidence(std::vector<const Evidence*> evidence) { evidence_ = std::move(evidence); }

  // What lets a build reuse the last build's entry pages: `site`, a digest of what every page
  // reads (kbc itself, the site's settings, templates and languages), and a digest of each
  // record's JSON, in the order of `records`. Without them, entry_page_key is "".
  void set_digests(std::string site, std::vector<std::string> records) {
    site_digest_ = std::move(site);
    record_digests_ = std::move(records);
  }
  // A digest of everything the entry pages of `record` are made from besides their language: the
  // record, its source path and evidence, and the records and edges of the entries it links to;
  // "" without set_digests. Made once for the pages in every language (entry_page_key).
  std::string entry_key(std::size_t record) const;
  // The key of the entry page in `language` of the record whose entry_key is `entry_key`: the
  // same key makes the same page. "" for "".
  static std::string entry_page_key(const std::string& entry_key, const Language& language);
  // The digests set_digests gave: the site's, and record i's JSON's; "" without.
  const std::string& site_digest() const { return site_digest_; }
  const std::string& record_digest(std::size_t record) const {
    static const std::string none;
    return record < record_digests_.size() ? record_digests_[record] : none;
  }

  const SiteConfig& config() const { return config_; }
  const std::vector<Language>& languages() const { return languages_; }
  std::size_t size() const { return rows_.size(); }
  const RecordRow& row(std::size_t record) const { return rows_[record]; }
  // Domain -> indexes of its records, sorted.
  const std::map<std::string, std::vector<std::size_t>>& domains() const { return domains_; }
  // Indexes of the records by last_updated, newest first (ties by id).
  std::vector<std::size_t> recently_updated(std::size_t limit) const;

  // `strings` are the UI strings of the language (templates/strings/<code>.json).
  MustacheData entry_page(std::size_t record, const Language& language,
                          const nlohmann::json& strings) const;
  // The same, given the record whole (record(i)), for a caller that renders it in several
  // languages.
  MustacheData entry_page(std::size_t record, const Language& language,
                          const nlohmann::json& strings, const nlohmann::ordered_json& whole) const;
  // Record i whole.
  nlohmann::ordered_json record(std::size_t record) const { return read_(record); }
  nlohmann::json home_page(const Language& language, const nlohmann::json& strings) const;
  // Page `page` (from 1) of the domain's list: its entries by category, then id, with links to
  // the other pages when there are several. The count is the domain's whole.
  MustacheData domain_page(const std::string& domain, const Language& language,
                           const nlohmann::json& strings, std::size_t page = 1) const;
  std::size_t domain_page_count(const std::string& domain) const;
  // A digest of everything page `page` of the domain's list in `language` is made from: the
  // site's inputs, the domain's size and the records on the page. The same key makes the same
  // page. "" without set_digests.
  std::string domain_page_key(const std::string& domain, const Language& language,
                              std::size_t page) const;
  // The search page ("search") or the not-found page ("404"). The home and search pages have
  // `match_data`, the link to the paste box's data (site_builder.h), which the renderer takes
  // as the sign to add the box.
  nlohmann::json plain_page(const std::string& name, const Language& language,
                            const nlohmann::json& strings) const;

  // The title of a record in a language: its translated signature (signature_zh in Chinese)
  // when there is one.
  struct Title {
    std::string text;
    bool untranslated = false;
  };
  Title title(std::size_t record, const Language& language) const;
  // The record's root cause in `language` (localized_field).
  const std::string& root_cause(std::size_t record, const Language& language) const {
    return rows_[record].root_causes[language_index(language)];
  }
  // Whether the record has any text of its own in `language` (always, in the base language).
  // A page without is shown in the base language, marked noindex, with its canonical link to
  // the base language's page, and left out of the sitemap.
  bool translated(std::size_t record, const Language& language) const;

  static constexpr std::size_t kMaxTitle = 70;    // <title>, in code points
  static constexpr std::size_t kMaxHeading = 60;  // an entry page's <h1>
  // Entries on one page of a domain's list: a page stays small however large the domain.
  static constexpr std::size_t kDomainPageSize = 100;

 private:
  struct Link {
    std::string id;
    const nlohmann::ordered_json* edge;  // what the edge says of it, or null
  };
  // For each record: the ids it leads to, is preceded by and is confused with, in both
  // directions (an entry that another leads_to is "preceded by" it even if it does not say so).
  struct Relations {
    std::vector<Link> leads_to, preceded_by, confused_with;
  };
  void add_relations();
  // Page `page` of the domain's list (clamped to its pages): its number, the domain's page
  // count and the positions [begin, end) of its records in domain_lists_.
  struct DomainSlice {
    std::size_t page, pages, begin, end;
  };
  DomainSlice domain_slice(const std::string& domain, std::size_t page) const;
  // The position of `language` in languages().
  std::size_t language_index(const Language& language) const;
  // The base language's html_lang, which marks the texts a page shows untranslated.
  const std::string& base_lang() const { return languages_.front().html_lang; }
  // The code points a page's own title may have in <title>, beside the site's.
  std::size_t title_room() const;
  // What every page has. `has_language`: per language, whether the page exists in it (hreflang
  // links), when not all do.
  nlohmann::json common(const std::string& path, const std::string& alternate_suffix,
                        const std::string& page_title, const Language& language,
                        const std::vector<bool>* has_language = nullptr) const;
  // The sections of an entry page that read other entries or the site's configuration.
  MustacheData related_data(std::size_t record, const Language& language,
                            const nlohmann::json& strings, const std::string& up) const;
  nlohmann::json article_json(const nlohmann::ordered_json& record, const std::string& path,
                              const std::string& headline, const Language& language) const;

  std::vector<RecordRow> rows_;
  RecordReader read_;
  SiteConfig config_;
  std::vector<Language> languages_;
  std::map<std::string, std::size_t> by_id_;
  std::map<std::string, std::vector<std::size_t>> domains_;
  // Per domain: its records in the order of its pages, by category, then id.
  std::map<std::string, std::vector<std::size_t>> domain_lists_;
  std::vector<Relations> relations_;
  std::vector<std::string> source_paths_;
  std::vector<const Evidence*> evidence_;
  std::string site_digest_;
  std::vector<std::string> record_digests_;
};

}  // namespace kbc
