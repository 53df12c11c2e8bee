// Which entry `kbc match` ranks first for each entry's own signature, without building a matcher
// over the whole knowledge base (that would compile every regex a second time).
//
// A signature that is one line (nearly all of them) matches itself as a literal (trimmed, as
// the matcher finds it and trims each line), covering the whole line, with the highest specificity
// a pattern can have on that line (regex_specificity never counts more code points than a match
// holds) and the signature flag (rank.h). No regex can tie with that, so only entries with the same
// signature, ignoring ASCII case, compete, and among them the fix rate decides. Any other
// signature (several lines, or one over kMaxLineBytes) competes with every regex that matches one
// of its lines and every signature found in it, so its matcher holds those entries. With FILE
// arguments, `matching` knows only the checked entries' regexes, so that second case may miss an
// unchanged entry's regex until the next full lint.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "base/text.h"
#include "lint/rule.h"
#include "match/matcher.h"
#include "match/rank.h"

namespace kbc {
namespace {

// The matcher finds a signature trimmed, and only when it is one line (signature_literal).
bool is_plain_line(std::string_view signature) {
  signature = trim(signature);
  return !signature.empty() && signature.find('\n') == std::string_view::npos &&
         signature.size() <= kMaxLineBytes;
}

// The entry among `candidates` (indexes into kb.entries) that a matcher over them ranks first
// for `text`, or kNoEntry when none matches.
std::size_t first_for(const KnowledgeBase& kb, const std::vector<std::size_t>& candidates,
                      std::string_view text) {
  std::vector<MatchRecord> records;
  for (std::size_t entry : candidates) records.push_back(match_record(kb.entries[entry].data));
  const Matcher matcher(std::move(records));
  const std::vector<Hit> hits = matcher.match_text(text, 1);
  return hits.empty() ? kNoEntry : candidates[hits.front().record];
}

// The lines of `text` as the matcher sees them: trimmed, not empty.
std::vector<std::string_view> trimmed_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    if (const std::string_view line = trim(text.substr(0, end)); !line.empty())
      lines.push_back(line);
    text.remove_prefix(std::min(text.size(), end + 1));
  }
  return lines;
}

}  // namespace

std::vector<std::string_view> signature_winner_queries(const KnowledgeBase& kb) {
  std::vector<std::string_view> queries;
  for (const Entry& entry : kb.entries) {
    if (!entry.shape_ok || is_plain_line(entry.text("/signature"))) continue;
    for (const std::string_view line : trimmed_lines(entry.text("/signature")))
      queries.push_back(line);
  }
  std::sort(queries.begin(), queries.end());
  queries.erase(std::unique(queries.begin(), queries.end()), queries.end());
  return queries;
}

namespace {

// The signatures of every entry, lowered, made when first needed.
class LoweredSignatures {
 public:
  explicit LoweredSignatures(const KnowledgeBase& kb) : kb_(kb) {}
  // Every signature lowered once, not once for each entry that asks (quadratic at 100,000).
  const std::vector<std::pair<std::string, std::size_t>>& all() {
    if (!made_) {
      made_ = true;
      for (std::size_t other = 0; other < kb_.entries.size(); ++other) {
        if (const auto text = lowered(other)) all_.emplace_back(*text, other);
      }
    }
    return all_;
  }
  // Entry `other`'s signature trimmed and lowered, when it is checked and not blank.
  std::optional<std::string> lowered(std::size_t other) const {
    const std::string_view text = trim(kb_.entries[other].text("/signature"));
    if (!kb_.entries[other].shape_ok || text.empty()) return std::nullopt;
    return ascii_lower(text);
  }

 private:
  const KnowledgeBase& kb_;
  bool made_ = false;
  std::vector<std::pair<std::string, std::size_t>> all_;
};

// Whether a changed entry may now be among the candidates of `entry` (its signature `lowered`):
// its regex matches a line of it, or its signature is in it.
bool changed_entry_joins(const KnowledgeBase& kb, const KnownChoices& known,
                         const LoweredSignatures& signatures, std::size_t entry,
                         const std::string& lowered) {
  for (const std::string_view line : trimmed_lines(kb.entries[entry].text("/signature"))) {
    for (std::size_t other : known.changed_matching(line))
      if (kb.entries[other].shape_ok) return true;
  }
  return std::any_of(known.changed.begin(), known.changed.end(), [&](std::size_t other) {
    const auto text = signatures.lowered(other);
    return text && lowered.find(*text) != std::string::npos;
  });
}

}  // namespace

std::vector<std::size_t> signature_winners(const KnowledgeBase& kb, const RegexesMatching& matching,
                                           std::vector<WinnerChoice>* choices,
                                           const KnownChoices* known) {
  const std::size_t n = kb.entries.size();
  std::vector<std::size_t> winners(n, kNoEntry);
  if (choices) choices->assign(n, {});
  std::map<std::string, std::vector<std::size_t>> same_signature;  // lowered -> plain entries
  std::vector<std::size_t> others;                                 // entries with any other
  for (std::size_t i = 0; i < n; ++i) {
    const Entry& entry = kb.entries[i];
    if (!entry.shape_ok) continue;
    const std::string_view signature = entry.text("/signature");
    if (is_plain_line(signature)) {
      same_signature[ascii_lower(trim(signature))].push_back(i);
    } else {
      others.push_back(i);
    }
  }
  for (const auto& [lowered, group] : same_signature) {
    // Each signature of the group, as a literal, covers each other's line alike (they differ in
    // ASCII case at most), so the rank is decided by the fix rate, then the id.
    const auto fix_rate = [&](std::size_t entry) {
      const auto* rate = kb.entries[entry].find("/fix_success_rate");
      return rate_permille(rate && rate->is_number() ? rate->get<double>() : 0);
    };
    const std::size_t first = *std::min_element(group.begin(), group.end(), [&](auto a, auto b) {
      const int rate_a = fix_rate(a), rate_b = fix_rate(b);
      return rate_a != rate_b ? rate_a > rate_b : kb.entries[a].id() < kb.entries[b].id();
    });
    for (std::size_t entry : group) winners[entry] = first;
  }
  LoweredSignatures signatures(kb);
  for (std::size_t entry : others) {
    const std::string_view signature = kb.entries[entry].text("/signature");
    const std::string lowered = ascii_lower(signature);
    std::optional<WinnerChoice> choice = known ? known->choice(entry) : std::nullopt;
    if (choice && changed_entry_joins(kb, *known, signatures, entry, lowered)) choice.reset();
    if (!choice) {
      choice.emplace();
      std::vector<std::size_t>& candidates = choice->candidates;
      candidates.push_back(entry);
      for (const std::string_view line : trimmed_lines(signature)) {
        for (std::size_t other : matching(line)) candidates.push_back(other);
      }
      for (const auto& [text, other] : signatures.all()) {
        if (lowered.find(text) != std::string::npos) candidates.push_back(other);
      }
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      std::erase_if(candidates, [&](std::size_t other) { return !kb.entries[other].shape_ok; });
      choice->winner = first_for(kb, candidates, signature);
    }
    winners[entry] = choice->winner;
    if (choices) (*choices)[entry] = std::move(*choice);
  }
  return winners;
}

}  // namespace kbc
