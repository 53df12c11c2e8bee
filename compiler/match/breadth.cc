#include "match/breadth.h"

#include <set>

#include "base/text.h"
#include "match/log_lines.h"

namespace kbc {

std::string_view error_of(std::string_view id) {
  const std::size_t last = id.rfind('/');
  if (last == std::string_view::npos || id.find('/') == last) return id;
  return id.substr(0, last);
}

namespace {

std::string normalized_copy(std::string_view text) {
  std::string buffer;
  return std::string(normalized_line(trim(text), buffer));
}

}  // namespace

RegexBreadth::RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
                           std::vector<std::string_view> ids,
                           std::vector<std::string_view> signatures,
                           const std::vector<BenignLine>& benign)
    : index_(index), pattern_of_(pattern_of), ids_(std::move(ids)), benign_(benign) {
  for (const std::string_view signature : signatures) {
    const std::string_view first = trim(signature.substr(0, signature.find('\n')));
    signatures_.push_back(normalized_copy(first));
  }
  known_.resize(ids_.size());
}

RegexBreadth::~RegexBreadth() = default;

void RegexBreadth::prefilter() const {
  candidates_.resize(ids_.size());
  RegexIndex::Scratch scratch;
  std::vector<std::size_t> entry_of_pattern;
  const auto add = [&](std::string_view text, std::uint32_t id) {
    for (const std::size_t pattern : index_.candidates(text, scratch)) {
      // Patterns are numbered pattern_of(entry) = k * entry + r; find the entry by search.
      if (pattern >= entry_of_pattern.size() || entry_of_pattern[pattern] == SIZE_MAX) continue;
      candidates_[entry_of_pattern[pattern]].push_back(id);
    }
  };
  for (std::size_t entry = 0; entry < ids_.size(); ++entry) {
    const std::size_t pattern = pattern_of_(entry);
    if (pattern >= entry_of_pattern.size()) entry_of_pattern.resize(pattern + 1, SIZE_MAX);
    entry_of_pattern[pattern] = entry;
  }
  benign_texts_.reserve(benign_.size());
  for (std::size_t i = 0; i < benign_.size(); ++i) {
    benign_texts_.push_back(normalized_copy(benign_[i].text));
    add(benign_texts_.back(), static_cast<std::uint32_t>(i));
  }
  for (std::size_t entry = 0; entry < signatures_.size(); ++entry)
    add(signatures_[entry], static_cast<std::uint32_t>(benign_.size() + entry));
}

Breadth RegexBreadth::of(std::size_t entry) const {
  std::call_once(prefiltered_, [this] { prefilter(); });
  {
    const std::lock_guard lock(mutex_);
    if (known_[entry]) return *known_[entry];
  }
  Breadth breadth;
  RegexIndex::Scratch scratch;
  std::set<std::string_view> others;
  const std::size_t pattern = pattern_of_(entry);
  for (const std::uint32_t id : candidates_[entry]) {
    if (id < benign_.size()) {
      const auto span = index_.match(pattern, benign_texts_[id], scratch);
      if (span && !span->empty()) {
        if (!breadth.first_benign) breadth.first_benign = id;
        ++breadth.benign_lines;
      }
      continue;
    }
    const std::size_t other = id - benign_.size();
    if (error_of(ids_[other]) == error_of(ids_[entry])) continue;
    const auto span = index_.match(pattern, signatures_[other], scratch);
    if (span && !span->empty()) others.insert(error_of(ids_[other]));
  }
  breadth.other_errors = static_cast<int>(others.size());
  const std::lock_guard lock(mutex_);
  known_[entry] = breadth;
  return breadth;
}

}  // namespace kbc
