#include "match/regex_index.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace {

constexpr int kMinAtomLength = 3;  // atoms_by_prefix_ relies on every atom having 3 bytes

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

RegexIndex::RegexIndex(const std::vector<std::optional<std::string_view>>& patterns)
    : errors_(patterns.size()), location_(patterns.size(), {-1, -1}) {
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  for (std::size_t i = 0; i < cores; ++i)
    shards_.push_back(std::make_unique<Shard>(Shard{re2::FilteredRE2(kMinAtomLength), {}, {}}));
  parallel_slices(patterns.size(), [&](std::size_t begin, std::size_t end, std::size_t worker) {
    build_shard(*shards_[worker], begin, end, patterns);
  });
  index_atoms();
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
  if (!shard.entries.empty()) shard.filter.Compile(&shard.atoms);
}

void RegexIndex::index_atoms() {
  for (std::uint32_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    for (std::size_t id = 0; id < shard.entries.size(); ++id)
      location_[shard.entries[id]] = {s, static_cast<int>(id)};
    for (std::size_t a = 0; a < shard.atoms.size(); ++a) {
      const std::string& atom = shard.atoms[a];
      if (atom.size() < kMinAtomLength) {  // FilteredRE2 prunes these; kept correct if it does not
        short_atoms_.push_back({s, static_cast<int>(a)});
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

std::vector<std::size_t> RegexIndex::matching(std::string_view text) const {
  const std::string lower = ascii_lower(text);
  std::vector<std::vector<int>> found(shards_.size());
  for (std::size_t i = 0; i + kMinAtomLength <= lower.size(); ++i) {
    const auto it = atoms_by_prefix_.find(prefix_key(lower.data() + i));
    if (it == atoms_by_prefix_.end()) continue;
    for (const AtomRef& ref : it->second) {
      const std::string& atom = shards_[ref.shard]->atoms[ref.atom];
      if (lower.compare(i, atom.size(), atom) == 0) found[ref.shard].push_back(ref.atom);
    }
  }
  for (const AtomRef& ref : short_atoms_) {
    if (lower.find(shards_[ref.shard]->atoms[ref.atom]) != std::string::npos)
      found[ref.shard].push_back(ref.atom);
  }
  std::vector<std::size_t> out;
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    const Shard& shard = *shards_[s];
    if (shard.entries.empty()) continue;
    std::sort(found[s].begin(), found[s].end());
    found[s].erase(std::unique(found[s].begin(), found[s].end()), found[s].end());
    std::vector<int> matched;
    shard.filter.AllMatches(text, found[s], &matched);
    for (int id : matched) out.push_back(shard.entries[id]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kbc
