#include "search/search_index.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

// [df, doc, weight, ...]: the kMaxPostings best weights (ties: the first documents), in
// document order.
std::string postings_text(std::vector<std::pair<int, int>> list) {
  std::string text = "[" + std::to_string(list.size());
  if (list.size() > SearchIndex::kMaxPostings) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    list.resize(SearchIndex::kMaxPostings);
    std::sort(list.begin(), list.end());
  }
  for (const auto& [doc, weight] : list)
    text += "," + std::to_string(doc) + "," + std::to_string(weight);
  return text + "]";
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
  std::unordered_map<std::string, std::vector<Posting>> seen;  // term -> best per field
  for (std::size_t f = 0; f < fields.size() && f < field_weights_.size(); ++f) {
    std::vector<std::string> tokens = search_tokens(fields[f].text);
    const int length = static_cast<int>(tokens.size());
    field_tokens_[f] += length;
    const auto take = [&](std::string term) {
      auto& list = seen[std::move(term)];
      if (list.empty() || list.back().field != static_cast<int>(f))
        list.push_back({doc, static_cast<int>(f), length});
    };
    if (fields[f].phrases) {
      for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
        if (is_word(tokens[k]) && is_word(tokens[k + 1])) take(tokens[k] + " " + tokens[k + 1]);
      }
    }
    for (std::string& token : tokens) take(std::move(token));
  }
  for (auto& [term, list] : seen) {
    auto& postings = postings_[term];
    postings.insert(postings.end(), list.begin(), list.end());
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
    std::vector<std::pair<int, int>> best;  // (doc, weight), one per document
    for (const Posting& posting : list) {
      const int w = weight(posting);
      if (best.empty() || best.back().first != posting.doc)
        best.emplace_back(posting.doc, w);
      else
        best.back().second = std::max(best.back().second, w);
    }
    shard += nlohmann::json(term).dump() + ":" + postings_text(std::move(best));
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
