// The sections of an entry page that read only the entry itself: facts, the "try first / don't"
// summary, versions, OS notes, workarounds, dead ends, the official documentation and dates.
// SiteModel::entry_page (site_model.h) puts them together with what reads other entries.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "model/languages.h"
#include "render/mustache_data.h"

namespace kbc {

// The UI string `key`, or `fallback` (the key itself when empty) when the strings have none.
std::string ui_label(const nlohmann::json& strings, const std::string& key,
                     const std::string& fallback = "");
// The UI string of an enumerated value (`prefix` + value: "category_runtime_error"), else the
// value with its underscores as spaces.
std::string value_label(const nlohmann::json& strings, const std::string& prefix,
                        const std::string& value);
// object[key] when it is an array, else an empty array.
const nlohmann::ordered_json& list_field(const nlohmann::ordered_json& object, const char* key);
// A rate as "85%", or "—" when it is not a number.
std::string percent_or_dash(const nlohmann::ordered_json& value);
// object[key] = list, and object["has_<key>"] = whether it has items.
void put_list(MustacheData& object, const std::string& key, MustacheData list);

// The error code, classification, rates, tags and aliases, and the root cause.
void put_facts(MustacheData& page, const nlohmann::ordered_json& record, const Language& language,
               const nlohmann::json& strings, const std::string& up);
// The versions: {rows, has_<column>} with the columns that some row fills.
MustacheData versions_data(const nlohmann::ordered_json& record, const nlohmann::json& strings);
MustacheData os_notes_data(const nlohmann::ordered_json& record, const nlohmann::json& strings);
// Workarounds by success rate and dead ends by failure rate, best known first; put as
// "workarounds" and "dead_ends", and the first of each as "try_first" and "avoid".
void put_fixes(MustacheData& page, const nlohmann::ordered_json& record, const Language& language);
std::optional<MustacheData> official_doc_data(const nlohmann::ordered_json& record);
MustacheData dates_data(const nlohmann::ordered_json& record, const nlohmann::json& strings);

}  // namespace kbc
