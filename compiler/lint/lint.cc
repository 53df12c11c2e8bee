#include <algorithm>
#include <optional>

#include "lint/rule.h"

#include "base/parallel.h"
#include "base/timings.h"

namespace kbc {

void Reporter::at_value(const Entry& entry, std::string_view pointer, std::string message) {
  out_.push_back({entry.path, entry.value_at(pointer), rule_.severity, std::move(message),
                  std::string(rule_.id), "", std::string(pointer)});
}

void Reporter::at_key(const Entry& entry, std::string_view pointer, std::string message) {
  out_.push_back({entry.path, entry.key_at(pointer), rule_.severity, std::move(message),
                  std::string(rule_.id), "", std::string(pointer)});
}

namespace {

// The texts an entry's regex is meant to recognise: its signature and its samples.
std::vector<std::string> own_text_pointers(const Entry& entry) {
  std::vector<std::string> pointers;
  if (entry.find("/signature") && entry.find("/signature")->is_string())
    pointers.push_back("/signature");
  const auto& samples = entry.list("/samples");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (samples[i].is_string()) pointers.push_back("/samples/" + std::to_string(i));
  }
  return pointers;
}

}  // namespace

std::vector<std::vector<RegexHit>> cross_entry_hits(const KnowledgeBase& kb,
                                                    const RegexIndex& regexes) {
  // Each worker matches a slice of the texts; the hits are gathered in entry order afterwards.
  std::vector<std::vector<std::pair<std::size_t, RegexHit>>> per_owner(kb.entries.size());
  parallel_slices(kb.entries.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t owner = begin; owner < end; ++owner) {
      for (const std::string& pointer : own_text_pointers(kb.entries[owner])) {
        for (std::size_t matcher : regexes.matching(kb.entries[owner].text(pointer))) {
          if (matcher != owner) per_owner[owner].push_back({matcher, {owner, pointer}});
        }
      }
    }
  });
  std::vector<std::vector<RegexHit>> hits(kb.entries.size());
  for (auto& owner_hits : per_owner) {
    for (auto& [matcher, hit] : owner_hits) hits[matcher].push_back(std::move(hit));
  }
  return hits;
}

Diagnostics run_lint(const KnowledgeBase& kb, const std::set<std::string>& only) {
  const auto checked = [&](const Entry& entry) { return only.empty() || only.count(entry.path); };
  std::vector<std::optional<std::string_view>> patterns;
  for (const Entry& entry : kb.entries) {
    const auto* regex = entry.find("/regex");
    patterns.push_back(regex && regex->is_string() && checked(entry)
                           ? std::optional(entry.text("/regex"))
                           : std::nullopt);
  }
  std::optional<Phase> phase("regex index");
  const RegexIndex regexes(patterns);
  phase.emplace("cross-entry matches");
  const auto hits = cross_entry_hits(kb, regexes);
  phase.emplace("signature winners");
  const auto winners = signature_winners(kb, regexes);
  phase.emplace("rules");
  const LintContext context{kb, regexes, hits, winners};
  // Each worker checks a slice of the entries; the caller sorts the findings, so the order in
  // which slices finish does not show in the output.
  std::vector<Diagnostics> per_slice(std::max<std::size_t>(1, kb.entries.size()));
  parallel_slices(kb.entries.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    Diagnostics& found = per_slice[begin];
    for (const Rule& rule : all_rules()) {
      if (!rule.check) continue;
      Reporter reporter(rule, found);
      for (std::size_t i = begin; i < end; ++i) {
        if (checked(kb.entries[i])) rule.check(kb.entries[i], context, reporter);
      }
    }
  });
  Diagnostics out;
  for (Diagnostics& found : per_slice) {
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  return out;
}

}  // namespace kbc
