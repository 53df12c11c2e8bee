#include "stats/kb_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/text.h"
#include "lint/rule.h"
#include "match/regex_index.h"
#include "model/languages.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using Entries = std::vector<const Entry*>;

// The lists of links under transition_graph, as the schema names them ("/transition_graph/...").
std::vector<std::string> transition_lists() {
  std::vector<std::string> lists;
  for (const auto& [key, value] :
       builtin_entry_schema().at("/properties/transition_graph/properties"_json_pointer).items())
    lists.push_back("/transition_graph/" + key);
  return lists;
}

ordered_json id_list(const std::vector<std::string>& ids) {
  return {{"count", ids.size()}, {"entries", ids}};
}

// --- the files the figures leave out -----------------------------------------------------------

// Ids (from the path) of the files that did not load or that the schema rejected.
ordered_json left_out(const KnowledgeBase& kb) {
  std::set<std::string> ids = kb.file_ids;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok) ids.erase(entry.id_from_path);
  }
  return id_list({ids.begin(), ids.end()});
}

// --- domains and verification tiers ------------------------------------------------------------

ordered_json tier_counts(const std::vector<std::string>& tiers) {
  ordered_json counts = ordered_json::object();
  for (const std::string& tier : tiers) counts[tier] = 0;
  return counts;
}

// Per domain (sorted), the entries in each tier of the schema's enum, then their total.
ordered_json domains_and_tiers(const Entries& entries) {
  const auto tiers = builtin_entry_schema()
                         .at("/properties/verification_tier/enum"_json_pointer)
                         .get<std::vector<std::string>>();
  std::map<std::string, ordered_json> domains;
  ordered_json all = tier_counts(tiers);
  for (const Entry* entry : entries) {
    const std::string tier(entry->text("/verification_tier"));
    ordered_json& counts =
        domains.try_emplace(std::string(entry->text("/domain")), tier_counts(tiers)).first->second;
    counts[tier] = counts[tier].get<int>() + 1;
    all[tier] = all[tier].get<int>() + 1;
  }
  ordered_json by_domain = ordered_json::object();
  for (auto& [domain, counts] : domains) {
    int total = 0;
    for (const auto& count : counts) total += count.get<int>();
    counts["total"] = total;
    by_domain[domain] = std::move(counts);
  }
  return {{"domains", std::move(by_domain)}, {"tiers", std::move(all)}};
}

// --- translations ------------------------------------------------------------------------------

struct TranslatedField {
  std::string english;     // "/root_cause"
  std::string translated;  // "/root_cause_zh"
  bool list;               // a list of texts, translated item by item
};

// The fields of a language other than the base, sorted by name (dead_ends_zh, root_cause_zh,
// signature_zh, workarounds_zh).
std::vector<TranslatedField> translated_fields(const Language& language) {
  std::vector<TranslatedField> fields;
  for (const TranslatedKey& key : translated_keys())
    fields.push_back({"/" + key.key, "/" + language.key(key.key), key.list});
  std::sort(fields.begin(), fields.end(),
            [](const auto& a, const auto& b) { return a.translated < b.translated; });
  return fields;
}

bool has_text(const json& node) { return node.is_string() && !is_blank(node.get<std::string>()); }

// How far the fields of one kind are translated, over some entries. A field counts only where
// the English exists; a list is translated when every item of it is.
struct Coverage {
  std::size_t english = 0, translated = 0;
  std::size_t items_english = 0, items_translated = 0;

  void add(const Coverage& other) {
    english += other.english;
    translated += other.translated;
    items_english += other.items_english;
    items_translated += other.items_translated;
  }
};

Coverage field_coverage(const Entry& entry, const TranslatedField& field) {
  Coverage out;
  if (field.list) {
    const json& english = entry.list(field.english);
    const json& translated = entry.list(field.translated);
    out.items_english = english.size();
    for (std::size_t i = 0; i < std::min(translated.size(), english.size()); ++i)
      out.items_translated += has_text(translated[i]);
    out.english = !english.empty();
    out.translated = out.english && out.items_translated == out.items_english;
  } else if (const json* english = entry.find(field.english); english && has_text(*english)) {
    const json* translated = entry.find(field.translated);
    out.english = 1;
    out.translated = translated && has_text(*translated);
  }
  return out;
}

ordered_json coverage_json(const Coverage& coverage, bool list) {
  ordered_json out = {{"english", coverage.english}, {"translated", coverage.translated}};
  if (list) {
    out["items_english"] = coverage.items_english;
    out["items_translated"] = coverage.items_translated;
  }
  return out;
}

// Entries with every field that has English translated, with some, with none; then per field.
ordered_json language_coverage(const Entries& entries, const std::vector<TranslatedField>& fields) {
  std::vector<Coverage> per_field(fields.size());
  Coverage all;
  std::size_t complete = 0, partial = 0, none = 0;
  for (const Entry* entry : entries) {
    Coverage in_entry;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const Coverage field = field_coverage(*entry, fields[f]);
      per_field[f].add(field);
      in_entry.add(field);
    }
    all.add(in_entry);
    ++(in_entry.translated == in_entry.english ? complete
       : in_entry.translated == 0              ? none
                                               : partial);
  }
  ordered_json by_field = ordered_json::object();
  for (std::size_t f = 0; f < fields.size(); ++f)
    by_field[fields[f].translated.substr(1)] = coverage_json(per_field[f], fields[f].list);
  return {{"entries", {{"complete", complete}, {"partial", partial}, {"none", none}}},
          {"fields", std::move(by_field)},
          {"all_fields", coverage_json(all, false)}};
}

// Per language other than the base, in the knowledge base's order.
ordered_json translations(const Entries& entries, const std::vector<Language>& languages) {
  ordered_json out = ordered_json::object();
  for (const Language& language : languages) {
    if (!language.base)
      out[language.code] = language_coverage(entries, translated_fields(language));
  }
  return out;
}

// --- staleness ---------------------------------------------------------------------------------

struct Confirmed {
  std::string date;  // last_confirmed as written
  std::string id;
  int age;  // days before today
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  auto operator<=>(const Confirmed&) const = default;
};

// Entries last confirmed more than kStaleDays before `today`, oldest first; and those whose
// last_confirmed is not a calendar date, so cannot be aged.
ordered_json staleness(const Entries& entries, std::chrono::sys_days today) {
  std::vector<Confirmed> dated;
  std::vector<std::string> undated;
  for (const Entry* entry : entries) {
    const std::string_view text = entry->text("/last_confirmed");
    const auto date = parse_date(text);
    if (!date || !date->ok()) {
      undated.push_back(entry->id());
      continue;
    }
    const int age = static_cast<int>((today - std::chrono::sys_days(*date)).count());
    dated.push_back({std::string(text), entry->id(), age});
  }
  std::sort(dated.begin(), dated.end());
  std::sort(undated.begin(), undated.end());
  ordered_json out = ordered_json::object();
  for (const int days : kStaleDays) {
    ordered_json stale = ordered_json::array();
    for (const Confirmed& c : dated) {
      if (c.age > days) stale.push_back({{"id", c.id}, {"last_confirmed", c.date}});
    }
    out["over_" + std::to_string(days) + "_days"] = {{"count", stale.size()},
                                                     {"entries", std::move(stale)}};
  }
  out["not_a_date"] = id_list(undated);
  return out;
}

// --- the transition graph ----------------------------------------------------------------------

// Entries that link to no other entry, and those of them that no other entry links to either.
ordered_json transition_links(const Entries& entries) {
  const std::vector<std::string> lists = transition_lists();
  std::set<std::string> linked_to;
  std::vector<std::string> no_outgoing;
  for (const Entry* entry : entries) {
    const std::string id = entry->id();
    bool outgoing = false;
    for (const std::string& list : lists) {
      for (const json& link : entry->list(list)) {
        const auto target = link.is_object() ? link.find("error_id") : link.end();
        if (target == link.end() || !target->is_string() || *target == id) continue;
        outgoing = true;
        linked_to.insert(target->get<std::string>());
      }
    }
    if (!outgoing) no_outgoing.push_back(id);
  }
  std::sort(no_outgoing.begin(), no_outgoing.end());
  std::vector<std::string> isolated;
  std::copy_if(no_outgoing.begin(), no_outgoing.end(), std::back_inserter(isolated),
               [&](const std::string& id) { return !linked_to.count(id); });
  return {{"no_outgoing", id_list(no_outgoing)}, {"isolated", id_list(isolated)}};
}

// --- regex overlap -----------------------------------------------------------------------------

std::set<std::string> confused_with(const Entry& entry) {
  std::set<std::string> ids;
  for (const json& item : entry.list("/transition_graph/frequently_confused_with")) {
    const auto id = item.is_object() ? item.find("error_id") : item.end();
    if (id != item.end() && id->is_string()) ids.insert(id->get<std::string>());
  }
  return ids;
}

// For each valid entry, the other valid entries whose signature or a sample its regex matches.
std::vector<std::set<std::size_t>> overlapping(const KnowledgeBase& kb) {
  std::vector<std::optional<std::string_view>> patterns;
  for (const Entry& entry : kb.entries)
    patterns.push_back(entry.shape_ok ? std::optional(entry.text("/regex")) : std::nullopt);
  const RegexIndex regexes(patterns);
  const auto hits = cross_entry_hits(kb, regexes);
  std::vector<std::set<std::size_t>> out(kb.entries.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    for (const RegexHit& hit : hits[i]) {
      if (kb.entries[hit.entry].shape_ok) out[i].insert(hit.entry);
    }
  }
  return out;
}

// An overlap is an ordered pair (A, B): A's regex matches B's signature or a sample. It is
// declared when A lists B in frequently_confused_with; lint warns about the others.
ordered_json regex_overlaps(const KnowledgeBase& kb) {
  const auto others = overlapping(kb);
  std::size_t matching = 0, overlaps = 0, declared = 0;
  std::set<std::size_t> matched;
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t a = 0; a < others.size(); ++a) {
    if (others[a].empty()) continue;
    ++matching;
    const std::set<std::string> acknowledged = confused_with(kb.entries[a]);
    for (const std::size_t b : others[a]) {
      ++overlaps;
      declared += acknowledged.count(kb.entries[b].id());
      matched.insert(b);
      pairs.insert(std::minmax(a, b));
    }
  }
  return {{"entries_matching_others", matching},
          {"entries_matched", matched.size()},
          {"overlaps", overlaps},
          {"declared", declared},
          {"undeclared", overlaps - declared},
          {"pairs", pairs.size()}};
}

}  // namespace

ordered_json knowledge_base_stats(const KnowledgeBase& kb, std::chrono::sys_days today) {
  Entries valid;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok) valid.push_back(&entry);
  }
  ordered_json stats = {{"version", 1},
                        {"today", date_text(today)},
                        {"files", kb.file_ids.size()},
                        {"entries", valid.size()},
                        {"left_out", left_out(kb)}};
  ordered_json tiers = domains_and_tiers(valid);
  stats["domains"] = std::move(tiers["domains"]);
  stats["tiers"] = std::move(tiers["tiers"]);
  stats["translations"] = translations(valid, kb.languages);
  stats["stale"] = staleness(valid, today);
  stats["links"] = transition_links(valid);
  stats["regex_overlap"] = regex_overlaps(kb);
  return stats;
}

}  // namespace kbc
