// A whole lint through the parse cache: the last lint's findings and facts read back, and this
// lint's stored for the next (lint/last_lint.h).
#include <future>
#include <optional>

#include "base/digest.h"
#include "base/timings.h"
#include "lint/last_lint.h"
#include "lint/rule.h"
#include "match/benign_corpus.h"
#include "model/parse_cache.h"

namespace kbc {

std::string benign_digest(const std::vector<BenignFile>& benign) {
  Digest listing;
  for (const BenignFile& file : benign) listing.add(file.path).add(file.text);
  return std::to_string(builtin_benign_lines().size()) + "-" + listing.hex();
}

std::vector<bool> lint_unchanged_files(const LastLint& last, const EntryListing& listing,
                                       const std::vector<BenignFile>& benign) {
  if (!last.has_facts || last.benign != benign_digest(benign)) return {};
  std::vector<bool> unchanged(listing.files.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < listing.files.size(); ++i) {
    const auto it = last.entries.find("entries/" + listing.files[i]);
    unchanged[i] = it != last.entries.end() && it->second.digest == listing.digests[i];
    if (!unchanged[i] && ++changed > kMaxChangedEntries) return {};
  }
  return unchanged;
}

bool add_last_lint_facts(const ParseCache& cache, LastLint& last) {
  const auto facts = cache.find_last_lint_facts();
  return facts && last.add_facts(*facts);
}

std::optional<LastLint> read_last_lint(const ParseCache& cache) {
  const auto stored = cache.find_last_lint();
  return stored ? LastLint::from_bytes(*stored) : std::nullopt;
}

std::optional<Diagnostics> last_lint_findings(const KnowledgeBase& kb,
                                              std::optional<LastLint>& last) {
  if (!last || last->digest != kb.digest) return std::nullopt;
  return std::move(last->findings);
}

Diagnostics run_lint_cached(const KnowledgeBase& kb, ParseCache& cache,
                            std::optional<LastLint> last) {
  if (last && last->digest == kb.digest) return std::move(last->findings);
  std::optional<Phase> step("read the last lint's facts");
  // The facts, for the files that did not change (read before the load, when it loaded slim).
  if (last && !last->has_facts && !add_last_lint_facts(cache, *last)) last.reset();
  step.reset();
  LastLint next;
  run_lint(kb, last ? &*last : nullptr, next);
  last.reset();
  step.emplace("store it for the next");
  // Sorted once here, so that a lint that reads them back (nothing changed) only merges them
  // with the load's diagnostics.
  sort_diagnostics(next.findings);
  // The two parts on two threads (1.2 and 1.1 s at 100,000 entries, one after the other while
  // the other core waited). Either may land first: the facts are used only with findings of the
  // same knowledge base's digest (LastLint::add_facts), so a lint killed between the two renames
  // leaves parts that a later lint either uses together or not at all.
  std::future<void> facts = std::async(std::launch::async, [&cache, &next] {
    cache.store_last_lint_facts([&](std::ostream& out) { return next.write_facts(out); });
  });
  cache.store_last_lint([&](std::ostream& out) { return next.write_findings(out); });
  facts.get();
  return std::move(next.findings);
}

}  // namespace kbc
