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

// The record as written to api/<id>.json: two-space indented, ending in a newline.
std::string record_text(const nlohmann::ordered_json& record);

}  // namespace kbc
