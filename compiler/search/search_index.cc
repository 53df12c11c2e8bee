#include "search/search_index.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <span>
#include <unordered_map>

#include "base/diagnostic.h"
#include "base/digest.h"
#include "base/text.h"
#include "base/utf8.h"

namespace kbc {
namespace {

bool is_cjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x20000 && c <= 0x2FA1F);
}

bool is_word(std::string_view token) { return static_cast<unsigned char>(token[0]) < 0x80; }

// Appends the decimal digits of `n`.
void append_number(std::string& text, std::size_t n) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  text.append(digits, end);
}

// Appends `term` as a JSON string: quoted as it is when it is a word or phrase (no byte to
// escape), else through nlohmann.
void append_term(std::string& text, std::string_view term) {
  if (std::ranges::all_of(term, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ';
      })) {
    text += '"';
    text += term;
    text += '"';
  } else {
    text += nlohmann::json(std::string(term)).dump();
  }
}

// Appends [df, doc, weight, ...]: the kMaxPostings best weights (ties: the first documents), in
// document order.
void append_postings(std::string& text, std::vector<std::pair<int, int>>& list) {
  text += '[';
  append_number(text, list.size());
  if (list.size() > SearchIndex::kMaxPostings) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    list.resize(SearchIndex::kMaxPostings);
    std::sort(list.begin(), list.end());
  }
  for (const auto& [doc, weight] : list) {
    text += ',';
    append_number(text, static_cast<std::size_t>(doc));
    text += ',';
    append_number(text, static_cast<std::size_t>(weight));
  }
  text += ']';
}

}  // namespace

namespace {

// The tokens of `lowered` (a text with its ASCII letters lowercased, as search_tokens reads it)
// appended to `out` as views into it: a word is a run of letters and digits, a pair of CJK
// characters is contiguous in the text, so no token needs a string of its own.
void token_views(std::string_view lowered, std::vector<std::string_view>& out) {
  constexpr std::size_t kNone = std::string_view::npos;
  std::size_t word = kNone;      // where the current word began
  std::size_t previous = kNone;  // where the current CJK run's last character began
  std::size_t single_end = 0;    // the end of a run's first character
  std::size_t run = 0;           // the characters in the current CJK run
  const auto end_word = [&](std::size_t at) {
    if (word != kNone) out.push_back(lowered.substr(word, at - word));
    word = kNone;
  };
  const auto end_run = [&] {
    if (run == 1) out.push_back(lowered.substr(previous, single_end - previous));
    run = 0;
    previous = kNone;
  };
  for (std::size_t i = 0; i < lowered.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(lowered, i);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      end_run();
      if (word == kNone) word = start;
    } else if (is_cjk(c)) {
      end_word(start);
      if (previous != kNone) out.push_back(lowered.substr(previous, i - previous));
      if (run++ == 0) single_end = i;
      previous = start;
    } else {
      end_word(start);
      end_run();
    }
  }
  end_word(lowered.size());
  end_run();
}

}  // namespace

std::vector<std::string> search_tokens(std::string_view text) {
  const std::string lowered = ascii_lower(text);
  std::vector<std::string_view> views;
  token_views(lowered, views);
  return {views.begin(), views.end()};
}

namespace {

constexpr std::string_view kStoredMagic = "kbc search index 1\n";

// Reads what SearchIndex::store wrote, front to back; a read past the end fails, and so does
// every read after it.
class StoredReader {
 public:
  explicit StoredReader(std::string_view bytes) : rest_(bytes) {}
  bool ok() const { return ok_; }
  bool at_end() const { return ok_ && rest_.empty(); }
  bool text(std::string_view expected) {
    ok_ = ok_ && rest_.substr(0, expected.size()) == expected;
    if (ok_) rest_.remove_prefix(expected.size());
    return ok_;
  }
  std::uint64_t number() {
    std::uint64_t n = 0;
    if (take(&n, sizeof n)) return n;
    return 0;
  }
  template <typename T>
  bool values(std::vector<T>& out, std::uint64_t count) {
    if (!ok_ || count > rest_.size() / sizeof(T)) return ok_ = false;
    out.resize(count);
    return take(out.data(), count * sizeof(T));
  }
  bool bytes(std::string& out, std::uint64_t count) {
    if (!ok_ || count > rest_.size()) return ok_ = false;
    out.assign(rest_.substr(0, count));
    rest_.remove_prefix(count);
    return true;
  }

 private:
  bool take(void* out, std::size_t size) {
    if (!ok_ || size > rest_.size()) return ok_ = false;
    if (size) std::memcpy(out, rest_.data(), size);
    rest_.remove_prefix(size);
    return true;
  }
  std::string_view rest_;
  bool ok_ = true;
};

// The bytes of `value`, or of `values`.
std::string_view bytes_of(const std::uint64_t& value) {
  return {reinterpret_cast<const char*>(&value), sizeof value};
}
template <typename T>
std::string_view bytes_of(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

// Whether `ends` end pieces of `size` bytes in order, the last at its end.
bool ends_in_order(const std::vector<std::uint32_t>& ends, std::size_t size) {
  return std::is_sorted(ends.begin(), ends.end()) &&
         (ends.empty() ? size == 0 : ends.back() == size);
}

}  // namespace

void SearchIndex::Strings::push_back(std::string_view text) {
  bytes.append(text);
  if (bytes.size() > std::numeric_limits<std::uint32_t>::max())
    throw ToolError("the search index is too large (its terms are over 4 GB)");
  ends.push_back(static_cast<std::uint32_t>(bytes.size()));
}

void SearchIndex::set_fields(const std::vector<std::int32_t>& weights) {
  if (weights.size() >= kMaxFields) throw ToolError("a search index has at most 255 fields");
  field_weights_ = weights;
  field_tokens_.assign(weights.size(), 0);
}

bool SearchIndex::use_last(std::string_view bytes, std::string_view salt) {
  // The digest at the end is of the rest: a file damaged anywhere is no index.
  constexpr std::size_t kDigestSize = 64;
  if (bytes.size() < kDigestSize || digest_of(bytes.substr(0, bytes.size() - kDigestSize)) !=
                                        bytes.substr(bytes.size() - kDigestSize))
    return false;
  StoredReader in(bytes.substr(0, bytes.size() - kDigestSize));
  Last last;
  in.text(kStoredMagic);
  if (in.number() != salt.size()) return false;
  in.text(salt);
  const std::uint64_t docs = in.number(), fields = in.number();
  if (!in.ok() || fields == 0 || fields >= kMaxFields || docs >= kMaxDocuments) return false;
  in.values(last.field_weights, fields);
  const auto read_strings = [&in](Strings& strings) {
    const std::uint64_t count = in.number(), size = in.number();
    return in.values(strings.ends, count) && in.bytes(strings.bytes, size) &&
           ends_in_order(strings.ends, strings.bytes.size());
  };
  if (!read_strings(last.keys) || last.keys.size() != docs) return false;
  if (!in.values(last.lengths, docs * fields)) return false;
  if (!read_strings(last.terms.terms)) return false;
  const std::uint64_t postings = in.number();
  in.values(last.terms.ends, last.terms.terms.size());
  in.values(last.terms.postings, postings);
  if (!in.at_end() || !ends_in_order(last.terms.ends, postings)) return false;
  // Everything is checked that the merge and the weights rely on: a damaged file is no index.
  if (std::ranges::any_of(last.lengths, [](std::int32_t n) { return n < 0; })) return false;
  for (std::size_t t = 0; t < last.terms.terms.size(); ++t) {
    if (last.terms.terms[t].empty() || (t && last.terms.terms[t - 1] >= last.terms.terms[t]))
      return false;
    const std::size_t begin = last.terms.first(t), end = last.terms.ends[t];
    if (begin == end) return false;
    for (std::size_t k = begin; k < end; ++k) {
      const Posting posting = last.terms.postings[k];
      const std::size_t doc = doc_of(posting), field = field_of(posting);
      if (doc >= docs || field >= fields || last.lengths[doc * fields + field] == 0 ||
          (k > begin && last.terms.postings[k - 1] >= posting))
        return false;
    }
  }
  last.renumbered.assign(docs, -1);
  last_ = std::move(last);
  // Views of the keys where they now are (a short string's bytes move with it).
  for (std::size_t i = 0; i < last_.keys.size(); ++i) {
    if (last_.keys[i].empty() || !last_.by_key.emplace(last_.keys[i], i).second) {
      last_ = Last();
      return false;
    }
  }
  return true;
}

std::size_t SearchIndex::next_document() const {
  if (keys_.size() >= kMaxDocuments)
    throw ToolError("a search index has at most " + std::to_string(kMaxDocuments - 1) +
                    " documents");
  return keys_.size();
}

bool SearchIndex::reuse(std::string_view key) {
  const auto it = last_.by_key.find(key);
  if (it == last_.by_key.end()) return false;
  const std::size_t old = it->second;
  if (static_cast<std::int64_t>(old) <= last_.taken) return false;
  if (field_weights_.empty()) set_fields(last_.field_weights);
  if (field_weights_ != last_.field_weights) return false;
  const std::size_t doc = next_document(), fields = field_weights_.size();
  last_.taken = static_cast<std::int64_t>(old);
  last_.renumbered[old] = static_cast<std::int32_t>(doc);
  keys_.push_back(key);
  for (std::size_t f = 0; f < fields; ++f) {
    lengths_.push_back(last_.lengths[old * fields + f]);
    field_tokens_[f] += lengths_.back();
  }
  return true;
}

void SearchIndex::add(const std::vector<Field>& fields, std::string_view key) {
  if (field_weights_.empty()) {
    std::vector<std::int32_t> weights;
    for (const Field& field : fields) weights.push_back(field.weight);
    set_fields(weights);
  }
  const std::size_t doc = next_document(), count = field_weights_.size();
  keys_.push_back(key);
  keyless_ = keyless_ || key.empty();
  lengths_.resize(lengths_.size() + count, 0);
  std::int32_t* lengths = lengths_.data() + doc * count;
  // A term's postings are in document and field order, so the last one says whether this
  // document's field has it already: no map per document (100,000 documents made millions of
  // its nodes). Terms are looked up as views: only a new term is copied.
  const auto take = [&](std::string_view term, Posting posting) {
    auto it = added_.find(term);
    if (it == added_.end()) it = added_.emplace(std::string(term), std::vector<Posting>()).first;
    std::vector<Posting>& list = it->second;
    if (list.empty() || list.back() != posting) list.push_back(posting);
  };
  std::string& lowered = scratch_.lowered;
  std::string& phrase = scratch_.phrase;
  std::vector<std::string_view>& tokens = scratch_.tokens;
  for (std::size_t f = 0; f < fields.size() && f < count; ++f) {
    ascii_lower(fields[f].text, lowered);
    tokens.clear();
    token_views(lowered, tokens);
    const Posting posting = make_posting(doc, f);
    lengths[f] = static_cast<std::int32_t>(tokens.size());
    field_tokens_[f] += lengths[f];
    if (fields[f].phrases) {
      for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
        if (!is_word(tokens[k]) || !is_word(tokens[k + 1])) continue;
        phrase.assign(tokens[k]).append(" ").append(tokens[k + 1]);
        take(phrase, posting);
      }
    }
    for (const std::string_view token : tokens) take(token, posting);
  }
}

void SearchIndex::finish() {
  if (finished_) return;
  finished_ = true;
  using Item = std::pair<const std::string, std::vector<Posting>>;
  std::vector<Item*> added;
  added.reserve(added_.size());
  std::size_t count = last_.terms.postings.size();
  for (Item& item : added_) {
    added.push_back(&item);
    count += item.second.size();
  }
  std::sort(added.begin(), added.end(),
            [](const Item* a, const Item* b) { return a->first < b->first; });
  if (count > std::numeric_limits<std::uint32_t>::max())
    throw ToolError("the search index is too large (over 4 billion postings)");
  terms_.postings.reserve(count);
  // The last index's terms and the added ones, both sorted, merged; and for a term in both, its
  // postings, both in document order: the reused documents' renumbered (their order kept),
  // the others' dropped.
  const Terms& old = last_.terms;
  const std::vector<std::int32_t>& renumbered = last_.renumbered;
  const std::vector<Posting> none;
  std::size_t a = 0, o = 0;
  while (a < added.size() || o < old.terms.size()) {
    const std::string_view old_term = o < old.terms.size() ? old.terms[o] : std::string_view();
    const int order = a == added.size()       ? 1
                      : o == old.terms.size() ? -1
                                              : std::string_view(added[a]->first).compare(old_term);
    const std::vector<Posting>& fresh = order <= 0 ? added[a]->second : none;
    std::size_t k = 0, end = 0;
    if (order >= 0) {
      k = old.first(o);
      end = old.ends[o];
    }
    const std::size_t before = terms_.postings.size();
    std::size_t f = 0;
    for (; k < end; ++k) {
      const Posting posting = old.postings[k];
      const std::int32_t doc = renumbered[doc_of(posting)];
      if (doc < 0) continue;
      const Posting moved = make_posting(static_cast<std::size_t>(doc), field_of(posting));
      for (; f < fresh.size() && fresh[f] < moved; ++f) terms_.postings.push_back(fresh[f]);
      terms_.postings.push_back(moved);
    }
    for (; f < fresh.size(); ++f) terms_.postings.push_back(fresh[f]);
    if (terms_.postings.size() > before) {
      terms_.terms.push_back(order <= 0 ? std::string_view(added[a]->first) : old_term);
      terms_.ends.push_back(static_cast<std::uint32_t>(terms_.postings.size()));
    }
    if (order <= 0) std::vector<Posting>().swap(added[a++]->second);
    if (order >= 0) ++o;
  }
  added_.clear();
  last_ = Last();
}

std::string SearchIndex::document_chunk(const std::vector<Document>& documents) {
  nlohmann::ordered_json chunk = nlohmann::ordered_json::array();
  for (const Document& d : documents)
    chunk.push_back({d.url, d.title, d.code, d.id, d.domain, d.snippet});
  return chunk.dump() + "\n";
}

bool SearchIndex::store(std::ostream& out, std::string_view salt) const {
  if (keyless_ || !finished_) return false;
  std::vector<std::string_view> pieces;
  std::vector<std::uint64_t> numbers;
  numbers.reserve(8);  // never moved: pieces view them
  const auto number = [&](std::uint64_t n) {
    numbers.push_back(n);
    pieces.push_back(bytes_of(numbers.back()));
  };
  pieces.push_back(kStoredMagic);
  number(salt.size());
  pieces.push_back(salt);
  number(keys_.size());
  number(field_weights_.size());
  pieces.push_back(bytes_of(field_weights_));
  for (const Strings* strings : {&keys_, &terms_.terms}) {
    number(strings->size());
    number(strings->bytes.size());
    pieces.push_back(bytes_of(strings->ends));
    pieces.push_back(strings->bytes);
    if (strings == &keys_) pieces.push_back(bytes_of(lengths_));
  }
  number(terms_.postings.size());
  pieces.push_back(bytes_of(terms_.ends));
  pieces.push_back(bytes_of(terms_.postings));
  for (const std::string_view piece : pieces)
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  out << Digest().add(pieces).hex();  // what use_last checks the rest by
  return static_cast<bool>(out);
}

std::vector<std::vector<int>> SearchIndex::weight_table() const {
  const std::size_t fields = field_weights_.size();
  std::vector<std::vector<int>> weights(fields);
  for (std::size_t i = 0; i < lengths_.size(); ++i) {
    std::vector<int>& table = weights[i % fields];
    table.resize(std::max<std::size_t>(table.size(), lengths_[i] + 1));
  }
  for (std::size_t f = 0; f < fields; ++f) {
    constexpr double kK1 = 1.2, kB = 0.75;
    const double average =
        std::max(1.0, static_cast<double>(field_tokens_[f]) / static_cast<double>(keys_.size()));
    for (std::size_t length = 0; length < weights[f].size(); ++length) {
      const int n = static_cast<int>(length);
      const double norm = (kK1 + 1) / (1 + kK1 * (1 - kB + kB * n / average));
      weights[f][length] = static_cast<int>(std::lround(10 * field_weights_[f] * norm));
    }
  }
  return weights;
}

void SearchIndex::each_file(std::string_view language,
                            const std::function<void(std::string path, std::string content)>& put) {
  finish();
  nlohmann::ordered_json shards = nlohmann::ordered_json::array();
  std::string shard;
  const auto end_shard = [&] {
    if (shard.empty()) return;
    put("search/t" + std::to_string(shards.size() - 1) + ".json", shard + "}\n");
    shard.clear();
  };
  const std::size_t fields = field_weights_.size();
  const std::vector<std::vector<int>> weights = weight_table();
  std::vector<std::pair<int, int>> best;
  for (std::size_t t = 0; t < terms_.terms.size(); ++t) {  // byte order, which search.js bisects
    const std::string_view term = terms_.terms[t];
    if (shard.size() >= kShardBytes) end_shard();
    if (shard.empty()) {
      shards.push_back(term);
      shard = "{";
    } else {
      shard += ",";
    }
    best.clear();  // (doc, weight), one per document
    for (std::size_t k = terms_.first(t); k < terms_.ends[t]; ++k) {
      const std::size_t doc = doc_of(terms_.postings[k]), field = field_of(terms_.postings[k]);
      const int w = weights[field][lengths_[doc * fields + field]];
      if (best.empty() || best.back().first != static_cast<int>(doc))
        best.emplace_back(static_cast<int>(doc), w);
      else
        best.back().second = std::max(best.back().second, w);
    }
    append_term(shard, term);
    shard += ':';
    append_postings(shard, best);
  }
  end_shard();
  nlohmann::ordered_json meta;
  meta["version"] = 2;
  meta["lang"] = language;
  meta["docs"] = keys_.size();
  meta["doc_chunk"] = kDocChunk;
  meta["max_postings"] = kMaxPostings;
  meta["shards"] = std::move(shards);
  meta["glossary"] = glossary_;
  put("search/meta.json", meta.dump() + "\n");
}

}  // namespace kbc
