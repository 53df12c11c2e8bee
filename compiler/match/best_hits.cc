#include "match/best_hits.h"

#include <algorithm>

namespace kbc {
namespace {

void keep(const Matcher& matcher, std::optional<Hit>& kept, Hit&& hit) {
  if (!kept || matcher.before(hit, *kept)) kept = std::move(hit);
}

}  // namespace

void BestHits::offer(const Matcher& matcher, Hit&& hit, std::string_view line) {
  const std::size_t number = hit.line_number;
  auto [it, added] = slots.try_emplace(hit.record);
  Slot& slot = it->second;
  if (added) {
    slot.lines = 1;
    slot.first_line = slot.last_line = number;
  } else if (slot.last_line != number) {
    ++slot.lines;
    slot.last_line = number;
  }
  std::optional<Hit>& kept = hit.by_signature ? slot.signature : slot.regex;
  if (!kept || matcher.before(hit, *kept)) {
    kept = std::move(hit);
    kept->line = line;
  }
}

void BestHits::merge(const Matcher& matcher, BestHits&& later) {
  low_lines += later.low_lines;
  for (Matcher::NearLine& line : later.near_lines) {
    if (near_lines.size() == kNearLines) break;
    near_lines.push_back(std::move(line));
  }
  for (auto& [record, slot] : later.slots) {
    auto [it, added] = slots.try_emplace(record, slot);
    if (added) continue;
    Slot& mine = it->second;
    mine.lines += slot.lines - (mine.last_line == slot.first_line ? 1 : 0);
    mine.last_line = slot.last_line;
    if (slot.signature) keep(matcher, mine.signature, std::move(*slot.signature));
    if (slot.regex) keep(matcher, mine.regex, std::move(*slot.regex));
  }
}

// A penalty only lowers a score, so the records are taken in the order of their best hit
// unpenalized, and a regex's breadth is computed only while a record may still be among the
// first `top`.
std::vector<Hit> BestHits::ranked(const Matcher& matcher, std::size_t top, int min_score) const {
  std::vector<std::pair<Hit, const Slot*>> bounds;  // each record's best hit, unpenalized
  for (const auto& [record, slot] : slots) {
    const Hit& best = !slot.regex ? *slot.signature
                      : !slot.signature || matcher.before(*slot.regex, *slot.signature)
                          ? *slot.regex
                          : *slot.signature;
    bounds.emplace_back(best, &slot);
  }
  std::sort(bounds.begin(), bounds.end(),
            [&](const auto& a, const auto& b) { return matcher.before(a.first, b.first); });
  std::vector<Hit> hits;  // kept sorted, at most `top`
  for (const auto& [bound, slot] : bounds) {
    if (bound.rank.score < min_score) break;
    if (hits.size() == top && !matcher.before(bound, hits.back())) break;
    std::optional<Hit> best = slot->signature;
    if (slot->regex) {
      Hit regex = *slot->regex;
      if (!regex.near) regex.rank.score -= matcher.regex_penalty(regex.record);
      keep(matcher, best, std::move(regex));
    }
    if (best->rank.score < min_score) continue;
    best->lines = slot->lines;
    const auto at =
        std::upper_bound(hits.begin(), hits.end(), *best,
                         [&](const Hit& a, const Hit& b) { return matcher.before(a, b); });
    hits.insert(at, std::move(*best));
    if (hits.size() > top) hits.pop_back();
  }
  return hits;
}

void BestHits::shift(std::size_t lines) {
  for (auto& [record, slot] : slots) {
    if (slot.signature) slot.signature->line_number += lines;
    if (slot.regex) slot.regex->line_number += lines;
    slot.first_line += lines;
    slot.last_line += lines;
  }
  for (Matcher::NearLine& line : near_lines) line.line_number += lines;
}

}  // namespace kbc
