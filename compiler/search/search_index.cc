#include "search/search_index.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

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
void append_term(std::string& text, const std::string& term) {
  if (std::ranges::all_of(term, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ';
      })) {
    text += '"';
    text += term;
    text += '"';
  } else {
    text += nlohmann::json(term).dump();
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

void SearchIndex::add(Document document, const std::vector<Field>& fields) {
  const int doc = static_cast<int>(documents_.size());
  documents_.push_back(std::move(document));
  if (field_weights_.empty()) {
    for (const Field& field : fields) field_weights_.push_back(field.weight);
    field_tokens_.assign(fields.size(), 0);
  }
  // A term's postings are in document and field order, so the last one says whether this
  // document's field has it already: no map per document (100,000 documents made millions of
  // its nodes). Terms are looked up as views: only a new term is copied.
  const auto take = [&](std::string_view term, int field, int length) {
    auto it = postings_.find(term);
    if (it == postings_.end())
      it = postings_.emplace(std::string(term), std::vector<Posting>()).first;
    std::vector<Posting>& list = it->second;
    if (list.empty() || list.back().doc != doc || list.back().field != field)
      list.push_back({doc, field, length});
  };
  std::string& lowered = scratch_.lowered;
  std::string& phrase = scratch_.phrase;
  std::vector<std::string_view>& tokens = scratch_.tokens;
  for (std::size_t f = 0; f < fields.size() && f < field_weights_.size(); ++f) {
    ascii_lower(fields[f].text, lowered);
    tokens.clear();
    token_views(lowered, tokens);
    const int length = static_cast<int>(tokens.size());
    const int field = static_cast<int>(f);
    field_tokens_[f] += length;
    if (fields[f].phrases) {
      for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
        if (!is_word(tokens[k]) || !is_word(tokens[k + 1])) continue;
        phrase.assign(tokens[k]).append(" ").append(tokens[k + 1]);
        take(phrase, field, length);
      }
    }
    for (const std::string_view token : tokens) take(token, field, length);
  }
}

int SearchIndex::weight(const Posting& posting) const {
  constexpr double kK1 = 1.2, kB = 0.75;
  const double average =
      std::max(1.0, field_tokens_[posting.field] / static_cast<double>(documents_.size()));
  const double norm = (kK1 + 1) / (1 + kK1 * (1 - kB + kB * posting.length / average));
  return static_cast<int>(std::lround(10 * field_weights_[posting.field] * norm));
}

void SearchIndex::each_file(
    std::string_view language,
    const std::function<void(std::string path, std::string content)>& put) const {
  for (std::size_t first = 0; first < documents_.size(); first += kDocChunk) {
    nlohmann::ordered_json chunk = nlohmann::ordered_json::array();
    for (std::size_t i = first; i < std::min(documents_.size(), first + kDocChunk); ++i) {
      const Document& d = documents_[i];
      chunk.push_back({d.url, d.title, d.code, d.id, d.domain, d.snippet});
    }
    put("search/d" + std::to_string(first / kDocChunk) + ".json", chunk.dump() + "\n");
  }
  nlohmann::ordered_json shards = nlohmann::ordered_json::array();
  std::string shard;
  const auto end_shard = [&] {
    if (shard.empty()) return;
    put("search/t" + std::to_string(shards.size() - 1) + ".json", shard + "}\n");
    shard.clear();
  };
  std::vector<const std::pair<const std::string, std::vector<Posting>>*> terms;
  terms.reserve(postings_.size());
  for (const auto& item : postings_) terms.push_back(&item);
  std::sort(terms.begin(), terms.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<std::pair<int, int>> best;
  for (const auto* item : terms) {  // byte order, which search.js bisects
    const std::string& term = item->first;
    const std::vector<Posting>& list = item->second;
    if (shard.size() >= kShardBytes) end_shard();
    if (shard.empty()) {
      shards.push_back(term);
      shard = "{";
    } else {
      shard += ",";
    }
    best.clear();  // (doc, weight), one per document
    for (const Posting& posting : list) {
      const int w = weight(posting);
      if (best.empty() || best.back().first != posting.doc)
        best.emplace_back(posting.doc, w);
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
  meta["docs"] = documents_.size();
  meta["doc_chunk"] = kDocChunk;
  meta["max_postings"] = kMaxPostings;
  meta["shards"] = std::move(shards);
  meta["glossary"] = glossary_;
  put("search/meta.json", meta.dump() + "\n");
}

}  // namespace kbc
