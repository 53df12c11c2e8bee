// Where `kbc match` and `kbc mcp` read their entries: a published bundle (kb.json), or the
// schema-valid entries of a knowledge base (no lint), for consumers who have no YAML and for
// authors alike.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "match/match_record.h"
#include "model/knowledge_base.h"

namespace kbc {

// The bundle of 100,000 entries is 318 MB; one of 1 GiB takes about 4 GB to read.
inline constexpr std::size_t kMaxBundleBytes = std::size_t{1} << 30;
// A record is five levels deep; a bundle nested deeper than this is refused.
inline constexpr int kMaxBundleDepth = 32;

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_error(const std::exception& error);

// The bundle at `path`, parsed. Throws ToolError "kbc <command>: ..." when it cannot be read,
// is over kMaxBundleBytes, nests deeper than kMaxBundleDepth or is not JSON.
template <typename Json>
Json read_bundle(std::string_view command, const std::string& path);

// match_records_from_bundle, its ToolError prefixed with "kbc <command>: <path>: ".
std::vector<MatchRecord> bundle_match_records(std::string_view command, const std::string& path,
                                              const nlohmann::json& bundle);

// The records of the bundle at `path`, read as `read_bundle` reads it, but without the document:
// what `kbc match` needs. Throws ToolError "kbc <command>: ..." as the two functions above.
std::vector<MatchRecord> read_bundle_match_records(std::string_view command,
                                                   const std::string& path);

// The entries under `root`, as load_entries reads them; says on stderr how many are left out
// because the schema rejects them (kbc lint says why).
KnowledgeBase load_lookup_entries(std::string_view command, const std::string& root, bool cache);

}  // namespace kbc
