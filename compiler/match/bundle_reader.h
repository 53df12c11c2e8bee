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

// The same, from the bundle's JSON text, read with simdjson's DOM parser into the fields that a
// MatchRecord reads: `kbc match` loads the corpus's 8 MB bundle in 0.004-0.01 s (nlohmann's SAX
// parser on two threads took 0.05 s). A text with any fault is read again with nlohmann's SAX
// parser, which reports it: throws nlohmann::json::parse_error (or out_of_range, for a number
// too large) when the text is not JSON, as nlohmann::json::parse does, before any record at
// fault, and else ToolError naming the first record at fault.
std::vector<MatchRecord> match_records_from_bundle_text(std::string_view json);

// The same through nlohmann's SAX parser alone: what reports a faulty bundle, and the reference
// that tests and the fuzz target hold the simdjson reader to.
std::vector<MatchRecord> match_records_from_bundle_sax(std::string_view json);

}  // namespace kbc
