// The search index of one site language, written by kbc and read by site/assets/search.js.
//
// Words are runs of ASCII letters and digits, lowercased; Chinese (and other CJK) text is
// indexed as overlapping pairs of characters, so any substring of two characters or more is
// found without a dictionary. search.js tokenizes queries with the same rules; the cases in
// tests/browser/tokenizer-cases.json hold both sides to them.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kbc {

// The tokens of `text`, in order, duplicates kept.
std::vector<std::string> search_tokens(std::string_view text);

class SearchIndex {
 public:
  struct Document {
    std::string url;  // relative to the language root
    std::string title, code, id, snippet;
  };
  // Adds a document; each field's tokens score `weight` (a token keeps its best weight).
  void add(Document document, const std::vector<std::pair<std::string_view, int>>& fields);
  // The index as compact JSON (format in ARCHITECTURE.md).
  std::string json(std::string_view language) const;

 private:
  std::vector<Document> documents_;
  std::unordered_map<std::string, std::vector<int>> postings_;  // token -> doc, weight, ...
};

}  // namespace kbc
