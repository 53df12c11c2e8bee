// What matching needs of an entry, and what a hit shows of it: one MatchRecord per entry, read
// from a checked entry or from a published record, which have the same field names.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "model/knowledge_base.h"

namespace kbc {

// A workaround or a dead end, as a hit shows it.
struct MatchAction {
  std::string action;
  std::string how;        // workarounds only
  std::string condition;  // when it applies (workarounds only)
  double rate = 0;        // success_rate of a workaround, fail_rate of a dead end
};

struct MatchRecord {
  std::string id;
  std::string signature;
  std::string regex;
  double fix_success_rate = 0;
  std::optional<MatchAction> best_workaround;  // the highest success_rate; the first on a tie
  std::optional<MatchAction> next_workaround;  // the next, as a reader's second choice
  std::vector<MatchAction> dead_ends;          // in the entry's order
  std::vector<std::string> aliases;            // other texts of the error (near matches)
  std::string error_code;
  std::vector<std::string> tags;
};

// The record of an entry, or of a published record: both are JSON objects with the same keys.
// Missing or mistyped fields are left empty.
MatchRecord match_record(const nlohmann::json& object);

// The schema-valid entries of a knowledge base, in id order.
std::vector<MatchRecord> match_records(const KnowledgeBase& kb);

// Keeps `action` as the record's best workaround when its rate is the highest so far (the first
// on a tie), or as the next best.
void offer_workaround(MatchRecord& record, MatchAction&& action);

}  // namespace kbc
