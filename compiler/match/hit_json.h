// Hits as JSON, for `kbc match --json` and `kbc mcp`.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

#include "match/matcher.h"

namespace kbc {

// A hit for tools: id, signature, line, match, rank, the best workaround and the dead ends.
nlohmann::ordered_json hit_json(const Matcher& matcher, const Hit& hit, std::size_t position);
// What `kbc match --json` prints and `kbc mcp`'s lookup_error answers: the hits of a text of
// `lines` lines, matched with the threshold `min_score`.
nlohmann::ordered_json hits_json(const Matcher& matcher, const std::vector<Hit>& hits,
                                 std::size_t lines, int min_score);

}  // namespace kbc
