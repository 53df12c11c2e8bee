#include "site/record_row.h"

#include "base/text.h"
#include "match/js_regex.h"
#include "match/rank.h"
#include "render/record.h"
#include "site/entry_sections.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

// The strings of the array at `key`; none when it is not an array.
std::vector<std::string> texts_of(const ordered_json& record, const char* key) {
  std::vector<std::string> texts;
  const auto it = record.find(key);
  if (it == record.end() || !it->is_array()) return texts;
  for (const auto& item : *it) {
    if (item.is_string()) texts.push_back(item.get<std::string>());
  }
  return texts;
}

// Whether the record has any text of its own in a language other than the base.
bool has_own_text(const ordered_json& record, const Language& language) {
  for (const char* key : {"signature", "root_cause", "workarounds", "dead_ends"}) {
    const auto it = record.find(language.key(key));
    if (it != record.end() && !(it->is_string() && is_blank(it->get<std::string>())) &&
        !(it->is_array() && it->empty()) && !it->is_null())
      return true;
  }
  return false;
}

// The items of transition_graph[key] that are objects naming another entry.
std::vector<RecordRow::Edge> edges(const ordered_json& record, const char* key) {
  std::vector<RecordRow::Edge> out;
  const auto graph = record.find("transition_graph");
  if (graph == record.end() || !graph->is_object()) return out;
  for (const auto& item : list_field(*graph, key))
    out.push_back({string_field(item, "error_id"), item});
  return out;
}

ordered_json edges_to_json(const std::vector<RecordRow::Edge>& edges) {
  ordered_json out = ordered_json::array();
  for (const RecordRow::Edge& edge : edges) out.push_back({edge.target, edge.item});
  return out;
}

std::vector<RecordRow::Edge> edges_from_json(const ordered_json& value) {
  std::vector<RecordRow::Edge> edges;
  for (const ordered_json& edge : value.get_ref<const ordered_json::array_t&>())
    edges.push_back({edge.at(0).get<std::string>(), edge.at(1)});
  return edges;
}

// RecordRow::paste_regex of `regex`.
ordered_json paste_regex(const std::string& regex) {
  const JsRegex js = is_blank(regex) ? JsRegex{} : js_regex(regex);
  ordered_json alternatives = ordered_json::array();
  if (js.ok) {  // more specific than the regex, most specific first
    for (const auto& [specificity, alternative] : specific_alternatives(regex)) {
      const JsRegex part = js_regex(alternative);
      if (part.ok) alternatives.push_back({specificity, part.source, part.flags});
    }
  }
  return {js.ok ? ordered_json(js.source) : ordered_json(), js.flags, regex_specificity(regex),
          js.needs, std::move(alternatives)};
}

}  // namespace

ordered_json row_to_json(const RecordRow& row) {
  return {row.id,
          row.signature,
          row.error_code,
          row.domain,
          row.category,
          row.last_updated,
          row.regex,
          row.signatures,
          row.root_causes,
          row.translated,
          row.tags,
          row.aliases,
          row.fix_success_rate,
          row.workarounds,
          row.dead_ends,
          edges_to_json(row.leads_to),
          edges_to_json(row.preceded_by),
          edges_to_json(row.confused_with),
          row.paste_regex};
}

std::optional<RecordRow> row_from_json(const ordered_json& value) {
  try {
    if (!value.is_array() || value.size() != 19 || !value[18].is_array() || value[18].size() != 5)
      return std::nullopt;
    RecordRow row;
    std::string* const texts[] = {&row.id,       &row.signature,    &row.error_code, &row.domain,
                                  &row.category, &row.last_updated, &row.regex};
    for (std::size_t i = 0; i < std::size(texts); ++i) *texts[i] = value[i].get<std::string>();
    value[7].get_to(row.signatures);
    value[8].get_to(row.root_causes);
    value[9].get_to(row.translated);
    value[10].get_to(row.tags);
    value[11].get_to(row.aliases);
    row.fix_success_rate = value[12].get<double>();
    row.workarounds = value[13].get<std::size_t>();
    row.dead_ends = value[14].get<std::size_t>();
    row.leads_to = edges_from_json(value[15]);
    row.preceded_by = edges_from_json(value[16]);
    row.confused_with = edges_from_json(value[17]);
    row.paste_regex = value[18];
    return row;
  } catch (const std::exception&) {
    return std::nullopt;  // not what row_to_json made
  }
}

RecordRow record_row(const ordered_json& record, const std::vector<Language>& languages) {
  RecordRow row;
  row.id = string_field(record, "id");
  row.signature = string_field(record, "signature");
  row.error_code = string_field(record, "error_code");
  row.domain = string_field(record, "domain");
  row.category = string_field(record, "category");
  row.last_updated = string_field(record, "last_updated");
  row.regex = string_field(record, "regex");
  for (const Language& language : languages) {
    row.signatures.push_back(
        language.base ? "" : string_field(record, language.key("signature").c_str()));
    row.root_causes.push_back(localized_field(record, "root_cause", language));
    row.translated.push_back(language.base || has_own_text(record, language) ? 1 : 0);
  }
  row.tags = texts_of(record, "tags");
  row.aliases = texts_of(record, "aliases");
  const auto rate = record.find("fix_success_rate");
  if (rate != record.end() && rate->is_number()) row.fix_success_rate = rate->get<double>();
  row.workarounds = list_field(record, "workarounds").size();
  row.dead_ends = list_field(record, "dead_ends").size();
  row.leads_to = edges(record, "leads_to");
  row.preceded_by = edges(record, "preceded_by");
  row.confused_with = edges(record, "frequently_confused_with");
  row.paste_regex = paste_regex(row.regex);
  return row;
}

}  // namespace kbc
