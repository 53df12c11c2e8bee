#include "render/record.h"

#include <algorithm>
#include <optional>

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// An empty object with room for `keys` keys: an ordered_json object is a vector of its pairs,
// whose key is const, so each growth copies every key before it (a fifth of making a record).
ordered_json object_with_room(std::size_t keys) {
  ordered_json object = ordered_json::object();
  object.get_ref<ordered_json::object_t&>().reserve(keys);
  return object;
}

ordered_json value_or(const json& object, const char* key, const ordered_json& fallback) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? fallback : ordered_json(*it);
}

// Rates are always written as floating-point numbers (1.0, not 1), as in the published records.
ordered_json rate(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return nullptr;
  return it->get<double>();
}

void copy_if_present(const json& from, ordered_json& to, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (from.contains(key)) to[key] = from.at(key);
  }
}

ordered_json version(const json& item) {
  ordered_json out = object_with_room(6);
  out["version"] = value_or(item, "version", nullptr);
  for (const char* key : {"introduced", "deprecated", "removed", "behavior_change", "status"}) {
    out[key] = value_or(item, key, nullptr);
  }
  return out;
}

ordered_json dead_end(const json& item) {
  ordered_json out = object_with_room(7);
  out["action"] = value_or(item, "action", "");
  out["why_fails"] = value_or(item, "why_fails", "");
  out["fail_rate"] = rate(item, "fail_rate");
  out["condition"] = value_or(item, "condition", "");
  out["sources"] = value_or(item, "sources", ordered_json::array());
  copy_if_present(item, out, {"common_misconception", "tradeoff"});
  return out;
}

ordered_json workaround(const json& item) {
  ordered_json out = object_with_room(7);
  out["action"] = value_or(item, "action", "");
  out["success_rate"] = rate(item, "success_rate");
  out["how"] = value_or(item, "how", "");
  out["condition"] = value_or(item, "condition", "");
  out["sources"] = value_or(item, "sources", ordered_json::array());
  copy_if_present(item, out, {"common_misconception", "tradeoff"});
  return out;
}

ordered_json link(const json& item) {
  ordered_json out = object_with_room(5);
  out["error_id"] = value_or(item, "error_id", "");
  if (item.contains("probability")) out["probability"] = rate(item, "probability");
  copy_if_present(item, out, {"condition", "typical_delay", "distinction"});
  return out;
}

template <typename Convert>
ordered_json map_list(const json& entry, const char* key, Convert convert) {
  ordered_json out = ordered_json::array();
  if (const auto it = entry.find(key); it != entry.end() && it->is_array()) {
    for (const json& item : *it) out.push_back(convert(item));
  }
  return out;
}

ordered_json transition_graph(const json& entry) {
  const json graph = entry.value("transition_graph", json::object());
  ordered_json out = object_with_room(3);
  for (const char* key : {"leads_to", "preceded_by", "frequently_confused_with"}) {
    out[key] = map_list(graph, key, link);
  }
  return out;
}

// Each language's copy of `key` but the base's: `fallback` where the entry has none, or, without
// a fallback, only where it has one.
void add_translations(ordered_json& r, const json& e, const std::vector<Language>& languages,
                      const char* key, const std::optional<ordered_json>& fallback) {
  for (const Language& language : languages) {
    if (language.base) continue;
    const std::string translated = language.key(key);
    if (fallback)
      r[translated] = value_or(e, translated.c_str(), *fallback);
    else if (e.contains(translated))
      r[translated] = e.at(translated);
  }
}

}  // namespace

ordered_json published_record(const Entry& entry, const std::vector<Language>& languages,
                              const Evidence* evidence) {
  const json& e = entry.data;
  ordered_json r = object_with_room(32 + 5 * languages.size());
  r["id"] = e.at("id");
  r["signature"] = e.at("signature");
  add_translations(r, e, languages, "signature", ordered_json());
  r["regex"] = e.at("regex");
  r["domain"] = e.at("domain");
  r["category"] = e.at("category");
  r["subcategory"] = value_or(e, "subcategory", nullptr);
  r["root_cause"] = e.at("root_cause");
  r["root_cause_type"] = value_or(e, "root_cause_type", nullptr);
  add_translations(r, e, languages, "root_cause", ordered_json());
  r["versions"] = map_list(e, "versions", version);
  r["os_specific"] = value_or(e, "os_specific", ordered_json::object());
  r["dead_ends"] = map_list(e, "dead_ends", dead_end);
  r["workarounds"] = map_list(e, "workarounds", workaround);
  add_translations(r, e, languages, "workarounds", ordered_json::array());
  add_translations(r, e, languages, "dead_ends", std::nullopt);
  r["transition_graph"] = transition_graph(e);
  for (const char* key : {"official_doc_url", "official_doc_section", "error_code"}) {
    r[key] = value_or(e, key, nullptr);
  }
  r["verification_tier"] = e.at("verification_tier");
  r["confidence"] = rate(e, "confidence");
  r["fix_success_rate"] = rate(e, "fix_success_rate");
  for (const char* key :
       {"resolvable", "first_seen", "last_confirmed", "last_updated", "evidence_count"}) {
    r[key] = e.at(key);
  }
  r["tags"] = value_or(e, "tags", ordered_json::array());
  r["locale"] = e.at("locale");
  r["aliases"] = value_or(e, "aliases", ordered_json::array());
  if (evidence) apply_evidence(r, *evidence);
  return r;
}

void apply_evidence(ordered_json& record, const Evidence& evidence) {
  record["verification_tier"] = "verified";
  if (evidence.date > string_field(record, "last_confirmed"))
    record["last_confirmed"] = evidence.date;
  const auto count = record.find("evidence_count");
  const long long authored =
      count != record.end() && count->is_number_integer() ? count->get<long long>() : 0;
  record["evidence_count"] = authored + 1;
}

std::string translated_action(const ordered_json& record, const char* list, std::size_t i,
                              const Language& language) {
  if (language.base) return "";
  const auto it = record.find(language.key(list));
  if (it == record.end() || !it->is_array() || i >= it->size() || !(*it)[i].is_string()) return "";
  return (*it)[i].get<std::string>();
}

std::string record_text(const ordered_json& record) { return record.dump(2) + "\n"; }

std::string indented_record(std::string_view record_text) {
  // The text without its final newline, with "  " after each other newline.
  const std::string_view body =
      record_text.substr(0, record_text.empty() ? 0 : record_text.size() - 1);
  std::string indented;
  indented.reserve(body.size() + 2 * static_cast<std::size_t>(std::ranges::count(body, '\n')));
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t line = std::min(body.find('\n', at), body.size() - 1) + 1;
    indented.append(body.substr(at, line - at));
    if (body[line - 1] == '\n') indented += "  ";
    at = line;
  }
  return indented;
}

std::string unindented_record(std::string_view indented) {
  // A dump has no newline inside a string, so each newline is followed by the two spaces added.
  std::string text;
  text.reserve(indented.size() + 1);
  for (std::size_t at = 0; at < indented.size();) {
    const std::size_t end = std::min(indented.find('\n', at), indented.size());
    text.append(indented.substr(at, end - at));
    if (end == indented.size()) break;
    text += '\n';
    at = std::min(indented.size(), end + 3);
  }
  text += '\n';
  return text;
}

std::vector<std::string_view> bundle_pieces(const std::vector<std::string_view>& indented) {
  if (indented.empty()) return {"[]\n"};
  std::vector<std::string_view> pieces = {"[\n"};
  pieces.reserve(2 * indented.size() + 2);
  for (std::size_t r = 0; r < indented.size(); ++r) {
    pieces.push_back(r == 0 ? "  " : ",\n  ");
    pieces.push_back(indented[r]);
  }
  pieces.push_back("\n]\n");
  return pieces;
}

std::string bundle_text(const std::vector<std::string_view>& record_texts) {
  std::vector<std::string> records;
  for (const std::string_view text : record_texts) records.push_back(indented_record(text));
  const std::vector<std::string_view> pieces =
      bundle_pieces(std::vector<std::string_view>(records.begin(), records.end()));
  std::size_t size = 0;
  for (const std::string_view piece : pieces) size += piece.size();
  std::string bundle;
  bundle.reserve(size);  // one allocation of its exact size
  for (const std::string_view piece : pieces) bundle += piece;
  return bundle;
}

std::string string_field(const nlohmann::ordered_json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string localized_field(const nlohmann::ordered_json& record, const char* key,
                            const Language& language) {
  const std::string translated = string_field(record, language.key(key).c_str());
  return translated.empty() ? string_field(record, key) : translated;
}

}  // namespace kbc
