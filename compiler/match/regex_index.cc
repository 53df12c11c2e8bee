#include "match/regex_index.h"

#include <algorithm>

namespace kbc {
namespace {

constexpr int kMinAtomLength = 3;
constexpr int64_t kAtomSetMemory = 256 << 20;

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

RE2::Options entry_regex_options() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

RegexIndex::RegexIndex(const std::vector<std::optional<std::string_view>>& patterns)
    : errors_(patterns.size()), filter_id_(patterns.size(), -1), filter_(kMinAtomLength) {
  const RE2::Options options = entry_regex_options();
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (!patterns[i]) continue;
    int id = -1;
    if (filter_.Add(*patterns[i], options, &id) != RE2::NoError) {
      errors_[i] = RE2(*patterns[i], options).error();  // FilteredRE2 keeps no message
      continue;
    }
    filter_id_[i] = id;
    entry_of_filter_.push_back(i);
  }
  if (entry_of_filter_.empty()) return;
  filter_.Compile(&atoms_);
  RE2::Options set_options = options;
  set_options.set_max_mem(kAtomSetMemory);
  atom_set_ = std::make_unique<RE2::Set>(set_options, RE2::UNANCHORED);
  for (const std::string& atom : atoms_) atom_set_->Add(RE2::QuoteMeta(atom), nullptr);
  // Calling Match on a Set whose Compile failed crashes, so drop it and scan instead.
  if (!atom_set_->Compile()) atom_set_.reset();
}

RegexIndex::~RegexIndex() = default;

const RE2* RegexIndex::regex(std::size_t entry) const {
  return filter_id_[entry] < 0 ? nullptr : &filter_.GetRE2(filter_id_[entry]);
}

std::vector<std::size_t> RegexIndex::matching(std::string_view text) const {
  if (entry_of_filter_.empty()) return {};
  const std::string lower = ascii_lower(text);
  std::vector<int> atoms;
  if (atom_set_) {
    atom_set_->Match(lower, &atoms);
  } else {
    for (std::size_t i = 0; i < atoms_.size(); ++i) {
      if (lower.find(atoms_[i]) != std::string::npos) atoms.push_back(static_cast<int>(i));
    }
  }
  std::vector<int> matched;
  filter_.AllMatches(text, atoms, &matched);
  std::vector<std::size_t> out;
  out.reserve(matched.size());
  for (int id : matched) out.push_back(entry_of_filter_[id]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kbc
