#include "lint/regex_pool.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "base/parallel.h"
#include "base/text.h"
#include "match/regex_plans.h"

namespace kbc {

std::optional<std::string_view> regex_of(const Entry& entry) {
  const auto* regex = entry.find("/regex");
  return regex && regex->is_string() ? std::optional(entry.text("/regex")) : std::nullopt;
}

LoneRegex::LoneRegex(std::optional<std::string_view> pattern) {
  if (!pattern) return;
  RegexPlan plan = plan_regex(*pattern, filter);
  error = std::move(plan.error);
  compiled = error.empty();
  atoms = std::move(plan.atoms);
  clauses = std::move(plan.clauses);
}

RegexPool::RegexPool(const KnowledgeBase& kb, const std::vector<const LastLint::EntryFacts*>& facts)
    : kb_(kb), facts_(facts), lone_(kb.entries.size()), lazy_(kb.entries.size()) {
  for (std::size_t i = 0; i < kb.entries.size(); ++i) {
    if (!facts[i]) lone_[i] = std::make_unique<LoneRegex>(regex_of(kb.entries[i]));
  }
}

void RegexPool::drop_compiled_on_demand() {
  for (auto& regex : lazy_) regex.reset();
}

void RegexPool::index_atoms() {
  // Of each atom, by the unchanged regexes' clauses.
  std::unordered_map<std::string_view, std::size_t> uses;
  for (std::size_t i = 0; i < kb_.entries.size(); ++i) {
    if (lone_[i] || !facts_[i]->compiled) continue;
    for (const std::vector<int>& clause : facts_[i]->clauses) {
      for (const int atom : clause) ++uses[facts_[i]->atoms[static_cast<std::size_t>(atom)]];
    }
  }
  std::map<std::string_view, std::size_t> numbers;
  std::vector<std::pair<std::size_t, std::size_t>> filed;  // (atom, entry)
  for (std::size_t i = 0; i < kb_.entries.size(); ++i) {
    if (lone_[i] || !facts_[i]->compiled) {
      if (lone_[i] && lone_[i]->compiled) always_.push_back(i);
      continue;
    }
    const auto text = [&](int atom) -> const std::string& {
      return facts_[i]->atoms[static_cast<std::size_t>(atom)];
    };
    const std::vector<int>* clause = rarest_clause(
        facts_[i]->clauses, [&](int atom) { return uses.at(text(atom)); },
        [&](int atom) {
          return text(atom).size() >= AtomFinder::kMinAtomBytes && is_ascii(text(atom));
        });
    if (!clause) {
      always_.push_back(i);
      continue;
    }
    for (const int atom : *clause) {
      const auto [at, added] = numbers.emplace(text(atom), numbers.size());
      filed.emplace_back(at->second, i);
    }
  }
  atoms_.resize(numbers.size());
  for (const auto& [atom, number] : numbers) atoms_[number] = atom;
  by_atom_.resize(atoms_.size());
  for (const auto& [atom, entry] : filed) by_atom_[atom].push_back(entry);
  finder_.emplace(std::vector<std::string_view>(atoms_.begin(), atoms_.end()));
}

std::vector<std::size_t> RegexPool::matching(std::string_view text) {
  if (!finder_) index_atoms();
  fold_for_atoms(text, folded_);
  found_.clear();
  finder_->find(folded_, found_);
  std::vector<std::size_t> candidates = always_;
  for (const int atom : found_)
    candidates.insert(candidates.end(), by_atom_[atom].begin(), by_atom_[atom].end());
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::erase_if(candidates, [&](std::size_t i) { return !lone_[i] && !may_match(*facts_[i]); });
  std::vector<std::size_t> uncompiled;
  for (const std::size_t i : candidates) {
    if (!lone_[i] && !lazy_[i]) uncompiled.push_back(i);
  }
  parallel_slices(
      uncompiled.size(),
      [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i) {
          const Entry& entry = kb_.entries[uncompiled[i]];
          lazy_[uncompiled[i]] = std::make_unique<RE2>(*regex_of(entry), entry_regex_options());
        }
      },
      16);
  std::erase_if(candidates, [&](std::size_t i) {
    return !RE2::PartialMatch(text, lone_[i] ? *lone_[i]->regex() : *lazy_[i]);
  });
  return candidates;
}

bool RegexPool::may_match(const LastLint::EntryFacts& facts) const {
  const auto occurs = [&](const std::string& atom) {
    return folded_.find(atom) != std::string::npos || !is_ascii(atom);
  };
  return holds_each_clause(
      facts.clauses, [&](int atom) { return occurs(facts.atoms[static_cast<std::size_t>(atom)]); });
}

}  // namespace kbc
