#include "search/search_index.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "base/utf8.h"

namespace kbc {
namespace {

bool is_cjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x20000 && c <= 0x2FA1F);
}

bool is_word(const std::string& token) { return static_cast<unsigned char>(token[0]) < 0x80; }

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

std::vector<std::string> search_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string word;
  std::vector<std::string_view> run;  // the characters of the current CJK run
  const auto end_word = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
  };
  const auto end_run = [&] {
    if (run.size() == 1) tokens.emplace_back(run[0]);
    for (std::size_t k = 0; k + 1 < run.size(); ++k)
      tokens.push_back(std::string(run[k]) + std::string(run[k + 1]));
    run.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(text, i);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      end_run();
      word += static_cast<char>(c);
    } else if (c >= 'A' && c <= 'Z') {
      end_run();
      word += static_cast<char>(c - 'A' + 'a');
    } else if (is_cjk(c)) {
      end_word();
      run.push_back(text.substr(start, i - start));
    } else {
      end_word();
      end_run();
    }
  }
  end_word();
  end_run();
  return tokens;
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
  // its nodes).
  const auto take = [&](std::string term, int field, int length) {
    std::vector<Posting>& list = postings_[std::move(term)];
    if (list.empty() || list.back().doc != doc || list.back().field != field)
      list.push_back({doc, field, length});
  };
  for (std::size_t f = 0; f < fields.size() && f < field_weights_.size(); ++f) {
    std::vector<std::string> tokens = search_tokens(fields[f].text);
    const int length = static_cast<int>(tokens.size());
    const int field = static_cast<int>(f);
    field_tokens_[f] += length;
    if (fields[f].phrases) {
      for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
        if (is_word(tokens[k]) && is_word(tokens[k + 1]))
          take(tokens[k] + " " + tokens[k + 1], field, length);
      }
    }
    for (std::string& token : tokens) take(std::move(token), field, length);
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
