// The search index of one site language, written by kbc and read by site/assets/search.js.
//
// Words are runs of ASCII letters and digits, lowercased; Chinese (and other CJK) text is
// indexed as overlapping pairs of characters, so any substring of two characters or more is
// found without a dictionary. search.js tokenizes queries with the same rules; the cases in
// tests/browser/tokenizer-cases.json hold both sides to them. Two words that follow each other
// in a document's signature, title or error code are also indexed as one term ("out of"), so a
// query's phrases rank first.
//
// The index is split, as Pagefind splits its own, so that a query downloads only what it needs
// and that amount stays bounded however large the knowledge base grows:
//
//   search/meta.json   {"version": 2, "lang", "docs": N, "doc_chunk": 32, "max_postings",
//                       "shards": [first term of each shard, ...], "glossary": {...}}
//   search/t<k>.json   {term: [df, doc, weight, doc, weight, ...], ...} for the terms from
//                       shards[k] up to shards[k + 1] (byte order); df counts every document
//                       that has the term, the postings keep the max_postings best weights
//   search/d<k>.json   [[url, title, code, id, domain, snippet], ...] for documents
//                       k * doc_chunk up to (k + 1) * doc_chunk
//
// A posting's weight is BM25F's for a term that occurs once: 10 x the field's weight x
// (k1 + 1) / (1 + k1 x (1 - b + b x length / average length of the field)), k1 = 1.2,
// b = 0.75, of the field that gives the most; so a word in a short title counts more than the
// same word in a long one.
//
// A shard holds terms up to about kShardBytes of JSON, and a term at most max_postings
// postings, so a query of n words reads meta.json, at most a few shards per word and one
// document chunk per result shown.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kbc {

// The tokens of `text`, in order, duplicates kept.
std::vector<std::string> search_tokens(std::string_view text);

class SearchIndex {
 public:
  static constexpr std::size_t kShardBytes = std::size_t{24} * 1024;
  static constexpr std::size_t kDocChunk = 32;
  static constexpr std::size_t kMaxPostings = 1000;

  struct Document {
    std::string url;  // relative to the language root
    std::string title, code, id, domain, snippet;
  };
  struct Field {
    std::string_view text;
    int weight = 1;
    bool phrases = false;  // also index its pairs of adjacent words
  };
  // Adds a document; each field's tokens score by its weight and length (a token keeps its best
  // score). Every document has the same fields in the same order.
  void add(Document document, const std::vector<Field>& fields);
  // Extra data for meta.json (the Chinese site's glossary of search terms).
  void set_glossary(std::map<std::string, std::string> glossary) {
    glossary_ = std::move(glossary);
  }
  // The index's files, paths relative to the language's folder ("search/meta.json", ...), each
  // given to `put` as it is made (held together, a language's were 56 MB at 100,000 entries).
  void each_file(std::string_view language,
                 const std::function<void(std::string path, std::string content)>& put) const;

 private:
  std::vector<Document> documents_;
  struct Posting {
    int doc;
    int field;   // index in add()'s fields
    int length;  // the field's length in tokens
  };
  int weight(const Posting& posting) const;

  // Hashed while documents are added (100,000 entries make millions of terms); sorted once, in
  // each_file(). Looked up by views (TermHash is transparent).
  struct TermHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view term) const {
      return std::hash<std::string_view>()(term);
    }
  };
  std::unordered_map<std::string, std::vector<Posting>, TermHash, std::equal_to<>> postings_;
  // What add() reuses from one field to the next: the field lowercased, its tokens (views into
  // it) and the phrase being looked up.
  struct Scratch {
    std::string lowered, phrase;
    std::vector<std::string_view> tokens;
  } scratch_;
  std::vector<int> field_weights_;
  std::vector<double> field_tokens_;  // per field, the sum of its lengths
  std::map<std::string, std::string> glossary_;
};

}  // namespace kbc
