#include "match/breadth.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>

#include "base/parallel.h"
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

// Whether a match of `pattern` on a line alone is also a match on the line within the joined
// texts in multi-line mode: not when the pattern anchors to the whole text (`\A`, `\z`) or
// turns multi-line mode off again (`(?-m)`, `(?i-m:`). Conservative: a `\\A` or such a group in
// a character class also says no, which costs only the way of counting, never the count.
bool joined_search_exact(std::string_view pattern) {
  if (pattern.find("\\A") != std::string_view::npos ||
      pattern.find("\\z") != std::string_view::npos)
    return false;
  for (std::size_t at = pattern.find("(?"); at != std::string_view::npos;
       at = pattern.find("(?", at + 2)) {
    const std::size_t end = pattern.find_first_of(":)", at + 2);
    const std::string_view flags = pattern.substr(at + 2, end - (at + 2));
    const std::size_t minus = flags.find('-');
    if (minus != std::string_view::npos && flags.find('m', minus) != std::string_view::npos)
      return false;
  }
  return true;
}

}  // namespace

BreadthTexts::BreadthTexts(const std::vector<std::string_view>& raw_signatures,
                           const std::vector<BenignLine>& benign) {
  signatures.resize(raw_signatures.size());
  parallel_blocks(raw_signatures.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::string_view signature = raw_signatures[i];
      signatures[i] = normalized_copy(trim(signature.substr(0, signature.find('\n'))));
    }
  });
  // Each distinct normalized line once (a third of the built-in corpus repeats), in the order
  // of its first line, so that the first matched is the first line matched.
  // A normalized line views the benign text, unless it had escape sequences (then a copy).
  std::unordered_map<std::string_view, std::size_t> seen;
  std::string buffer;
  for (std::size_t i = 0; i < benign.size(); ++i) {
    std::string_view text = normalized_line(trim(benign[i].text), buffer);
    if (!buffer.empty() && text.data() >= buffer.data() &&
        text.data() < buffer.data() + buffer.size()) {
      text = copies.emplace_back(text);
      buffer.clear();
    }
    auto [it, added] = seen.try_emplace(text, benign_texts.size());
    if (added) {
      benign_texts.push_back(text);
      first_line.push_back(i);
      lines_of.push_back(0);
    }
    ++lines_of[it->second];
  }
  const auto add = [&](std::string_view text) {
    starts.push_back(joined_text.size());
    joined_text.append(text).push_back('\n');
  };
  for (const std::string_view text : benign_texts) add(text);
  for (const std::string& text : signatures) add(text);
}

RegexBreadth::RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
                           std::vector<std::string_view> ids,
                           std::vector<std::string_view> signatures,
                           const std::vector<BenignLine>& benign, std::size_t direct_entries)
    : index_(index),
      pattern_of_(pattern_of),
      ids_(std::move(ids)),
      raw_signatures_(std::move(signatures)),
      benign_(&benign),
      direct_entries_(direct_entries) {
  known_.resize(ids_.size());
}

RegexBreadth::RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
                           std::vector<std::string_view> ids, const BreadthTexts& texts,
                           std::size_t direct_entries)
    : index_(index),
      pattern_of_(pattern_of),
      ids_(std::move(ids)),
      given_texts_(&texts),
      direct_entries_(direct_entries) {
  known_.resize(ids_.size());
}

RegexBreadth::~RegexBreadth() = default;

const BreadthTexts& RegexBreadth::texts() const {
  if (given_texts_) return *given_texts_;
  std::call_once(prepared_, [this] {
    own_texts_ = std::make_unique<BreadthTexts>(raw_signatures_, *benign_);
  });
  return *own_texts_;
}

void RegexBreadth::count_text(std::size_t entry, std::size_t id, std::string_view text,
                              Breadth& breadth, std::set<std::string_view>& others) const {
  const BreadthTexts& texts = this->texts();
  if (id < texts.benign_texts.size()) {  // a distinct benign line: all its lines count
    if (!matches(entry, text)) return;
    if (breadth.some_benign.size() < kKeptBenign)
      breadth.some_benign.push_back(static_cast<std::uint32_t>(texts.first_line[id]));
    breadth.benign_lines += static_cast<int>(texts.lines_of[id]);
    return;
  }
  const std::string_view other = error_of(ids_[id - texts.benign_texts.size()]);
  if (other != error_of(ids_[entry]) && matches(entry, text)) others.insert(other);
}

bool RegexBreadth::matches(std::size_t entry, std::string_view text) const {
  thread_local RegexIndex::Scratch scratch;
  return index_.finds(pattern_of_(entry), text, scratch);
}

void RegexBreadth::prefilter() const {
  const BreadthTexts& texts = this->texts();
  candidates_.resize(ids_.size());
  std::vector<std::size_t> entry_of_pattern;
  for (std::size_t entry = 0; entry < ids_.size(); ++entry) {
    const std::size_t pattern = pattern_of_(entry);
    if (pattern >= entry_of_pattern.size()) entry_of_pattern.resize(pattern + 1, SIZE_MAX);
    entry_of_pattern[pattern] = entry;
  }
  // The workers prefilter blocks of the texts; the candidates are gathered in text order.
  std::vector<std::vector<std::pair<std::size_t, std::uint32_t>>> per_block(texts.starts.size());
  parallel_blocks(texts.starts.size(), [&](std::size_t begin, std::size_t end) {
    auto& found = per_block[begin];
    RegexIndex::Scratch scratch(/*remember=*/false);  // see RegexIndex::matching_each
    for (std::size_t id = begin; id < end; ++id) {
      for (const std::size_t pattern : index_.candidates(texts.text(id), scratch)) {
        if (pattern < entry_of_pattern.size() && entry_of_pattern[pattern] != SIZE_MAX)
          found.emplace_back(entry_of_pattern[pattern], static_cast<std::uint32_t>(id));
      }
    }
  });
  for (const auto& found : per_block) {
    for (const auto& [entry, id] : found) candidates_[entry].push_back(id);
  }
}

Breadth RegexBreadth::from_candidates(std::size_t entry) const {
  std::call_once(prefiltered_, [this] { prefilter(); });
  Breadth breadth;
  std::set<std::string_view> others;
  for (const std::uint32_t id : candidates_[entry])
    count_text(entry, id, texts().text(id), breadth, others);
  breadth.other_errors = static_cast<int>(others.size());
  return breadth;
}

Breadth RegexBreadth::search(std::size_t entry) const {
  const BreadthTexts& texts = this->texts();
  Breadth breadth;
  const RE2* regex = index_.regex(pattern_of_(entry));
  if (!regex) return breadth;
  if (!joined_search_exact(regex->pattern())) return from_candidates(entry);
  RE2::Options options = regex->options();
  options.set_max_mem(64 << 20);  // a DFA over 1 MB of varied text
  const RE2 lines("(?m)" + regex->pattern(), options);
  if (!lines.ok()) return from_candidates(entry);
  std::set<std::string_view> others;
  const re2::StringPiece text(texts.joined_text);
  re2::StringPiece found;
  for (std::size_t at = 0; at < text.size();) {
    if (!lines.Match(text, at, text.size(), RE2::UNANCHORED, &found, 1)) break;
    // The line where the match begins, matched on its own.
    const std::size_t offset = static_cast<std::size_t>(found.data() - text.data());
    const std::size_t id = static_cast<std::size_t>(
                               std::upper_bound(texts.starts.begin(), texts.starts.end(), offset) -
                               texts.starts.begin()) -
                           1;
    const std::size_t next = id + 1 < texts.starts.size() ? texts.starts[id + 1] : text.size();
    count_text(
        entry, id,
        std::string_view(texts.joined_text.data() + texts.starts[id], next - 1 - texts.starts[id]),
        breadth, others);
    at = next;
  }
  breadth.other_errors = static_cast<int>(others.size());
  return breadth;
}

Breadth RegexBreadth::of(std::size_t entry) const {
  bool direct = false;
  {
    const std::lock_guard lock(mutex_);
    if (known_[entry]) return *known_[entry];
    direct = searched_ < direct_entries_;
    if (direct) ++searched_;
  }
  Breadth breadth = direct ? search(entry) : from_candidates(entry);
  const std::lock_guard lock(mutex_);
  known_[entry] = breadth;
  return breadth;
}

}  // namespace kbc
