// The figures of match.json that `kbc match` computes rather than reads: how broad each record's
// regex is (breadth.h), as rank.h's breadth_penalty. Measuring it runs every regex over the
// benign corpus and every signature, the most costly part of the site's indexes; so it is done a
// chunk of regexes at a time (as lint does: compiled regexes hold tens of kilobytes each), and a
// build keeps what it measured for the next (BreadthMemo), which measures again only the regexes
// it does not know, as long as the texts they are measured on are the same.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "match/benign_corpus.h"
#include "site/site_model.h"

namespace kbc {

struct MatchFigures {
  std::vector<int> breadth_penalty;  // per record of the model
};

// The penalties one build measured, for the next.
struct BreadthMemo {
  std::string texts;  // a digest of the texts measured on: the benign lines, ids and signatures
  // By a digest of the regex and the error of its entry (whose own signatures do not count).
  std::unordered_map<std::string, int> penalties;
  // Whether the last match_figures changed it: a memo that did not need not be stored again
  // (3 MB at 100,000 entries, 0.45 s to store).
  bool changed = true;

  nlohmann::json to_json() const;
  // nullopt for anything to_json did not write.
  static std::optional<BreadthMemo> from_json(const nlohmann::json& stored);
};

// The figures of the model's records, on `benign` (kbc's own corpus when null). With `memo`: on
// the way in, what the last build measured (any, or none); on the way out, what this one did.
MatchFigures match_figures(const SiteModel& model, const std::vector<BenignLine>* benign = nullptr,
                           BreadthMemo* memo = nullptr);

}  // namespace kbc
