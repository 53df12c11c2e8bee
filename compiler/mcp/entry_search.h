// `kbc mcp`'s `search` tool: text search over published records, the way the site's search page
// finds entries, so that a reader and an agent asking the same words get the same entries.
//
// Each record is indexed in each language over the fields the site's search index holds, with
// the same weights (site/site_builder.cc): error code 10, title (the signature, or its
// translation: signature_zh in Chinese) and signature 8, id 6, tags and aliases 5, root cause 1
// (in a language other than the base, its root cause and also the base language's). Tokens
// come from search_tokens (ASCII words, overlapping pairs of CJK characters), and a token keeps
// its best weight in a record.
//
// A query matches the records that hold every one of its tokens. As in site/assets/search.js, a
// query word also matches longer words it begins (score: the weight) and counts double when the
// word is exactly the same (score: twice the weight); a CJK pair counts double. A record's score
// is the sum over the query's tokens; results are ordered by score, larger first, then by id.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/languages.h"

namespace kbc {

class EntrySearch {
 public:
  struct Result {
    std::size_t record = 0;  // index into the records given to the constructor
    int score = 0;
  };

  // `records` must outlive the EntrySearch; they may have any shape (missing or mistyped fields
  // are left out of the index). They are indexed in each of `languages`.
  EntrySearch(const std::vector<nlohmann::ordered_json>& records,
              const std::vector<Language>& languages);

  // The records matching every token of `query` in languages[language], best first. Empty when
  // the query has no token.
  std::vector<Result> search(std::string_view query, std::size_t language) const;

 private:
  // token -> (record, best weight of the token in that record), in record order.
  using Postings = std::map<std::string, std::vector<std::pair<std::size_t, int>>, std::less<>>;
  // The best score of each record for one query token.
  std::map<std::size_t, int> token_scores(const Postings& postings, const std::string& token) const;

  const std::vector<nlohmann::ordered_json>& records_;
  std::vector<Postings> postings_;  // one per language
};

}  // namespace kbc
