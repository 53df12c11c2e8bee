// The best hit of each entry over the lines matched so far: what a Matcher collects from a text,
// and what LogScan collects from each part of a log and merges in the text's order.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "match/matcher.h"

namespace kbc {

// The best hit of each record so far, its signature's and its regex's apart, and the first and
// last lines it matched (a line is counted once, even when it was matched in pieces or by both
// patterns). A regex's hits are ranked without its breadth penalty while the text is scanned:
// the penalty is the same for all of them, so it does not change which is the best, and it is
// computed only for the records that may be shown (`ranked`).
struct BestHits {
  struct Slot {
    std::optional<Hit> signature;  // the best hit by the signature
    std::optional<Hit> regex;      // the best hit by the regex (or a near match), unpenalized
    std::size_t lines = 0;
    std::size_t first_line = 0;
    std::size_t last_line = 0;
  };
  std::map<std::size_t, Slot> slots;
  std::size_t low_lines = 0;                  // lines of a log matched only against the low index
  std::vector<Matcher::NearLine> near_lines;  // the first kNearLines lines with an error word

  void keep_near(std::size_t line_number, std::string_view line, LineKind kind) {
    if (near_lines.size() < kNearLines)
      near_lines.push_back({line_number, std::string(line), kind});
  }

  // `hit` comes without its line, which is copied only when the hit is kept.
  void offer(const Matcher& matcher, Hit&& hit, std::string_view line);

  // Takes in the hits of later lines (their line numbers already shifted).
  void merge(const Matcher& matcher, BestHits&& later);

  // Shifts the line numbers by `lines`, for hits found in a part that follows that many lines.
  void shift(std::size_t lines);

  // The best hit of each record, its regex's penalized by its breadth, scoring min_score or
  // more, best first, at most `top`.
  std::vector<Hit> ranked(const Matcher& matcher, std::size_t top, int min_score) const;
};

}  // namespace kbc
