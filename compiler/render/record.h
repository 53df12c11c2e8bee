// Render: an entry as the published JSON record (the shape of seeds/001).
//
// Every record has the same keys in the same order, with null, [] or {} where the entry leaves
// an optional key out, so consumers never test for presence. Authoring-only keys (samples,
// counter_samples) stay out; dead_ends_zh and the item keys common_misconception and tradeoff
// appear only where the entry has them.
#pragma once

#include <nlohmann/json.hpp>

#include "model/entry.h"

namespace kbc {

// The record of a schema-valid entry.
nlohmann::ordered_json published_record(const Entry& entry);

// The string at `key` of a record (or one of its items); "" for null, missing or not text.
std::string string_field(const nlohmann::ordered_json& object, const char* key);

// The Chinese text of `key` (`<key>_zh`) when `zh` and the record has one, else the English.
std::string localized_field(const nlohmann::ordered_json& record, const char* key, bool zh);

// The record as written to api/<id>.json: two-space indented, ending in a newline.
std::string record_text(const nlohmann::ordered_json& record);

}  // namespace kbc
