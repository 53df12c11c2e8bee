#include "site/entry_sections.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "base/text.h"
#include "render/record.h"
#include "site/markdown_html.h"
#include "site/site_model.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

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

// The item's sources as `sources` (a link where the source is a web address) and
// `has_sources`.
void put_sources(MustacheData& out, const ordered_json& item) {
  MustacheData links = list_data();
  reserve(links, list_field(item, "sources").size());
  for (const auto& source : list_field(item, "sources")) {
    if (!source.is_string()) continue;
    const std::string& url = source.get_ref<const std::string&>();
    MustacheData link = object_data();
    put_text(link, "text", url);
    if (url.starts_with("https://") || url.starts_with("http://")) put_text(link, "href", url);
    append(links, std::move(link));
  }
  put_list(out, "sources", std::move(links));
}

// The strings of a list field (tags, aliases) as [{text}].
MustacheData texts_data(const ordered_json& record, const char* key) {
  MustacheData out = list_data();
  reserve(out, list_field(record, key).size());
  for (const auto& item : list_field(record, key)) {
    if (!item.is_string() || is_blank(item.get<std::string>())) continue;
    MustacheData text = object_data();
    put_text(text, "text", item.get<std::string>());
    append(out, std::move(text));
  }
  return out;
}

double rate_of(const ordered_json& item, const char* key) {
  const auto it = item.find(key);
  return it != item.end() && it->is_number() ? it->get<double>() : -1;
}

// The positions of `items` by `rate_key`, highest first (ties: as written).
std::vector<std::size_t> by_rate(const ordered_json& items, const char* rate_key) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return rate_of(items[a], rate_key) > rate_of(items[b], rate_key);
  });
  return order;
}

// The items of r[key] (workarounds or dead ends) by `rate_key`, highest first, each with its
// number, its action in the page's language, its rate as `rate_name` and its sources; `fill`
// adds what only that kind of item has. `first` gets a copy of the first item.
template <typename Fill>
MustacheData ranked_items(const ordered_json& r, const char* key, const char* rate_key,
                          const char* rate_name, const Language& language,
                          std::optional<MustacheData>& first, Fill fill) {
  MustacheData list = list_data();
  const auto& items = list_field(r, key);
  reserve(list, items.size());
  int number = 0;
  for (std::size_t i : by_rate(items, rate_key)) {
    const auto& source = items[i];
    MustacheData item = object_data();
    put_text(item, "number", std::to_string(++number));
    put(item, "action",
        translated_text(string_field(source, "action"), translated_action(r, key, i, language),
                        !language.base, true));
    put_text(item, rate_name, percent_or_dash(source.value(rate_key, ordered_json())));
    fill(item, source);
    put_sources(item, source);
    if (number == 1) first = item;
    append(list, std::move(item));
  }
  return list;
}

}  // namespace

const ordered_json& list_field(const ordered_json& object, const char* key) {
  static const ordered_json kEmpty = ordered_json::array();
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

std::string percent_or_dash(const ordered_json& value) {
  return value.is_number() ? percent_text(value.get<double>()) : "—";
}

std::string ui_label(const json& strings, const std::string& key, const std::string& fallback) {
  const auto it = strings.find(key);
  if (it != strings.end() && it->is_string()) return it->get<std::string>();
  return fallback.empty() ? key : fallback;
}

std::string value_label(const json& strings, const std::string& prefix, const std::string& value) {
  if (value.empty()) return value;
  std::string words = value;
  std::replace(words.begin(), words.end(), '_', ' ');
  return ui_label(strings, prefix + value, words);
}

void put_list(MustacheData& object, const std::string& key, MustacheData list) {
  put(object, "has_" + key, !list.list_value().empty());
  put(object, key, std::move(list));
}

void put_facts(MustacheData& page, const ordered_json& r, const Language& language,
               const json& strings, const std::string& up) {
  put_text(page, "signature", string_field(r, "signature"));
  put_text(page, "domain", string_field(r, "domain"));
  put_text(page, "domain_href", up + site_domain_path(language.code, string_field(r, "domain")));
  put_text(page, "category", value_label(strings, "category_", string_field(r, "category")));
  put_text(page, "subcategory",
           value_label(strings, "subcategory_", string_field(r, "subcategory")));
  put_text(page, "error_code", string_field(r, "error_code"));
  put_text(page, "tier", string_field(r, "verification_tier"));
  put_text(page, "tier_label", ui_label(strings, "tier_" + string_field(r, "verification_tier")));
  put_text(page, "fix_rate", percent_or_dash(r.value("fix_success_rate", ordered_json())));
  put_text(page, "confidence", percent_or_dash(r.value("confidence", ordered_json())));
  put_text(page, "resolvable", ui_label(strings, "resolvable_" + string_field(r, "resolvable")));
  put_list(page, "tags", texts_data(r, "tags"));
  put_list(page, "aliases", texts_data(r, "aliases"));
  put(page, "root_cause",
      translated_text(string_field(r, "root_cause"),
                      string_field(r, language.key("root_cause").c_str()), !language.base, false));
  put_text(page, "description", first_sentence(localized_field(r, "root_cause", language), 157));
}

MustacheData versions_data(const ordered_json& r, const json& strings) {
  MustacheData rows = list_data();
  bool filled[4] = {false, false, false, false};  // status, introduced, deprecated, removed
  bool has_change = false;
  for (const auto& v : list_field(r, "versions")) {
    MustacheData version = object_data();
    put_text(version, "version", string_field(v, "version"));
    const char* keys[] = {"status", "introduced", "deprecated", "removed"};
    for (int k = 0; k < 4; ++k) {
      std::string value = string_field(v, keys[k]);
      filled[k] = filled[k] || !value.empty();
      if (k == 0) value = value_label(strings, "status_", value);
      put_text(version, keys[k], value.empty() ? std::string("—") : value);
    }
    const std::string change = string_field(v, "behavior_change");
    has_change = has_change || !change.empty();
    put_text(version, "behavior_change", markdown_inline_html(change));
    append(rows, std::move(version));
  }
  MustacheData versions = object_data();
  put(versions, "has_status", filled[0]);
  put(versions, "has_introduced", filled[1]);
  put(versions, "has_deprecated", filled[2]);
  put(versions, "has_removed", filled[3]);
  put(versions, "has_behavior_change", has_change);
  put(versions, "rows", std::move(rows));
  return versions;
}

MustacheData os_notes_data(const ordered_json& r, const json& strings) {
  MustacheData os_notes = list_data();
  if (const auto it = r.find("os_specific"); it != r.end() && it->is_object()) {
    for (const auto& [os, note] : it->items()) {
      if (!note.is_string()) continue;
      MustacheData item = object_data();
      put_text(item, "os", value_label(strings, "os_", os));
      put_text(item, "html", markdown_inline_html(note.get<std::string>()));
      append(os_notes, std::move(item));
    }
  }
  return os_notes;
}

void put_fixes(MustacheData& page, const ordered_json& r, const Language& language) {
  std::optional<MustacheData> best, most_failed;
  put_list(page, "workarounds",
           ranked_items(
               r, "workarounds", "success_rate", "success", language, best,
               [](MustacheData& item, const ordered_json& w) {
                 put_text(item, "how", string_field(w, "how"));
                 put_text(item, "condition", markdown_inline_html(string_field(w, "condition")));
                 put_text(item, "tradeoff", markdown_inline_html(string_field(w, "tradeoff")));
               }));
  put_list(page, "dead_ends",
           ranked_items(r, "dead_ends", "fail_rate", "fail", language, most_failed,
                        [](MustacheData& item, const ordered_json& d) {
                          put_text(item, "why_fails", markdown_html(string_field(d, "why_fails")));
                          put_text(item, "misconception",
                                   markdown_inline_html(string_field(d, "common_misconception")));
                        }));
  if (best) put(page, "try_first", std::move(*best));
  if (most_failed) put(page, "avoid", std::move(*most_failed));
}

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
      put_text(item, "label", ui_label(strings, key));
      put_text(item, "date", date);
      append(dates, std::move(item));
    }
  }
  return dates;
}

}  // namespace kbc
