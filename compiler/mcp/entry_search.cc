#include "mcp/entry_search.h"

#include <algorithm>

#include "render/record.h"
#include "search/search_index.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

// The text of a record's tags and aliases, as one field.
std::string keywords(const ordered_json& record) {
  std::string out;
  for (const char* key : {"tags", "aliases"}) {
    const auto it = record.find(key);
    if (it == record.end() || !it->is_array()) continue;
    for (const ordered_json& word : *it) {
      if (word.is_string()) out += word.get<std::string>() + " ";
    }
  }
  return out;
}

// The fields the site's search index holds for a record, with their weights.
std::vector<std::pair<std::string, int>> indexed_fields(const ordered_json& record,
                                                        const Language& language) {
  std::vector<std::pair<std::string, int>> fields = {
      {string_field(record, "error_code"), 10},
      {localized_field(record, "signature", language), 8},
      {string_field(record, "signature"), 8},
      {string_field(record, "id"), 6},
      {keywords(record), 5},
      {localized_field(record, "root_cause", language), 1}};
  // The base language is searched too.
  if (!language.base) fields.push_back({string_field(record, "root_cause"), 1});
  return fields;
}

}  // namespace

EntrySearch::EntrySearch(const std::vector<ordered_json>& records,
                         const std::vector<Language>& languages)
    : records_(records), postings_(languages.size()) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    for (std::size_t l = 0; l < languages.size(); ++l) {
      std::map<std::string, int> best;
      for (const auto& [text, weight] : indexed_fields(records[i], languages[l])) {
        for (std::string& token : search_tokens(text)) {
          int& score = best[std::move(token)];
          score = std::max(score, weight);
        }
      }
      for (const auto& [token, weight] : best) postings_[l][token].emplace_back(i, weight);
    }
  }
}

std::map<std::size_t, int> EntrySearch::token_scores(const Postings& postings,
                                                     const std::string& token) const {
  std::map<std::size_t, int> best;
  const auto take = [&](const std::vector<std::pair<std::size_t, int>>& list, int factor) {
    for (const auto& [record, weight] : list) {
      int& score = best[record];
      score = std::max(score, weight * factor);
    }
  };
  if (static_cast<unsigned char>(token[0]) < 0x80) {
    for (auto it = postings.lower_bound(token);
         it != postings.end() && it->first.starts_with(token); ++it) {
      take(it->second, it->first == token ? 2 : 1);
    }
  } else if (const auto it = postings.find(token); it != postings.end()) {
    take(it->second, 2);
  }
  return best;
}

std::vector<EntrySearch::Result> EntrySearch::search(std::string_view query,
                                                     std::size_t language) const {
  const Postings& postings = postings_.at(language);
  const std::vector<std::string> tokens = search_tokens(query);
  std::map<std::size_t, int> totals;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    std::map<std::size_t, int> scores = token_scores(postings, tokens[t]);
    if (t == 0) {
      totals = std::move(scores);
      continue;
    }
    std::map<std::size_t, int> kept;  // the records that also hold this token
    for (const auto& [record, total] : totals) {
      if (const auto it = scores.find(record); it != scores.end())
        kept.emplace(record, total + it->second);
    }
    totals = std::move(kept);
  }
  std::vector<Result> results;
  for (const auto& [record, score] : totals) results.push_back({record, score});
  std::sort(results.begin(), results.end(), [&](const Result& a, const Result& b) {
    if (a.score != b.score) return a.score > b.score;
    const std::string id_a = string_field(records_[a.record], "id");
    const std::string id_b = string_field(records_[b.record], "id");
    return id_a != id_b ? id_a < id_b : a.record < b.record;
  });
  return results;
}

}  // namespace kbc
