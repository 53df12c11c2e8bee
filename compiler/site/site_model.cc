#include "site/site_model.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "base/digest.h"
#include "base/text.h"
#include "base/utf8.h"
#include "render/mustache_data.h"
#include "render/record.h"
#include "site/entry_sections.h"
#include "site/markdown_html.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// "2,275": `n` with the language's thousands separator (the UI string thousands_separator).
std::string count_text(std::size_t n, const json& strings) {
  const std::string digits = std::to_string(n);
  const std::string separator = ui_label(strings, "thousands_separator", ",");
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
    out += digits[i];
  }
  return out;
}

// The UI string `key` for a count: key_one when n is 1 and the language has it, else key; with
// {n} replaced by the count.
std::string count_label(const json& strings, const std::string& key, std::size_t n) {
  std::string text = n == 1 && strings.contains(key + "_one") ? ui_label(strings, key + "_one")
                                                              : ui_label(strings, key);
  if (const std::size_t at = text.find("{n}"); at != std::string::npos)
    text.replace(at, 3, count_text(n, strings));
  return text;
}

// What an edge of the transition graph says, each part labelled: "Likelihood: 30% · When: under
// load · Typical delay: minutes · <distinction>".
std::string transition_detail(const ordered_json& item, const json& strings) {
  std::vector<std::string> parts;
  const std::string colon = ui_label(strings, "colon", ":") + " ";
  if (item.contains("probability") && item["probability"].is_number())
    parts.push_back(ui_label(strings, "likelihood") + colon + percent_or_dash(item["probability"]));
  for (const char* key : {"condition", "typical_delay"}) {
    if (const std::string value = string_field(item, key); !value.empty())
      parts.push_back(ui_label(strings, key) + colon + value);
  }
  if (const std::string value = string_field(item, "distinction"); !value.empty())
    parts.push_back(value);
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : " · ") + part;
  return out;
}

std::string json_ld_text(const json& value) {
  // Inside <script>, "</" would end the element: escape every '<'.
  return replace_characters(value.dump(), {{'<', "\\u003c"}});
}

// An entry page's <h1>: the signature from its error code on when it holds the code in its
// first line (the exception classes and wrappers before it are in the signature shown below),
// at most SiteModel::kMaxHeading code points.
std::string short_title(const std::string& title, const std::string& code) {
  const std::size_t at = code.empty() ? std::string::npos : title.find(code);
  const bool in_first_line = at != std::string::npos && at < title.find('\n');
  return head_text(in_first_line ? title.substr(at) : title, SiteModel::kMaxHeading);
}

// "Page 2 of 3": the UI string page_of with {k} and {n} replaced.
std::string page_of(const json& strings, std::size_t page, std::size_t pages) {
  const std::string text = ui_label(strings, "page_of", "Page {k} of {n}");
  return replace_all(replace_all(text, "{k}", count_text(page, strings)), "{n}",
                     count_text(pages, strings));
}

// The links between the pages of a list, `href(k)` the way to page k: previous, next, and the
// page numbers. The numbers are the first, the last and those within two of the current page,
// with a gap for the others, so a page of a list of 1,000 pages has a dozen links, not 1,000.
template <typename Href>
json pagination_data(std::size_t page, std::size_t pages, const json& strings, const Href& href) {
  json nav = {{"label", ui_label(strings, "pagination", "Pages")},
              {"page_of", page_of(strings, page, pages)},
              {"pages", json::array()}};
  if (page > 1)
    nav["prev"] = {{"href", href(page - 1)},
                   {"label", ui_label(strings, "previous_page", "Previous")}};
  if (page < pages)
    nav["next"] = {{"href", href(page + 1)}, {"label", ui_label(strings, "next_page", "Next")}};
  std::vector<std::size_t> numbers = {1};
  for (std::size_t k = page > 3 ? page - 2 : 2; k <= std::min(page + 2, pages); ++k)
    numbers.push_back(k);
  if (numbers.back() != pages) numbers.push_back(pages);
  const auto add = [&](std::size_t k) {
    const std::string label = ui_label(strings, "page_number", "Page {n}");
    json item = {{"number", count_text(k, strings)},
                 {"href", href(k)},
                 {"label", replace_all(label, "{n}", count_text(k, strings))}};
    if (k == page) item["current"] = true;
    nav["pages"].push_back(std::move(item));
  };
  std::size_t last = 0;
  for (std::size_t k : numbers) {
    if (k == last + 2) add(last + 1);  // a gap of one number: the number itself
    if (k > last + 2) nav["pages"].push_back({{"gap", true}});
    add(k);
    last = k;
  }
  return nav;
}

// `members` (record indexes, in id order) by category, then id: the order of a domain's list.
std::vector<std::size_t> by_category(const std::vector<RecordRow>& rows,
                                     const std::vector<std::size_t>& members) {
  std::vector<std::pair<std::string_view, std::size_t>> keyed;
  for (std::size_t i : members) keyed.emplace_back(rows[i].category, i);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> order;
  for (const auto& [category, i] : keyed) order.push_back(i);
  return order;
}

}  // namespace

std::string favicon_name(const SiteConfig& config) {
  if (!config.favicon.name.empty()) return config.favicon.name;
  const std::string& logo = config.logo.name;
  if (logo.ends_with(".svg") || logo.ends_with(".png")) return logo;
  return "favicon.svg";
}

std::string image_type(const std::string& name) {
  if (name.ends_with(".svg")) return "image/svg+xml";
  if (name.ends_with(".png")) return "image/png";
  if (name.ends_with(".ico")) return "image/x-icon";
  if (name.ends_with(".webp")) return "image/webp";
  return "image/jpeg";
}

std::string site_entry_path(std::string_view language, std::string_view id) {
  return std::string(language) + "/entries/" + std::string(id) + ".html";
}

std::string site_domain_path(std::string_view language, std::string_view domain, std::size_t page) {
  const std::string list = std::string(language) + "/domains/" + std::string(domain);
  return page <= 1 ? list + ".html" : list + "/page-" + std::to_string(page) + ".html";
}

std::string up_from(std::string_view path) {
  std::string up;
  for (char c : path) {
    if (c == '/') up += "../";
  }
  return up;
}

SiteModel::SiteModel(std::vector<RecordRow> rows, RecordReader read, SiteConfig config,
                     std::vector<Language> languages)
    : rows_(std::move(rows)),
      read_(std::move(read)),
      config_(std::move(config)),
      languages_(std::move(languages)),
      relations_(rows_.size()) {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    by_id_[rows_[i].id] = i;
    domains_[rows_[i].domain].push_back(i);
  }
  for (const auto& [domain, members] : domains_)
    domain_lists_[domain] = by_category(rows_, members);
  add_relations();
}

namespace {

std::vector<RecordRow> rows_of(const std::vector<const ordered_json*>& records,
                               const std::vector<Language>& languages) {
  std::vector<RecordRow> rows;
  for (const ordered_json* record : records) rows.push_back(record_row(*record, languages));
  return rows;
}

}  // namespace

SiteModel::SiteModel(const std::vector<const ordered_json*>& records, SiteConfig config,
                     const std::vector<Language>& languages)
    : SiteModel(
          rows_of(records, languages), [records](std::size_t i) { return *records[i]; },
          std::move(config), languages) {}

void SiteModel::add_relations() {
  const auto add = [](std::vector<Link>& links, const std::string& id, const ordered_json* edge) {
    for (const Link& link : links) {
      if (link.id == id) return;  // the entry's own statement comes first and wins
    }
    links.push_back({id, edge});
  };
  using Edges = std::vector<RecordRow::Edge> RecordRow::*;
  // First every entry's own links, then the reverse of everyone else's.
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const RecordRow& row = rows_[i];
    Relations& r = relations_[i];
    for (const auto& [edges, links] :
         {std::pair<Edges, std::vector<Link>*>{&RecordRow::leads_to, &r.leads_to},
          {&RecordRow::preceded_by, &r.preceded_by},
          {&RecordRow::confused_with, &r.confused_with}}) {
      for (const RecordRow::Edge& edge : row.*edges) {
        if (!edge.target.empty() && edge.target != row.id) add(*links, edge.target, &edge.item);
      }
    }
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const RecordRow& row = rows_[i];
    // A transition's probability and condition describe the edge, whichever side states it;
    // a distinction is written from its author's side ("that one is...") and stays there.
    const auto reverse = [&](Edges edges, std::vector<Link> Relations::*other_side,
                             bool keep_detail) {
      for (const RecordRow::Edge& edge : row.*edges) {
        const auto target = by_id_.find(edge.target);
        if (target == by_id_.end() || target->second == i) continue;
        add(relations_[target->second].*other_side, row.id, keep_detail ? &edge.item : nullptr);
      }
    };
    reverse(&RecordRow::leads_to, &Relations::preceded_by, true);
    reverse(&RecordRow::preceded_by, &Relations::leads_to, true);
    reverse(&RecordRow::confused_with, &Relations::confused_with, false);
  }
}

std::vector<std::size_t> SiteModel::recently_updated(std::size_t limit) const {
  std::vector<std::size_t> order(rows_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // The first `limit` of the order a stable sort by date, newest first, would give.
  const auto newer = [&](std::size_t a, std::size_t b) {
    const std::string& x = rows_[a].last_updated;
    const std::string& y = rows_[b].last_updated;
    return x != y ? x > y : a < b;
  };
  const std::size_t kept = std::min(limit, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                    newer);
  order.resize(kept);
  return order;
}

SiteModel::Title SiteModel::title(std::size_t record, const Language& language) const {
  const RecordRow& row = rows_[record];
  if (language.base) return {row.signature, false};
  const std::string& translated = row.signatures[language_index(language)];
  return translated.empty() ? Title{row.signature, true} : Title{translated, false};
}

std::size_t SiteModel::language_index(const Language& language) const {
  for (std::size_t l = 0; l < languages_.size(); ++l) {
    if (languages_[l].code == language.code) return l;
  }
  throw std::out_of_range("the site has no language " + language.code);
}

std::size_t SiteModel::title_room() const {
  // <title> is the page's title and " · " and the site's: at most kMaxTitle code points.
  const std::size_t site = code_points(config_.title) + 3;
  return kMaxTitle > site + 30 ? kMaxTitle - site : 30;
}

json SiteModel::common(const std::string& path, const std::string& alternate_suffix,
                       const std::string& page_title, const Language& language,
                       const std::vector<bool>* has_language) const {
  const std::string up = up_from(path);
  const std::string lang_root = up + language.code + "/";
  json page;
  page["html_lang"] = language.html_lang;
  page["base_lang"] = base_lang();  // marks the texts that are not translated
  page["page_title"] = head_text(page_title, title_room());
  page["site_title"] = config_.title;
  page["og_locale"] = replace_characters(language.html_lang, {{'-', "_"}});
  page["og_type"] = "website";
  page["up"] = up;
  page["lang_up"] = up_from(path.substr(language.code.size() + 1));
  page["home"] = lang_root + "index.html";
  page["search_page"] = lang_root + "search.html";
  page["search_dir"] = lang_root + "search/";
  const std::string favicon = favicon_name(config_);
  page["favicon"] = up + "assets/" + favicon;
  page["favicon_type"] = image_type(favicon);
  page["logo"] = up + "assets/" + (config_.logo.name.empty() ? "favicon.svg" : config_.logo.name);
  if (!config_.base_url.empty()) {
    page["canonical"] = config_.base_url + path;
    page["feed"] = lang_root + "feed.xml";
  }
  // hreflang links: absolute with a base_url (search engines want them so), to the languages
  // that have the page; the language switcher: the same page in the other languages.
  const std::string root = config_.base_url.empty() ? up : config_.base_url;
  json alternates = json::array();
  json switches = json::array();
  for (std::size_t l = 0; l < languages_.size(); ++l) {
    const Language& other = languages_[l];
    const std::string href = up + other.code + "/" + alternate_suffix;
    if (!has_language || (*has_language)[l])
      alternates.push_back(
          {{"hreflang", other.html_lang}, {"href", root + other.code + "/" + alternate_suffix}});
    if (other.code != language.code)
      switches.push_back({{"href", href}, {"hreflang", other.html_lang}, {"label", other.name}});
  }
  alternates.push_back({{"hreflang", "x-default"},
                        {"href", root + languages_.front().code + "/" + alternate_suffix}});
  page["alternates"] = std::move(alternates);
  page["switch"] = std::move(switches);
  return page;
}

bool SiteModel::translated(std::size_t record, const Language& language) const {
  return rows_[record].translated[language_index(language)] != 0;
}

MustacheData SiteModel::entry_page(std::size_t index, const Language& language,
                                   const json& strings) const {
  return entry_page(index, language, strings, read_(index));
}

MustacheData SiteModel::entry_page(std::size_t index, const Language& language, const json& strings,
                                   const ordered_json& r) const {
  const std::string& id = rows_[index].id;
  const std::string path = site_entry_path(language.code, id);
  const Title title_text = title(index, language);
  const std::string heading = short_title(title_text.text, string_field(r, "error_code"));
  const std::string up = up_from(path);
  std::vector<bool> has_language;
  for (const Language& other : languages_) has_language.push_back(translated(index, other));
  const bool translated_page = translated(index, language);
  json common_data = common(path, "entries/" + id + ".html", heading, language, &has_language);
  common_data["og_type"] = "article";
  if (!translated_page) {
    // Only the base language's text: not a page of its own for search engines.
    common_data["noindex"] = true;
    if (!config_.base_url.empty())
      common_data["canonical"] = config_.base_url + site_entry_path(languages_.front().code, id);
  }
  MustacheData page = to_mustache_data(common_data);
  put_text(page, "id", id);
  MustacheData title_data = object_data();
  put_text(title_data, "text", heading);
  put(title_data, "untranslated", title_text.untranslated);
  put(page, "title", std::move(title_data));
  put(page, "untranslated_page", !translated_page);
  put(page, "mark_fields", translated_page && !language.base);
  put_facts(page, r, language, strings, up);
  put(page, "show_signature", heading != string_field(r, "signature"));
  put(page, "versions", versions_data(r, strings));
  put(page, "has_versions", !list_field(r, "versions").empty());
  put_list(page, "os_notes", os_notes_data(r, strings));
  put_fixes(page, r, language);
  put_list(page, "related", related_data(index, language, strings, up));
  if (auto doc = official_doc_data(r)) put(page, "official_doc", std::move(*doc));
  if (index < evidence_.size() && evidence_[index]) {
    MustacheData reproduced = object_data();
    put_text(reproduced, "date", evidence_[index]->date);
    put_text(reproduced, "environment", environment_summary(evidence_[index]->environment));
    put_text(reproduced, "line", evidence_[index]->line);
    put(page, "reproduced", std::move(reproduced));
  }
  put(page, "dates", dates_data(r, strings));
  put_text(page, "record_href", up + "api/" + id + ".json");
  put_text(page, "markdown_href", up + "md/" + language.code + "/" + id + ".md");
  if (!config_.edit_url.empty() && index < source_paths_.size()) {
    std::string edit = config_.edit_url;
    edit.replace(edit.find("{path}"), 6, source_paths_[index]);
    put_text(page, "edit_href", edit);
  }
  const Language& content_language = translated_page ? language : languages_.front();
  put_text(page, "json_ld", json_ld_text(article_json(r, path, title_text.text, content_language)));
  return page;
}

std::string SiteModel::entry_key(std::size_t index) const {
  if (site_digest_.empty() || record_digests_.size() != rows_.size()) return "";
  Digest key;
  key.add("entry pages 1").add(site_digest_).add(record_digests_[index]);
  key.add(index < source_paths_.size() ? source_paths_[index] : "");
  const Evidence* evidence = index < evidence_.size() ? evidence_[index] : nullptr;
  key.add(evidence ? 1 : 0);
  if (evidence)
    key.add(evidence->date).add(environment_summary(evidence->environment)).add(evidence->line);
  const Relations& relations = relations_[index];
  for (const std::vector<Link>* links :
       {&relations.preceded_by, &relations.leads_to, &relations.confused_with}) {
    key.add(links->size());
    for (const Link& link : *links) {
      key.add(link.id).add(link.edge ? link.edge->dump() : "");
      const auto target = by_id_.find(link.id);
      key.add(target == by_id_.end() ? "" : record_digests_[target->second]);
    }
  }
  return key.hex();
}

std::string SiteModel::entry_page_key(const std::string& entry_key, const Language& language) {
  if (entry_key.empty()) return "";
  Digest key;
  key.add("entry page 2").add(entry_key).add(language.code);
  return key.hex().substr(0, 32);
}

MustacheData SiteModel::related_data(std::size_t index, const Language& language,
                                     const json& strings, const std::string& up) const {
  MustacheData related = list_data();
  reserve(related, 3);
  const Relations& relations = relations_[index];
  const std::pair<const char*, const std::vector<Link>*> groups[] = {
      {"preceded_by", &relations.preceded_by},
      {"leads_to", &relations.leads_to},
      {"confused_with", &relations.confused_with}};
  for (const auto& [key, links] : groups) {
    if (links->empty()) continue;
    MustacheData items = list_data();
    reserve(items, links->size());
    for (const Link& link : *links) {
      MustacheData item = object_data();
      if (link.edge) put_text(item, "detail", transition_detail(*link.edge, strings));
      if (const auto target = by_id_.find(link.id); target != by_id_.end()) {
        const Title t = title(target->second, language);
        put_text(item, "title", short_title(t.text, rows_[target->second].error_code));
        if (t.untranslated) put_text(item, "title_lang", base_lang());
        put_text(item, "href", up + site_entry_path(language.code, link.id));
      } else {
        put_text(item, "title", link.id);
      }
      append(items, std::move(item));
    }
    MustacheData group = object_data();
    put_text(group, "label", ui_label(strings, key));
    put(group, "links", std::move(items));
    append(related, std::move(group));
  }
  return related;
}

json SiteModel::article_json(const ordered_json& r, const std::string& path,
                             const std::string& headline, const Language& language) const {
  json article = {{"@context", "https://schema.org"},
                  {"@type", "TechArticle"},
                  {"headline", headline},
                  {"inLanguage", language.html_lang},
                  {"identifier", string_field(r, "id")},
                  {"description", localized_field(r, "root_cause", language)}};
  if (const std::string date = string_field(r, "first_seen"); !date.empty())
    article["datePublished"] = date;
  if (const std::string date = string_field(r, "last_updated"); !date.empty())
    article["dateModified"] = date;
  if (!config_.base_url.empty()) article["url"] = config_.base_url + path;
  if (const std::string code = string_field(r, "error_code"); !code.empty())
    article["keywords"] = code;
  return article;
}

json SiteModel::home_page(const Language& language, const json& strings) const {
  const std::string path = language.code + "/index.html";
  json page = common(path, "index.html", ui_label(strings, "home"), language);
  const std::string up = page["up"];
  std::size_t workarounds = 0, dead_ends = 0;
  for (const RecordRow& row : rows_) {
    workarounds += row.workarounds;
    dead_ends += row.dead_ends;
  }
  page["totals"] = {{"entries", count_text(rows_.size(), strings)},
                    {"domains", count_text(domains_.size(), strings)},
                    {"workarounds", count_text(workarounds, strings)},
                    {"dead_ends", count_text(dead_ends, strings)}};
  json domains = json::array();
  for (const auto& [domain, members] : domains_) {
    domains.push_back({{"name", domain},
                       {"count", count_text(members.size(), strings)},
                       {"href", up + site_domain_path(language.code, domain)}});
  }
  page["domains"] = std::move(domains);
  json recent = json::array();
  for (std::size_t i : recently_updated(10)) {
    const Title t = title(i, language);
    json item = {{"title", short_title(t.text, rows_[i].error_code)},
                 {"href", up + site_entry_path(language.code, rows_[i].id)},
                 {"date", rows_[i].last_updated}};
    if (t.untranslated) item["title_lang"] = base_lang();
    recent.push_back(std::move(item));
  }
  page["recent"] = std::move(recent);
  page["description"] =
      config_.description.empty() ? ui_label(strings, "home_intro") : config_.description;
  page["match_data"] = up + language.code + "/match.json";  // the paste box
  return page;
}

std::size_t SiteModel::domain_page_count(const std::string& domain) const {
  const std::size_t size = domains_.at(domain).size();
  return size == 0 ? 1 : (size + kDomainPageSize - 1) / kDomainPageSize;
}

SiteModel::DomainSlice SiteModel::domain_slice(const std::string& domain, std::size_t page) const {
  const std::size_t pages = domain_page_count(domain);
  page = std::clamp<std::size_t>(page, 1, pages);
  const std::size_t size = domain_lists_.at(domain).size();
  const std::size_t begin = std::min((page - 1) * kDomainPageSize, size);
  return {page, pages, begin, std::min(begin + kDomainPageSize, size)};
}

std::string SiteModel::domain_page_key(const std::string& domain, const Language& language,
                                       std::size_t page) const {
  if (site_digest_.empty() || record_digests_.size() != rows_.size()) return "";
  const DomainSlice slice = domain_slice(domain, page);
  const std::vector<std::size_t>& list = domain_lists_.at(domain);
  Digest key;
  key.add("domain page 1").add(site_digest_).add(language.code).add(domain);
  key.add(slice.page).add(slice.pages).add(domains_.at(domain).size()).add(list.size());
  for (std::size_t k = slice.begin; k < slice.end; ++k) key.add(record_digests_[list[k]]);
  return key.hex().substr(0, 32);
}

MustacheData SiteModel::domain_page(const std::string& domain, const Language& language,
                                    const json& strings, std::size_t page) const {
  const DomainSlice slice = domain_slice(domain, page);
  page = slice.page;
  const std::size_t pages = slice.pages, begin = slice.begin, end = slice.end;
  const std::string path = site_domain_path(language.code, domain, page);
  // Page k's title ends with its number, whatever the domain's name leaves of it.
  const std::string number = page > 1 ? " – " + page_of(strings, page, pages) : "";
  const std::size_t room = title_room() - std::min(title_room(), code_points(number));
  const std::string heading = head_text(domain, room) + number;
  const json common_data = common(path, path.substr(language.code.size() + 1), heading, language);
  const std::string up = common_data["up"];
  MustacheData model = to_mustache_data(common_data);
  // The page's slice of the domain's list, a section per category, made as mustache data: the
  // list pages of 100,000 entries made as JSON first took twice as long.
  const std::vector<std::size_t>& list = domain_lists_.at(domain);
  MustacheData groups = list_data();
  reserve(groups, end - begin);  // at most a group per entry
  std::optional<MustacheData> entries;
  const std::string* category = nullptr;
  const auto end_group = [&] {
    if (!entries) return;
    MustacheData group = object_data();
    put_text(group, "name", *category);
    put_text(group, "label", value_label(strings, "category_", *category));
    put(group, "entries", std::move(*entries));
    append(groups, std::move(group));
    entries.reset();
  };
  for (std::size_t k = begin; k < end; ++k) {
    const RecordRow& r = rows_[list[k]];
    if (!category || *category != r.category) {
      end_group();
      category = &r.category;
      entries.emplace(list_data());
      reserve(*entries, end - k);
    }
    const Title t = title(list[k], language);
    MustacheData item = object_data();
    put_text(item, "title", short_title(t.text, r.error_code));
    put_text(item, "href", up + site_entry_path(language.code, r.id));
    put_text(item, "error_code", r.error_code);
    if (t.untranslated) put_text(item, "title_lang", base_lang());
    append(*entries, std::move(item));
  }
  end_group();
  put_text(model, "domain", domain);
  put_text(model, "count", count_label(strings, "entries_count", domains_.at(domain).size()));
  put(model, "categories", std::move(groups));
  if (pages > 1) {
    put(model, "pagination",
        to_mustache_data(pagination_data(page, pages, strings, [&](std::size_t k) {
          return up + site_domain_path(language.code, domain, k);
        })));
  }
  return model;
}

json SiteModel::plain_page(const std::string& name, const Language& language,
                           const json& strings) const {
  const std::string path = language.code + "/" + name + ".html";
  json page = common(path, name + ".html",
                     ui_label(strings, name == "search" ? "search" : "not_found_title"), language);
  // Hosts serve the not-found page at whatever address was asked for; with a base_url, a <base>
  // makes its relative links work from any depth.
  if (name == "404" && !config_.base_url.empty())
    page["base_href"] = config_.base_url + language.code + "/";
  page["description"] = ui_label(strings, name == "search" ? "search_label" : "not_found_text");
  if (name == "search")  // the paste box
    page["match_data"] = page["up"].get<std::string>() + language.code + "/match.json";
  return page;
}

}  // namespace kbc
