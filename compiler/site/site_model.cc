#include "site/site_model.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "base/text.h"
#include "render/mustache_data.h"
#include "render/record.h"
#include "site/markdown_html.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const ordered_json& list(const ordered_json& object, const char* key) {
  static const ordered_json kEmpty = ordered_json::array();
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

std::string percent(const ordered_json& value) {
  return value.is_number() ? percent_text(value.get<double>()) : "—";
}

std::string label(const json& strings, const std::string& key) {
  const auto it = strings.find(key);
  return it != strings.end() && it->is_string() ? it->get<std::string>() : key;
}

// A text in a page's language: {html, untranslated}. A page in another language than the base
// (`translation`) shows the translated text, or the base language's when there is none.
MustacheData translated_text(const std::string& base, const std::string& translated,
                             bool translation, bool inline_markdown) {
  const bool fallback = translation && translated.empty();
  const std::string& shown = translation && !translated.empty() ? translated : base;
  MustacheData text = object_data();
  put_text(text, "html", inline_markdown ? markdown_inline_html(shown) : markdown_html(shown));
  put(text, "untranslated", fallback);
  return text;
}

// object[key] = list, and object["has_<key>"] = whether it has items.
void put_list(MustacheData& object, const std::string& key, MustacheData list) {
  put(object, "has_" + key, !list.list_value().empty());
  put(object, key, std::move(list));
}

// The item's sources as `sources` (a link where the source is a web address) and
// `has_sources`.
void put_sources(MustacheData& out, const ordered_json& item) {
  MustacheData links = list_data();
  for (const auto& source : list(item, "sources")) {
    if (!source.is_string()) continue;
    const std::string& url = source.get_ref<const std::string&>();
    MustacheData link = object_data();
    put_text(link, "text", url);
    if (url.starts_with("https://") || url.starts_with("http://")) put_text(link, "href", url);
    append(links, std::move(link));
  }
  put_list(out, "sources", std::move(links));
}

std::string transition_detail(const ordered_json& item) {
  std::vector<std::string> parts;
  if (item.contains("probability") && item["probability"].is_number())
    parts.push_back(percent(item["probability"]));
  for (const char* key : {"condition", "typical_delay", "distinction"}) {
    if (const std::string value = string_field(item, key); !value.empty()) parts.push_back(value);
  }
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : " · ") + part;
  return out;
}

std::string json_ld_text(const json& value) {
  // Inside <script>, "</" would end the element: escape every '<'.
  return replace_characters(value.dump(), {{'<', "\\u003c"}});
}

// The facts at the top of an entry page: signature, classification, rates and root cause.
void put_facts(MustacheData& page, const ordered_json& r, const Language& language,
               const json& strings, const std::string& up) {
  put_text(page, "signature", string_field(r, "signature"));
  put_text(page, "domain", string_field(r, "domain"));
  put_text(page, "domain_href", up + site_domain_path(language.code, string_field(r, "domain")));
  put_text(page, "category", string_field(r, "category"));
  put_text(page, "subcategory", string_field(r, "subcategory"));
  put_text(page, "error_code", string_field(r, "error_code"));
  put_text(page, "tier", string_field(r, "verification_tier"));
  put_text(page, "tier_label", label(strings, "tier_" + string_field(r, "verification_tier")));
  put_text(page, "fix_rate", percent(r.value("fix_success_rate", ordered_json())));
  put_text(page, "confidence", percent(r.value("confidence", ordered_json())));
  put_text(page, "resolvable", label(strings, "resolvable_" + string_field(r, "resolvable")));
  put(page, "root_cause",
      translated_text(string_field(r, "root_cause"),
                      string_field(r, language.key("root_cause").c_str()), !language.base, false));
  put_text(page, "description", localized_field(r, "root_cause", language));
}

MustacheData versions_data(const ordered_json& r) {
  MustacheData versions = list_data();
  for (const auto& v : list(r, "versions")) {
    const auto or_dash = [&](const char* key) {
      const std::string value = string_field(v, key);
      return value.empty() ? std::string("—") : value;
    };
    MustacheData version = object_data();
    put_text(version, "version", string_field(v, "version"));
    put_text(version, "status", or_dash("status"));
    put_text(version, "introduced", or_dash("introduced"));
    put_text(version, "deprecated", or_dash("deprecated"));
    put_text(version, "removed", or_dash("removed"));
    put_text(version, "behavior_change", markdown_inline_html(string_field(v, "behavior_change")));
    append(versions, std::move(version));
  }
  return versions;
}

MustacheData os_notes_data(const ordered_json& r) {
  MustacheData os_notes = list_data();
  if (const auto it = r.find("os_specific"); it != r.end() && it->is_object()) {
    for (const auto& [os, note] : it->items()) {
      if (!note.is_string()) continue;
      MustacheData item = object_data();
      put_text(item, "os", os);
      put_text(item, "html", markdown_inline_html(note.get<std::string>()));
      append(os_notes, std::move(item));
    }
  }
  return os_notes;
}

MustacheData workarounds_data(const ordered_json& r, const Language& language) {
  MustacheData workarounds = list_data();
  const auto& items = list(r, "workarounds");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& w = items[i];
    MustacheData item = object_data();
    put_text(item, "number", std::to_string(i + 1));
    put(item, "action",
        translated_text(string_field(w, "action"), translated_action(r, "workarounds", i, language),
                        !language.base, true));
    put_text(item, "success", percent(w.value("success_rate", ordered_json())));
    put_text(item, "how", string_field(w, "how"));
    put_text(item, "condition", markdown_inline_html(string_field(w, "condition")));
    put_text(item, "tradeoff", markdown_inline_html(string_field(w, "tradeoff")));
    put_sources(item, w);
    append(workarounds, std::move(item));
  }
  return workarounds;
}

MustacheData dead_ends_data(const ordered_json& r, const Language& language) {
  MustacheData dead_ends = list_data();
  const auto& items = list(r, "dead_ends");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& d = items[i];
    MustacheData item = object_data();
    put(item, "action",
        translated_text(string_field(d, "action"), translated_action(r, "dead_ends", i, language),
                        !language.base, true));
    put_text(item, "fail", percent(d.value("fail_rate", ordered_json())));
    put_text(item, "why_fails", markdown_html(string_field(d, "why_fails")));
    put_text(item, "misconception", markdown_inline_html(string_field(d, "common_misconception")));
    put_sources(item, d);
    append(dead_ends, std::move(item));
  }
  return dead_ends;
}

// The official documentation link, when the entry names one.
std::optional<MustacheData> official_doc_data(const ordered_json& r) {
  const std::string url = string_field(r, "official_doc_url");
  if (url.empty()) return std::nullopt;
  MustacheData doc = object_data();
  put_text(doc, "text", url);
  put_text(doc, "section", string_field(r, "official_doc_section"));
  if (url.starts_with("https://") || url.starts_with("http://")) put_text(doc, "href", url);
  return doc;
}

MustacheData dates_data(const ordered_json& r, const json& strings) {
  MustacheData dates = list_data();
  for (const char* key : {"first_seen", "last_confirmed", "last_updated"}) {
    if (const std::string date = string_field(r, key); !date.empty()) {
      MustacheData item = object_data();
      put_text(item, "label", label(strings, key));
      put_text(item, "date", date);
      append(dates, std::move(item));
    }
  }
  return dates;
}

}  // namespace

std::string site_entry_path(std::string_view language, std::string_view id) {
  return std::string(language) + "/entries/" + std::string(id) + ".html";
}

std::string site_domain_path(std::string_view language, std::string_view domain) {
  return std::string(language) + "/domains/" + std::string(domain) + ".html";
}

std::string up_from(std::string_view path) {
  std::string up;
  for (char c : path) {
    if (c == '/') up += "../";
  }
  return up;
}

SiteModel::SiteModel(std::vector<const ordered_json*> records, SiteConfig config,
                     std::vector<Language> languages)
    : records_(std::move(records)),
      config_(std::move(config)),
      languages_(std::move(languages)),
      relations_(records_.size()) {
  for (std::size_t i = 0; i < records_.size(); ++i) {
    by_id_[string_field(*records_[i], "id")] = i;
    domains_[string_field(*records_[i], "domain")].push_back(i);
  }
  add_relations();
}

void SiteModel::add_relations() {
  const auto add = [](std::vector<Link>& links, const std::string& id, std::string detail) {
    for (const Link& link : links) {
      if (link.id == id) return;  // the entry's own statement comes first and wins
    }
    links.push_back({id, std::move(detail)});
  };
  const auto graph_list = [](const ordered_json& record, const char* key) -> const ordered_json& {
    static const ordered_json kEmpty = ordered_json::array();
    const auto it = record.find("transition_graph");
    if (it == record.end() || !it->is_object()) return kEmpty;
    return list(*it, key);
  };
  // First every entry's own links, then the reverse of everyone else's.
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const std::string self = string_field(*records_[i], "id");
    Relations& r = relations_[i];
    for (const char* key : {"leads_to", "preceded_by", "frequently_confused_with"}) {
      auto& links = key == std::string_view("leads_to")      ? r.leads_to
                    : key == std::string_view("preceded_by") ? r.preceded_by
                                                             : r.confused_with;
      for (const auto& item : graph_list(*records_[i], key)) {
        const std::string target = string_field(item, "error_id");
        if (!target.empty() && target != self) add(links, target, transition_detail(item));
      }
    }
  }
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const std::string self = string_field(*records_[i], "id");
    // A transition's probability and condition describe the edge, whichever side states it;
    // a distinction is written from its author's side ("that one is...") and stays there.
    const auto reverse = [&](const char* key, std::vector<Link> Relations::*other_side,
                             bool keep_detail) {
      for (const auto& item : graph_list(*records_[i], key)) {
        const auto target = by_id_.find(string_field(item, "error_id"));
        if (target == by_id_.end() || target->second == i) continue;
        add(relations_[target->second].*other_side, self,
            keep_detail ? transition_detail(item) : "");
      }
    };
    reverse("leads_to", &Relations::preceded_by, true);
    reverse("preceded_by", &Relations::leads_to, true);
    reverse("frequently_confused_with", &Relations::confused_with, false);
  }
}

std::vector<std::size_t> SiteModel::recently_updated(std::size_t limit) const {
  std::vector<std::size_t> order(records_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return string_field(*records_[a], "last_updated") > string_field(*records_[b], "last_updated");
  });
  if (order.size() > limit) order.resize(limit);
  return order;
}

SiteModel::Title SiteModel::title(std::size_t record, const Language& language) const {
  const ordered_json& r = *records_[record];
  const std::string signature = string_field(r, "signature");
  if (language.base) return {signature, false};
  const std::string translated = string_field(r, language.key("signature").c_str());
  return translated.empty() ? Title{signature, true} : Title{translated, false};
}

json SiteModel::common(const std::string& path, const std::string& alternate_suffix,
                       const std::string& page_title, const Language& language) const {
  const std::string up = up_from(path);
  const std::string lang_root = up + language.code + "/";
  json page;
  page["html_lang"] = language.html_lang;
  page["base_lang"] = base_lang();  // marks the texts that are not translated
  page["page_title"] = page_title;
  page["site_title"] = config_.title;
  page["up"] = up;
  page["lang_up"] = up_from(path.substr(language.code.size() + 1));
  page["home"] = lang_root + "index.html";
  page["search_page"] = lang_root + "search.html";
  page["search_dir"] = lang_root + "search/";
  if (!config_.base_url.empty()) {
    page["canonical"] = config_.base_url + path;
    page["feed"] = lang_root + "feed.xml";
  }
  json alternates = json::array();
  json switches = json::array();  // the language switcher: the same page in the other languages
  for (const Language& other : languages_) {
    const std::string href = up + other.code + "/" + alternate_suffix;
    alternates.push_back({{"hreflang", other.html_lang}, {"href", href}});
    if (other.code != language.code)
      switches.push_back({{"href", href}, {"hreflang", other.html_lang}, {"label", other.name}});
  }
  alternates.push_back(
      {{"hreflang", "x-default"}, {"href", up + languages_.front().code + "/" + alternate_suffix}});
  page["alternates"] = std::move(alternates);
  page["switch"] = std::move(switches);
  return page;
}

MustacheData SiteModel::entry_page(std::size_t index, const Language& language,
                                   const json& strings) const {
  const ordered_json& r = *records_[index];
  const std::string id = string_field(r, "id");
  const std::string path = site_entry_path(language.code, id);
  const Title heading = title(index, language);
  const std::string up = up_from(path);
  MustacheData page =
      to_mustache_data(common(path, "entries/" + id + ".html", heading.text, language));
  put_text(page, "id", id);
  MustacheData title_data = object_data();
  put_text(title_data, "text", heading.text);
  put(title_data, "untranslated", heading.untranslated);
  put(page, "title", std::move(title_data));
  put_facts(page, r, language, strings, up);
  put_list(page, "versions", versions_data(r));
  put_list(page, "os_notes", os_notes_data(r));
  put_list(page, "workarounds", workarounds_data(r, language));
  put_list(page, "dead_ends", dead_ends_data(r, language));
  put_list(page, "related", related_data(index, language, strings, up));
  if (auto doc = official_doc_data(r)) put(page, "official_doc", std::move(*doc));
  put(page, "dates", dates_data(r, strings));
  put_text(page, "record_href", up + "api/" + id + ".json");
  put_text(page, "markdown_href", up + "md/" + language.code + "/" + id + ".md");
  put_text(page, "json_ld", json_ld_text(article_json(r, path, heading.text, language)));
  return page;
}

MustacheData SiteModel::related_data(std::size_t index, const Language& language,
                                     const json& strings, const std::string& up) const {
  MustacheData related = list_data();
  const Relations& relations = relations_[index];
  const std::pair<const char*, const std::vector<Link>*> groups[] = {
      {"preceded_by", &relations.preceded_by},
      {"leads_to", &relations.leads_to},
      {"confused_with", &relations.confused_with}};
  for (const auto& [key, links] : groups) {
    if (links->empty()) continue;
    MustacheData items = list_data();
    for (const Link& link : *links) {
      MustacheData item = object_data();
      put_text(item, "detail", link.detail);
      if (const auto target = by_id_.find(link.id); target != by_id_.end()) {
        const Title t = title(target->second, language);
        put_text(item, "title", t.text);
        if (t.untranslated) put_text(item, "title_lang", base_lang());
        put_text(item, "href", up + site_entry_path(language.code, link.id));
      } else {
        put_text(item, "title", link.id);
      }
      append(items, std::move(item));
    }
    MustacheData group = object_data();
    put_text(group, "label", label(strings, key));
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
  json page = common(path, "index.html", label(strings, "home"), language);
  const std::string up = page["up"];
  std::size_t workarounds = 0, dead_ends = 0;
  for (const auto* record : records_) {
    workarounds += list(*record, "workarounds").size();
    dead_ends += list(*record, "dead_ends").size();
  }
  page["totals"] = {{"entries", std::to_string(records_.size())},
                    {"domains", std::to_string(domains_.size())},
                    {"workarounds", std::to_string(workarounds)},
                    {"dead_ends", std::to_string(dead_ends)}};
  json domains = json::array();
  for (const auto& [domain, members] : domains_) {
    domains.push_back({{"name", domain},
                       {"count", std::to_string(members.size())},
                       {"href", up + site_domain_path(language.code, domain)}});
  }
  page["domains"] = std::move(domains);
  json recent = json::array();
  for (std::size_t i : recently_updated(10)) {
    const Title t = title(i, language);
    json item = {{"title", t.text},
                 {"href", up + site_entry_path(language.code, string_field(*records_[i], "id"))},
                 {"date", string_field(*records_[i], "last_updated")}};
    if (t.untranslated) item["title_lang"] = base_lang();
    recent.push_back(std::move(item));
  }
  page["recent"] = std::move(recent);
  page["description"] = label(strings, "home_intro");
  page["match_data"] = up + language.code + "/match.json";  // the paste box
  return page;
}

json SiteModel::domain_page(const std::string& domain, const Language& language) const {
  const std::string path = site_domain_path(language.code, domain);
  json page = common(path, "domains/" + domain + ".html", domain, language);
  const std::string up = page["up"];
  std::map<std::string, json> categories;
  const auto& members = domains_.at(domain);
  for (std::size_t i : members) {
    const Title t = title(i, language);
    json item = {{"title", t.text},
                 {"href", up + site_entry_path(language.code, string_field(*records_[i], "id"))},
                 {"error_code", string_field(*records_[i], "error_code")}};
    if (t.untranslated) item["title_lang"] = base_lang();
    categories[string_field(*records_[i], "category")].push_back(std::move(item));
  }
  json groups = json::array();
  for (auto& [name, entries] : categories)
    groups.push_back({{"name", name}, {"entries", std::move(entries)}});
  page["domain"] = domain;
  page["count"] = std::to_string(members.size());
  page["categories"] = std::move(groups);
  return page;
}

json SiteModel::plain_page(const std::string& name, const Language& language,
                           const json& strings) const {
  const std::string path = language.code + "/" + name + ".html";
  json page = common(path, name + ".html",
                     label(strings, name == "search" ? "search" : "not_found_title"), language);
  // Hosts serve the not-found page at whatever address was asked for; with a base_url, a <base>
  // makes its relative links work from any depth.
  if (name == "404" && !config_.base_url.empty())
    page["base_href"] = config_.base_url + language.code + "/";
  if (name == "search")  // the paste box
    page["match_data"] = page["up"].get<std::string>() + language.code + "/match.json";
  return page;
}

}  // namespace kbc
