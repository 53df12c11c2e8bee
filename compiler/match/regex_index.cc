#include "match/regex_index.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace {

constexpr int kMinAtomLength = RegexIndex::kMinAtomLength;
// The text set's DFA grows to this while it learns a log, then starts over.
constexpr std::int64_t kTextSetMemory = std::int64_t{256} << 20;
// Distinct sets of atoms whose candidates a Scratch keeps (then it starts over).
constexpr std::size_t kMaxCachedAtomSets = 1 << 16;

char ascii_lower_char(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

std::uint32_t prefix_key(const char* bytes) {
  std::uint32_t key = 0;
  std::memcpy(&key, bytes, 3);
  return key;
}

}  // namespace

RE2::Options entry_regex_options() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

RegexIndex::RegexIndex(const std::vector<std::optional<std::string_view>>& patterns,
                       bool many_texts)
    : errors_(patterns.size()), location_(patterns.size(), {-1, -1}) {
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  for (std::size_t i = 0; i < cores; ++i) shards_.push_back(std::make_unique<Shard>());
  parallel_slices(patterns.size(), [&](std::size_t begin, std::size_t end, std::size_t worker) {
    build_shard(*shards_[worker], begin, end, patterns);
  });
  index_atoms();
  if (many_texts) build_text_set();
}

RegexIndex::~RegexIndex() = default;

void RegexIndex::build_shard(Shard& shard, std::size_t begin, std::size_t end,
                             const std::vector<std::optional<std::string_view>>& patterns) {
  const RE2::Options options = entry_regex_options();
  for (std::size_t i = begin; i < end; ++i) {
    if (!patterns[i]) continue;
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

void RegexIndex::index_atoms() {
  for (std::uint32_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    for (std::size_t id = 0; id < shard.entries.size(); ++id)
      location_[shard.entries[id]] = {s, static_cast<int>(id)};
    for (std::size_t id = 0; id < shard.entries.size(); ++id) {
      if (shard.unfiltered[id]) unfiltered_.push_back(shard.entries[id]);
    }
    for (std::size_t a = 0; a < shard.atoms.size(); ++a) {
      const std::string& atom = shard.atoms[a];
      if (atom.size() < kMinAtomLength) {  // FilteredRE2 prunes these; kept correct if it does not
        short_atoms_.push_back({s, static_cast<int>(a)});
        continue;
      }
      // RE2 lowercases atoms for all of Unicode, the prefix search lowercases text for ASCII
      // only: such an atom is searched for as RE2 would, ignoring case.
      if (std::any_of(atom.begin(), atom.end(), [](char c) { return (c & 0x80) != 0; })) {
        folded_atoms_.emplace_back(
            AtomRef{s, static_cast<int>(a)},
            std::make_unique<RE2>("(?i)" + RE2::QuoteMeta(atom), entry_regex_options()));
        continue;
      }
      atoms_by_prefix_[prefix_key(atom.data())].push_back({s, static_cast<int>(a)});
    }
  }
}

const RE2* RegexIndex::regex(std::size_t entry) const {
  const auto [shard, id] = location_[entry];
  return shard < 0 ? nullptr : &shards_[shard]->filter.GetRE2(id);
}

// The distinct atoms, matched ignoring case, then the regexes without atoms, in one RE2::Set.
// When it cannot be built, text_set_ stays empty and candidates() does without it.
void RegexIndex::build_text_set() {
  RE2::Options options = entry_regex_options();
  options.set_max_mem(kTextSetMemory);
  auto set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
  std::unordered_map<std::string_view, std::size_t> index;
  for (std::uint32_t s = 0; s < shards_.size(); ++s) {
    for (std::size_t a = 0; a < shards_[s]->atoms.size(); ++a) {
      const std::string& atom = shards_[s]->atoms[a];
      auto [it, added] = index.try_emplace(atom, text_set_atoms_.size());
      if (added) {
        if (set->Add("(?i)" + RE2::QuoteMeta(atom), nullptr) < 0) return;
        text_set_atoms_.emplace_back();
      }
      text_set_atoms_[it->second].push_back({s, static_cast<int>(a)});
    }
  }
  std::sort(unfiltered_.begin(), unfiltered_.end());
  for (std::size_t entry : unfiltered_) {
    if (set->Add(regex(entry)->pattern(), nullptr) < 0) return;
  }
  if (!text_set_atoms_.empty() || !unfiltered_.empty()) {
    if (set->Compile()) text_set_ = std::move(set);
  }
}

void RegexIndex::find_atoms_by_prefix(std::string_view text, Scratch& scratch) const {
  scratch.lower.assign(text);
  for (char& c : scratch.lower) c = ascii_lower_char(c);
  const std::string& lower = scratch.lower;
  for (std::size_t i = 0; i + kMinAtomLength <= lower.size(); ++i) {
    const auto it = atoms_by_prefix_.find(prefix_key(lower.data() + i));
    if (it == atoms_by_prefix_.end()) continue;
    for (const AtomRef& ref : it->second) {
      const std::string& atom = shards_[ref.shard]->atoms[ref.atom];
      if (lower.compare(i, atom.size(), atom) == 0) scratch.found[ref.shard].push_back(ref.atom);
    }
  }
  for (const AtomRef& ref : short_atoms_) {
    if (lower.find(shards_[ref.shard]->atoms[ref.atom]) != std::string::npos)
      scratch.found[ref.shard].push_back(ref.atom);
  }
  for (const auto& [ref, regex] : folded_atoms_) {
    if (RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *regex))
      scratch.found[ref.shard].push_back(ref.atom);
  }
}

// The atoms found in `text` into scratch.found, and the regexes without atoms that match it
// into scratch.out. False when there is no text set or its DFA ran out of memory.
bool RegexIndex::find_in_text_set(std::string_view text, Scratch& scratch) const {
  RE2::Set::ErrorInfo error{};
  if (!text_set_ || !scratch.use_text_set ||
      (!text_set_->Match(text, &scratch.matched, &error) && error.kind != RE2::Set::kNoError)) {
    return false;
  }
  for (int i : scratch.matched) {
    if (static_cast<std::size_t>(i) >= text_set_atoms_.size()) {
      scratch.out.push_back(unfiltered_[i - text_set_atoms_.size()]);
      continue;
    }
    for (const AtomRef& ref : text_set_atoms_[i]) scratch.found[ref.shard].push_back(ref.atom);
  }
  return true;
}

std::vector<std::size_t> RegexIndex::matching(std::string_view text) const {
  Scratch scratch;
  scratch.found.resize(shards_.size());
  find_atoms_by_prefix(text, scratch);
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    if (shard.entries.empty()) continue;
    std::sort(scratch.found[s].begin(), scratch.found[s].end());
    scratch.found[s].erase(std::unique(scratch.found[s].begin(), scratch.found[s].end()),
                           scratch.found[s].end());
    std::vector<int> matched;
    shard.filter.AllMatches(text, scratch.found[s], &matched);
    for (int id : matched) out.push_back(shard.entries[id]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The entries with atoms that FilteredRE2 lets through for the atoms in scratch.found, sorted;
// remembered per set of atoms.
const std::vector<std::size_t>& RegexIndex::filtered(Scratch& scratch) const {
  std::string& key = scratch.key;
  key.clear();
  for (const std::vector<int>& atoms : scratch.found) {
    key.append(reinterpret_cast<const char*>(atoms.data()), atoms.size() * sizeof(int));
    key.append(sizeof(int), '\xff');  // -1: the end of a shard's atoms
  }
  if (const auto known = scratch.filtered.find(key); known != scratch.filtered.end())
    return known->second;
  if (scratch.filtered.size() >= kMaxCachedAtomSets) scratch.filtered.clear();
  const auto it = scratch.filtered.try_emplace(key).first;
  std::vector<int> passed;
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    if (scratch.found[s].empty()) continue;
    shard.filter.AllPotentials(scratch.found[s], &passed);
    for (int id : passed) {
      if (!shard.unfiltered[id]) it->second.push_back(shard.entries[id]);
    }
  }
  std::sort(it->second.begin(), it->second.end());
  return it->second;
}

std::vector<std::size_t> RegexIndex::candidates(std::string_view text) const {
  Scratch scratch;
  return candidates(text, scratch);
}

const std::vector<std::size_t>& RegexIndex::candidates(std::string_view text,
                                                       Scratch& scratch) const {
  scratch.found.resize(shards_.size());
  for (std::vector<int>& atoms : scratch.found) atoms.clear();
  scratch.out.clear();
  if (!find_in_text_set(text, scratch)) {
    find_atoms_by_prefix(text, scratch);
    scratch.out = unfiltered_;  // each of them may match
  }
  for (std::vector<int>& atoms : scratch.found) {
    std::sort(atoms.begin(), atoms.end());
    atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
  }
  const std::vector<std::size_t>& passed = filtered(scratch);
  scratch.out.insert(scratch.out.end(), passed.begin(), passed.end());
  std::sort(scratch.out.begin(), scratch.out.end());
  return scratch.out;
}

}  // namespace kbc
