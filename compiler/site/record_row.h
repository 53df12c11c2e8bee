// What the site reads of a record beyond its own entry page: the fields of the lists (home,
// domain pages, feeds, sitemap, llms.txt), the search index and the paste box's data, and the
// edges of its transition graph. A row is a small part of its record (a tenth, as the site holds
// them), so a build holds the rows of every entry and reads a whole record again only for the
// entry pages it renders.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "model/languages.h"

namespace kbc {

struct RecordRow {
  // An edge of the transition graph: the entry it names and what the record says of it.
  struct Edge {
    std::string target;
    nlohmann::ordered_json item;
  };
  std::string id, signature, error_code, domain, category, last_updated, regex;
  // Per language of the row (the base first): the translated signature ("" where there is none,
  // and in the base language), the root cause as localized_field gives it, and whether the
  // record has any text of its own in the language (SiteModel::translated).
  std::vector<std::string> signatures, root_causes;
  std::vector<char> translated;
  std::vector<std::string> tags, aliases;  // their strings
  double fix_success_rate = 0;             // 0 when it is not a number
  std::size_t workarounds = 0, dead_ends = 0;
  std::vector<Edge> leads_to, preceded_by, confused_with;  // in the record's order
  // The regex as the paste box runs it (match/js_regex.h, match/rank.h): [its JavaScript source
  // (null when it has none or JavaScript cannot express it), its flags, its specificity, the
  // literals one of which a text it matches holds, its more specific alternatives as
  // [specificity, source, flags]]. Made with the row, so that a build after an edit translates
  // the changed entries' regexes only (site/record_cache.h).
  nlohmann::ordered_json paste_regex;
};

// The row of a published record in the knowledge base's `languages`, the base first.
RecordRow record_row(const nlohmann::ordered_json& record, const std::vector<Language>& languages);

// A row as one JSON array, for the build's cache of what it made of each entry, and back:
// nullopt for a value that row_to_json did not make.
nlohmann::ordered_json row_to_json(const RecordRow& row);
std::optional<RecordRow> row_from_json(const nlohmann::ordered_json& value);

}  // namespace kbc
