// Reading a published bundle (kb.json) into the records a Matcher needs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "match/match_record.h"

namespace kbc {

// The records of a bundle (a JSON array of records). Throws ToolError when it is not an array of
// objects each with a text `id` and `regex`, naming the first record at fault.
std::vector<MatchRecord> match_records_from_bundle(const nlohmann::json& bundle);

// The same, from the bundle's JSON text, read with nlohmann's SAX parser into the fields that a
// MatchRecord reads (the rest, such as the text in each language, is lexed but never stored): no
// document is built, and `kbc match` loads the corpus's 8 MB bundle in 0.07-0.11 s instead of
// 0.13-0.15 s. Throws nlohmann::json::parse_error (or out_of_range, for a number too large) when
// the text is not JSON, as nlohmann::json::parse does, and before any record at fault.
std::vector<MatchRecord> match_records_from_bundle_text(std::string_view json);

// Where a bundle's text may be cut in two for two threads to read: a comma between two elements
// of its top-level array, the first at or after the middle of the text, found by following its
// strings and nesting. It is not a parser: each half is then parsed, and on any fault the whole
// text is read again on one thread. nullopt when there is none, or the text is no array.
std::optional<std::size_t> bundle_middle_cut(std::string_view json);

}  // namespace kbc
