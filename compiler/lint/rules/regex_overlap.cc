// regex-overlap: the regex also recognises another entry's error, so a lookup may return the
// wrong entry. Overlaps the author has acknowledged in frequently_confused_with are fine.
#include <set>

#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

std::set<std::string> confused_with(const Entry& entry) {
  std::set<std::string> ids;
  for (const auto& item : entry.list("/transition_graph/frequently_confused_with")) {
    if (item.is_object() && item.contains("error_id") && item["error_id"].is_string()) {
      ids.insert(item["error_id"].get<std::string>());
    }
  }
  return ids;
}

// Whether the other entry still comes first for its own signature (entry-unreachable).
std::string still_first(const LintContext& context, std::size_t other) {
  const std::size_t winner = context.winners[other];
  if (winner == other) return ", which still comes first for its own signature";
  if (winner == kNoEntry) return "";
  std::string out = ", which does not come first for its own signature ('";
  return out.append(context.kb.entries[winner].id()).append("' does)");
}

void regex_overlap(const Entry& entry, const LintContext& context, Reporter& report) {
  const auto& hits = context.hits[context.index_of(entry)];
  if (hits.empty()) return;
  const std::set<std::string> acknowledged = confused_with(entry);
  std::set<std::size_t> reported;
  for (const RegexHit& hit : hits) {
    const Entry& other = context.kb.entries[hit.entry];
    if (acknowledged.count(other.id()) || !reported.insert(hit.entry).second) continue;
    const std::string what = hit.pointer == "/signature" ? "signature" : "sample";
    // Appended piece by piece: GCC 12 warns wrongly (-Wrestrict) on a long chain of `+`.
    std::string message = "regex also matches the " + what + " of '";
    message.append(other.id()).append("' (").append(other.path).append(":");
    message.append(std::to_string(other.value_at(hit.pointer).line)).append(")");
    message.append(still_first(context, hit.entry));
    message.append("; tighten it, or list that entry in transition_graph.frequently_confused_with");
    report.at_value(entry, "/regex", std::move(message));
  }
}

}  // namespace

constinit const Rule kRegexOverlap = {
    .id = "regex-overlap",
    .severity = Severity::kWarning,
    .summary =
        "the regex matches another entry's signature or sample, and that entry is not in "
        "frequently_confused_with",
    .cross_entry = regex_overlap,
};

}  // namespace kbc::rules
