// The text form of `kbc stats`: the document knowledge_base_stats() makes, as aligned sections
// and tables for a person to read. `--format json` prints the document itself.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace kbc {

// Lists of ids show their first `list_limit` items, then how many more there are (the JSON
// document has them all).
std::string format_stats_text(const nlohmann::ordered_json& stats, std::size_t list_limit = 10);

}  // namespace kbc
