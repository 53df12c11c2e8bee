#include "match/regex_index.h"

#include <algorithm>
#include <thread>

#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace {

// Distinct sets of atoms whose candidates a Scratch keeps (then it starts over).
constexpr std::size_t kMaxCachedAtomSets = 1 << 16;
// The DFA budget of each of the small sets (RE2's default is 8 MB).
constexpr std::int64_t kSetMemory = std::int64_t{64} << 20;
// The two code points beyond ASCII that RE2, ignoring case, takes for ASCII letters.
constexpr std::string_view kLongS = "\xc5\xbf";           // U+017F, an 's'
constexpr std::string_view kKelvinSign = "\xe2\x84\xaa";  // U+212A, a 'k'

re2::StringPiece piece(std::string_view text) { return {text.data(), text.size()}; }

void replace_all(std::string& text, std::string_view from, char to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
    text.replace(at, from.size(), 1, to);
}

// A set of `patterns`, or nullptr when there are none or it cannot be built.
std::unique_ptr<RE2::Set> compiled_set(const std::vector<std::string>& patterns) {
  if (patterns.empty()) return nullptr;
  RE2::Options options = entry_regex_options();
  options.set_max_mem(kSetMemory);
  auto set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
  for (const std::string& pattern : patterns) {
    if (set->Add(pattern, nullptr) < 0) return nullptr;
  }
  return set->Compile() ? std::move(set) : nullptr;
}

// The indexes of the patterns of `set` that match `text`, into `matched`. False when the set's
// DFA ran out of memory, and the caller must assume that every pattern matches.
bool set_matches(const RE2::Set& set, std::string_view text, std::vector<int>& matched) {
  RE2::Set::ErrorInfo error{};
  return set.Match(piece(text), &matched, &error) || error.kind == RE2::Set::kNoError;
}

// The group of shards a pattern goes to (regex_index.h): 1 when it has three digits in a row,
// which may make an atom of digits alone, as in `(410.*Gone|endpoint.*removed)`. Taken modulo
// the index's number of groups: the distinct-texts form has one.
std::size_t group_of(std::string_view pattern) {
  std::size_t run = 0;
  for (char c : pattern) {
    run = c >= '0' && c <= '9' ? run + 1 : 0;
    if (run == 3) return 1;
  }
  return 0;
}

// Whether RE2, ignoring case, matches the atom `atom` (lowercased by FilteredRE2) exactly where
// fold_for_atoms(text) holds it, so that the AtomFinder can find it: its ASCII letters fold as
// fold_for_atoms folds them, and each run of it beyond ASCII matches only itself, which RE2's
// PossibleMatchRange shows by giving the run as both bounds (every anchored match lies between
// them). Chinese, Japanese and Korean have no case; é, ß and Cyrillic letters do.
bool caseless_beyond_ascii(std::string_view atom) {
  const auto ascii = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
  for (std::size_t at = 0; at < atom.size();) {
    if (ascii(atom[at])) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < atom.size() && !ascii(atom[end])) ++end;
    const std::string run(atom.substr(at, end - at));
    const RE2 regex("(?i)" + RE2::QuoteMeta(run), entry_regex_options());
    std::string min, max;
    if (!regex.ok() || !regex.PossibleMatchRange(&min, &max, static_cast<int>(4 * run.size())) ||
        min != run || max != run)
      return false;
    at = end;
  }
  return true;
}

}  // namespace

bool fold_for_atoms(std::string_view text, std::string& out) {
  ascii_lower(text, out);
  if (is_ascii(text)) return true;
  replace_all(out, kLongS, 's');
  replace_all(out, kKelvinSign, 'k');
  return false;
}

std::string too_long_pattern_error() {
  return "longer than " + std::to_string(RegexIndex::kMaxPatternBytes) + " bytes, so not compiled";
}

bool may_match_empty(const RE2& regex) {
  const std::string& pattern = regex.pattern();
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] == '\\' && pattern[++i] == 'b') return true;
  }
  // Unanchored on "", as the searches that follow: the same DFA of RE2's.
  return regex.Match("", 0, 0, RE2::UNANCHORED, nullptr, 0);
}

bool finds_not_empty(const RE2& regex, std::string_view text, bool may_be_empty) {
  if (!may_be_empty) return regex.Match(piece(text), 0, text.size(), RE2::UNANCHORED, nullptr, 0);
  re2::StringPiece found;
  return regex.Match(piece(text), 0, text.size(), RE2::UNANCHORED, &found, 1) && !found.empty();
}

RE2::Options entry_regex_options() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

RegexIndex::RegexIndex(const std::vector<std::optional<std::string_view>>& given,
                       const std::vector<bool>& literal,
                       const std::vector<std::string_view>& markers, RegexPlans* plans)
    : errors_(given.size()),
      location_(given.size(), {-1, -1}),
      literals_(given.size()),
      may_be_empty_(std::make_unique<std::atomic<std::uint8_t>[]>(given.size())) {
  // What RE2 compiles: the regexes, and the literals that the atoms cannot find, quoted.
  std::vector<std::optional<std::string_view>> patterns = given;
  std::vector<std::string> quoted(given.size());
  for (std::size_t i = 0; i < std::min(given.size(), literal.size()); ++i) {
    if (!literal[i] || !given[i]) continue;
    const std::string_view text = *given[i];
    if (is_ascii(text) && text.size() >= AtomFinder::kMinAtomBytes) {
      ascii_lower(text, literals_[i]);
      patterns[i] = std::nullopt;
    } else {
      quoted[i] = std::string("(?i)").append(RE2::QuoteMeta(piece(text)));
      patterns[i] = quoted[i];
    }
  }
  if (plans) {
    collect_plan_atoms(patterns, *plans);
  } else {
    build_shards(patterns);
  }
  index_atoms(markers);
  build_sets();
}

RegexIndex::RegexIndex(const std::vector<std::optional<std::string_view>>& patterns, DistinctTexts)
    : groups_(1),
      errors_(patterns.size()),
      location_(patterns.size(), {-1, -1}),
      literals_(patterns.size()),
      may_be_empty_(std::make_unique<std::atomic<std::uint8_t>[]>(patterns.size())) {
  build_shards(patterns);
  index_atoms({});
  build_sets();
  parallel_blocks(shards_.size(), [&](std::size_t begin, std::size_t end) {
    std::vector<int> one(1), ids;
    for (std::size_t s = begin; s < end; ++s) {
      Shard& shard = *shards_[s];
      if (shard.entries.empty()) continue;
      shard.single.resize(shard.atoms.size());
      for (std::size_t atom = 0; atom < shard.atoms.size(); ++atom) {
        one[0] = static_cast<int>(atom);
        shard.filter.AllPotentials(one, &ids);
        for (const int id : ids) {
          if (!shard.unfiltered[id]) shard.single[atom].push_back(id);
        }
      }
    }
  });
}

void RegexIndex::build_shards(const std::vector<std::optional<std::string_view>>& patterns) {
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  for (std::size_t i = 0; i < cores * groups_; ++i) {
    shards_.push_back(std::make_unique<Shard>());
    shards_.back()->group = i % groups_;
  }
  // Sliced by the regexes given, not by their indexes: lint gives a chunk of them, all in one
  // slice of the indexes.
  std::vector<std::size_t> given_at;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (patterns[i]) given_at.push_back(i);
  }
  parallel_slices(given_at.size(), [&](std::size_t begin, std::size_t end, std::size_t worker) {
    const std::span<const std::size_t> slice(given_at.data() + begin, end - begin);
    for (std::size_t group = 0; group < groups_; ++group)
      build_shard(*shards_[worker * groups_ + group], slice, patterns);
  });
  collect_shard_atoms();
}

RegexIndex::~RegexIndex() = default;

void RegexIndex::build_shard(Shard& shard, std::span<const std::size_t> given_at,
                             const std::vector<std::optional<std::string_view>>& patterns) {
  const RE2::Options options = entry_regex_options();
  for (const std::size_t i : given_at) {
    if (!patterns[i] || group_of(*patterns[i]) % groups_ != shard.group) continue;
    if (patterns[i]->size() > kMaxPatternBytes) {
      errors_[i] = too_long_pattern_error();
      continue;
    }
    int id = -1;
    if (shard.filter.Add(*patterns[i], options, &id) != RE2::NoError) {
      errors_[i] = RE2(*patterns[i], options).error();  // FilteredRE2 keeps no message
      continue;
    }
    shard.entries.push_back(i);
  }
  // FilteredRE2::Compile on an empty filter logs an error and leaves it unusable.
  if (shard.entries.empty()) return;
  shard.filter.Compile(&shard.atoms);
  std::vector<int> always;
  shard.filter.AllPotentials({}, &always);
  shard.unfiltered.assign(shard.entries.size(), false);
  for (int id : always) shard.unfiltered[id] = true;
}

void RegexIndex::collect_shard_atoms() {
  std::unordered_map<std::string_view, int> distinct;
  for (std::uint32_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    for (std::size_t id = 0; id < shard.entries.size(); ++id) {
      location_[shard.entries[id]] = {s, static_cast<int>(id)};
      if (shard.unfiltered[id]) unfiltered_.push_back(shard.entries[id]);
    }
    for (std::size_t a = 0; a < shard.atoms.size(); ++a) {
      const auto [it, added] =
          distinct.try_emplace(shard.atoms[a], static_cast<int>(atoms_.size()));
      if (added) {
        atoms_.push_back(shard.atoms[a]);
        atom_refs_.emplace_back();
      }
      atom_refs_[it->second].push_back({s, static_cast<int>(a)});
    }
  }
  atom_groups_.assign(atoms_.size(), 0);
  for (std::size_t atom = 0; atom < atoms_.size(); ++atom) {
    for (const AtomRef& ref : atom_refs_[atom])
      atom_groups_[atom] |= static_cast<std::uint8_t>(1u << shards_[ref.shard]->group);
  }
  std::sort(unfiltered_.begin(), unfiltered_.end());
}

void RegexIndex::collect_plan_atoms(const std::vector<std::optional<std::string_view>>& patterns,
                                    RegexPlans& plans) {
  planned_ = true;
  std::vector<std::string_view> given;
  for (const auto& pattern : patterns) {
    if (pattern) given.push_back(*pattern);
  }
  plans.add(given);
  pattern_texts_.resize(patterns.size());
  clauses_.resize(patterns.size());
  compiled_.resize(patterns.size());
  compiled_once_ = std::make_unique<std::once_flag[]>(patterns.size());
  std::unordered_map<std::string_view, int> distinct;
  for (std::size_t entry = 0; entry < patterns.size(); ++entry) {
    if (!patterns[entry]) continue;
    const RegexPlan& plan = plans.of(*patterns[entry]);
    if (!plan.error.empty()) {
      errors_[entry] = plan.error;
      continue;
    }
    pattern_texts_[entry] = *patterns[entry];
    if (plan.unfiltered) unfiltered_.push_back(entry);
    std::vector<int> ids;
    for (const std::string& atom : plan.atoms) {
      const auto [it, added] = distinct.try_emplace(atom, static_cast<int>(atoms_.size()));
      if (added) atoms_.push_back(atom);
      ids.push_back(it->second);
    }
    for (const std::vector<int>& clause : plan.clauses) {
      std::vector<int>& mine = clauses_[entry].emplace_back();
      for (const int atom : clause) mine.push_back(ids[static_cast<std::size_t>(atom)]);
      std::sort(mine.begin(), mine.end());
    }
  }
  file_under_clauses();
}

void RegexIndex::file_under_clauses() {
  std::vector<std::size_t> uses(atoms_.size(), 0);  // of each atom, by the regexes' clauses
  for (const auto& clauses : clauses_) {
    for (const std::vector<int>& clause : clauses) {
      for (const int atom : clause) ++uses[static_cast<std::size_t>(atom)];
    }
  }
  atom_entries_.assign(atoms_.size(), {});
  for (std::size_t entry = 0; entry < clauses_.size(); ++entry) {
    const std::vector<int>* rarest = rarest_clause(
        clauses_[entry], [&](int atom) { return uses[static_cast<std::size_t>(atom)]; },
        [](int) { return true; });
    if (!rarest) continue;  // unfiltered: unfiltered_ has it
    for (const int atom : *rarest) atom_entries_[static_cast<std::size_t>(atom)].push_back(entry);
  }
}

// The atoms, each distinct text once, filed by how the text is searched for, and the literals
// and markers found by finder_ too.
void RegexIndex::index_atoms(const std::vector<std::string_view>& markers) {
  std::vector<std::string_view> found_by_finder;
  std::unordered_map<std::string_view, int> finder_index;
  for (int atom = 0; atom < static_cast<int>(atoms_.size()); ++atom) {
    const std::string& text = atoms_[atom];
    if (text.size() >= AtomFinder::kMinAtomBytes &&
        (is_ascii(text) || caseless_beyond_ascii(text))) {
      finder_index.emplace(text, static_cast<int>(found_by_finder.size()));
      finder_atoms_.push_back(atom);
      found_by_finder.push_back(text);
    } else if (is_ascii(text)) {
      short_atoms_.push_back(atom);
    } else {  // RE2 lowercased it for all of Unicode, and it has case: see folded_set_
      folded_atoms_.push_back(atom);
      folded_match_ascii_ = folded_match_ascii_ || text.find(kLongS) != std::string::npos ||
                            text.find(kKelvinSign) != std::string::npos;
    }
  }
  std::vector<std::pair<int, std::size_t>> literals;  // (finder_ atom, entry)
  for (std::size_t entry = 0; entry < literals_.size(); ++entry) {
    if (literals_[entry].empty()) continue;
    const auto [it, added] =
        finder_index.try_emplace(literals_[entry], static_cast<int>(found_by_finder.size()));
    if (added) {
      finder_atoms_.push_back(-1);
      found_by_finder.push_back(literals_[entry]);
    }
    literals.emplace_back(it->second, entry);
  }
  std::sort(literals.begin(), literals.end());
  std::vector<int> marked;  // finder_'s atoms that are markers (some also atoms or literals)
  for (const std::string_view marker : markers) {
    const auto [it, added] =
        finder_index.try_emplace(marker, static_cast<int>(found_by_finder.size()));
    if (added) {
      finder_atoms_.push_back(-1);
      found_by_finder.push_back(marker);
    }
    marked.push_back(it->second);
  }
  finder_markers_.assign(found_by_finder.size(), false);
  for (const int f : marked) finder_markers_[static_cast<std::size_t>(f)] = true;
  finder_literals_.assign(found_by_finder.size() + 1, 0);
  for (const auto& [atom, entry] : literals) {
    ++finder_literals_[static_cast<std::size_t>(atom) + 1];
    literal_entries_.push_back(entry);
  }
  for (std::size_t f = 1; f < finder_literals_.size(); ++f)
    finder_literals_[f] += finder_literals_[f - 1];
  finder_ = std::make_unique<AtomFinder>(found_by_finder);
}

void RegexIndex::build_sets() {
  std::vector<std::string> folded, unfiltered;
  for (int atom : folded_atoms_)
    folded.push_back(std::string("(?i)").append(RE2::QuoteMeta(atoms_[atom])));
  for (std::size_t entry : unfiltered_) unfiltered.push_back(regex(entry)->pattern());
  folded_set_ = compiled_set(folded);
  unfiltered_set_ = compiled_set(unfiltered);
}

const RE2* RegexIndex::regex(std::size_t entry) const {
  if (planned_) {
    if (pattern_texts_[entry].empty()) return nullptr;
    std::call_once(compiled_once_[entry], [&] {
      compiled_[entry] = std::make_unique<RE2>(pattern_texts_[entry], entry_regex_options());
    });
    return compiled_[entry].get();
  }
  const auto [shard, id] = location_[entry];
  return shard < 0 ? nullptr : &shards_[shard]->filter.GetRE2(id);
}

void RegexIndex::find_atoms(std::string_view text, Scratch& scratch) const {
  std::vector<int>& found = scratch.found;
  found.clear();
  const bool ascii = fold_for_atoms(text, scratch.lower);
  const std::string& lower = scratch.lower;
  finder_->find(lower, found);
  std::vector<std::size_t>& literals = scratch.literals;
  literals.clear();
  std::size_t atoms = 0;
  scratch.marked_ = false;
  for (int f : found) {
    scratch.marked_ = scratch.marked_ || finder_markers_[f];
    for (std::uint32_t i = finder_literals_[f]; i < finder_literals_[f + 1]; ++i)
      literals.push_back(literal_entries_[i]);
    if (finder_atoms_[f] >= 0) found[atoms++] = finder_atoms_[f];
  }
  found.resize(atoms);
  for (int atom : short_atoms_) {
    if (lower.find(atoms_[atom]) != std::string::npos) found.push_back(atom);
  }
  if (!folded_atoms_.empty() && (folded_match_ascii_ || !ascii)) {
    if (folded_set_ && set_matches(*folded_set_, text, scratch.matched)) {
      for (int i : scratch.matched) found.push_back(folded_atoms_[i]);
    } else {
      found.insert(found.end(), folded_atoms_.begin(), folded_atoms_.end());
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
}

void RegexIndex::add_unfiltered(std::string_view text, Scratch& scratch) const {
  if (unfiltered_.empty()) return;
  if (unfiltered_set_ && set_matches(*unfiltered_set_, text, scratch.matched)) {
    for (int i : scratch.matched) scratch.out.push_back(unfiltered_[i]);
    std::sort(scratch.out.begin(), scratch.out.end());  // a Set reports in no order
    return;
  }
  scratch.out.insert(scratch.out.end(), unfiltered_.begin(), unfiltered_.end());
}

void RegexIndex::shard_found(std::size_t group, Scratch& scratch) const {
  scratch.sharded.resize(shards_.size());
  for (std::vector<int>& atoms : scratch.sharded) atoms.clear();
  for (int atom : scratch.key) {
    for (const AtomRef& ref : atom_refs_[atom]) {
      if (shards_[ref.shard]->group == group) scratch.sharded[ref.shard].push_back(ref.atom);
    }
  }
  for (std::vector<int>& atoms : scratch.sharded) std::sort(atoms.begin(), atoms.end());
}

// The entries with atoms that the shards of `group` let through for scratch.found, sorted;
// remembered per set of the group's atoms (a set whose hash collides with a remembered one
// replaces it).
const std::vector<std::size_t>& RegexIndex::filtered(std::size_t group, Scratch& scratch) const {
  std::vector<int>& key = scratch.key;
  key.clear();
  for (int atom : scratch.found) {
    if (atom_groups_[atom] >> group & 1) key.push_back(atom);
  }
  if (key.empty()) return scratch.none;
  std::uint64_t hash = key.size();
  for (int atom : key) hash = (hash ^ static_cast<std::uint32_t>(atom)) * 0x9e3779b97f4a7c15;
  hash ^= hash >> 29;
  std::vector<std::size_t>* answer = &scratch.passed[group];
  if (scratch.remember_) {
    auto& cache = scratch.filtered[group];
    if (const auto known = cache.find(hash); known != cache.end() && known->second.atoms == key)
      return known->second.entries;
    if (cache.size() >= kMaxCachedAtomSets) cache.clear();
    Scratch::Passed& passed = cache[hash];
    passed.atoms = key;
    answer = &passed.entries;
  }
  std::vector<std::size_t>& out = *answer;
  out.clear();
  shard_found(group, scratch);
  std::vector<int> ids;
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    if (scratch.sharded[s].empty()) continue;
    if (scratch.sharded[s].size() == 1 && !shard.single.empty()) {
      for (const int id : shard.single[scratch.sharded[s].front()])
        out.push_back(shard.entries[id]);
      continue;
    }
    shard.filter.AllPotentials(scratch.sharded[s], &ids);
    for (int id : ids) {
      if (!shard.unfiltered[id]) out.push_back(shard.entries[id]);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::size_t> RegexIndex::candidates(std::string_view text) const {
  Scratch scratch;
  return candidates(text, scratch);
}

const std::vector<std::size_t>& RegexIndex::candidates(std::string_view text,
                                                       Scratch& scratch) const {
  scratch.out.clear();
  find_atoms(text, scratch);
  add_unfiltered(text, scratch);
  if (planned_) {
    const std::vector<int>& found = scratch.found;
    const auto holds = [&found](int atom) {
      return std::binary_search(found.begin(), found.end(), atom);
    };
    for (const int atom : found) {
      for (const std::size_t entry : atom_entries_[atom]) {
        if (holds_each_clause(clauses_[entry], holds)) scratch.out.push_back(entry);
      }
    }
    scratch.out.insert(scratch.out.end(), scratch.literals.begin(), scratch.literals.end());
    std::sort(scratch.out.begin(), scratch.out.end());
    scratch.out.erase(std::unique(scratch.out.begin(), scratch.out.end()), scratch.out.end());
    return scratch.out;
  }
  for (std::size_t group = 0; group < kGroups; ++group) {
    const std::vector<std::size_t>& passed = filtered(group, scratch);
    scratch.out.insert(scratch.out.end(), passed.begin(), passed.end());
  }
  scratch.out.insert(scratch.out.end(), scratch.literals.begin(), scratch.literals.end());
  // The four lists are sorted and disjoint, and short: sorting them whole allocates nothing,
  // where std::inplace_merge takes a buffer from the heap each time.
  std::sort(scratch.out.begin(), scratch.out.end());
  return scratch.out;
}

std::optional<std::string_view> RegexIndex::match(std::size_t entry, std::string_view text,
                                                  Scratch& scratch) const {
  if (const RE2* regex = this->regex(entry)) {
    re2::StringPiece span;
    if (!regex->Match(piece(text), 0, text.size(), RE2::UNANCHORED, &span, 1)) return std::nullopt;
    return std::string_view(span.data(), span.size());
  }
  const std::string& literal = literals_[entry];
  if (literal.empty()) return std::nullopt;
  const bool ascii = fold_for_atoms(text, scratch.folded);
  const std::size_t at = scratch.folded.find(literal);
  if (at == std::string::npos) return std::nullopt;
  if (ascii) return text.substr(at, literal.size());
  // The fold wrote each ſ and K (Kelvin) as one byte: walk the text to the match's bytes.
  std::size_t begin = 0, end = 0;
  for (std::size_t folded = 0; folded <= at + literal.size(); ++folded) {
    if (folded == at) begin = end;
    if (folded == at + literal.size()) break;
    end += text.substr(end).starts_with(kLongS)        ? kLongS.size()
           : text.substr(end).starts_with(kKelvinSign) ? kKelvinSign.size()
                                                       : 1;
  }
  return text.substr(begin, end - begin);
}

bool RegexIndex::matches(std::size_t entry, std::string_view text, Scratch& scratch) const {
  if (const RE2* regex = this->regex(entry))
    return regex->Match(piece(text), 0, text.size(), RE2::UNANCHORED, nullptr, 0);
  return match(entry, text, scratch).has_value();
}

bool RegexIndex::finds(std::size_t entry, std::string_view text, Scratch& scratch) const {
  if (const RE2* regex = this->regex(entry)) {
    // Computed by whichever thread asks first; any other computes the same.
    std::atomic<std::uint8_t>& known = may_be_empty_[entry];
    std::uint8_t empty = known.load(std::memory_order_relaxed);
    if (empty == 0) known.store(empty = may_match_empty(*regex) ? 1 : 2, std::memory_order_relaxed);
    return finds_not_empty(*regex, text, empty == 1);
  }
  const std::optional<std::string_view> span = match(entry, text, scratch);
  return span && !span->empty();
}

std::vector<std::size_t> RegexIndex::matching(std::string_view text) const {
  Scratch scratch;
  std::vector<std::size_t> out;
  for (std::size_t entry : candidates(text, scratch)) {
    if (matches(entry, text, scratch)) out.push_back(entry);
  }
  return out;
}

std::vector<std::vector<std::size_t>> RegexIndex::matching_each(
    std::span<const std::string_view> texts) const {
  std::vector<std::vector<std::size_t>> out(texts.size());
  // A Scratch per block that remembers nothing: distinct texts rarely find the same set of
  // atoms, and remembering the answers for a chunk's 100,000 texts made this and the later
  // phases of a lint slower (25,000 entries: +20%), as did a Scratch made for each text (the
  // allocations of each, on a heap of gigabytes).
  parallel_blocks(texts.size(), [&](std::size_t begin, std::size_t end) {
    Scratch scratch(/*remember=*/false);
    for (std::size_t t = begin; t < end; ++t) {
      for (const std::size_t entry : candidates(texts[t], scratch)) {
        if (matches(entry, texts[t], scratch)) out[t].push_back(entry);
      }
    }
  });
  return out;
}

}  // namespace kbc
