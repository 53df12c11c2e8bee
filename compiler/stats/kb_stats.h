// kbc stats: figures about a knowledge base as a whole, for the people who maintain it.
//
// Entries per domain and verification tier, how much is translated into each language but the
// base (kbc.yaml's languages), which entries have not been confirmed for half a year or a year,
// which stand outside the transition graph, and how often one entry's regex also recognises
// another entry's error. It reads the model after
// loading and validation; lint's findings are not needed. Entries the schema rejected (or that
// did not load at all) are counted and named, and left out of every other figure, since their
// fields cannot be trusted.
//
// The figures are one JSON document (keys in a fixed order, lists sorted), so that
// `--format json` is the document itself and the text report is rendered from it.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>

#include "model/knowledge_base.h"

namespace kbc {

// An entry counts as stale when its last_confirmed lies more than this many days before today.
inline constexpr int kStaleDays[] = {180, 365};

// The figures for `kb` as of `today` (the reference date for staleness; an input, so that the
// report is the same on every run for the same date).
nlohmann::ordered_json knowledge_base_stats(const KnowledgeBase& kb, std::chrono::sys_days today);

}  // namespace kbc
