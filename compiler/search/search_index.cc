#include "search/search_index.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

#include "base/utf8.h"

namespace kbc {
namespace {

bool is_cjk(char32_t c) {
  return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0x20000 && c <= 0x2FA1F);
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

void SearchIndex::add(Document document,
                      const std::vector<std::pair<std::string_view, int>>& fields) {
  const int doc = static_cast<int>(documents_.size());
  documents_.push_back(std::move(document));
  std::unordered_map<std::string, int> best;
  for (const auto& [text, weight] : fields) {
    for (std::string& token : search_tokens(text)) {
      int& score = best[std::move(token)];
      score = std::max(score, weight);
    }
  }
  for (auto& [token, weight] : best) {
    auto& list = postings_[token];
    list.push_back(doc);
    list.push_back(weight);
  }
}

std::string SearchIndex::json(std::string_view language) const {
  nlohmann::ordered_json docs = nlohmann::ordered_json::array();
  for (const Document& d : documents_) docs.push_back({d.url, d.title, d.code, d.id, d.snippet});
  nlohmann::ordered_json words = nlohmann::ordered_json::array();
  nlohmann::ordered_json word_postings = nlohmann::ordered_json::array();
  nlohmann::ordered_json grams = nlohmann::ordered_json::object();
  // Words in byte order, which is what search.js bisects.
  std::vector<const std::pair<const std::string, std::vector<int>>*> sorted;
  for (const auto& posting : postings_) sorted.push_back(&posting);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* posting : sorted) {
    const auto& [token, list] = *posting;
    if (static_cast<unsigned char>(token[0]) < 0x80) {
      words.push_back(token);
      word_postings.push_back(list);
    } else {
      grams[token] = list;
    }
  }
  nlohmann::ordered_json out;
  out["version"] = 1;
  out["lang"] = language;
  out["docs"] = std::move(docs);
  out["words"] = std::move(words);
  out["word_postings"] = std::move(word_postings);
  out["grams"] = std::move(grams);
  return out.dump() + "\n";
}

}  // namespace kbc
