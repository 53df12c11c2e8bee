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
//
// A build after an edit updates the last build's index rather than making it again: store()
// writes the index's terms and postings, with a key per document (a digest of what it was made
// from) and a digest of it all; the next build takes them back (use_last) and, for each
// document whose key it held, the document's postings (reuse) instead of tokenizing its fields.
// Making the index was a quarter of the CPU time of such a build at 2,500 entries. The files are
// the same bytes either way. The documents' chunks are made by the caller (document_chunk),
// which reuses those the output holds from the same records.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
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
  // Takes the index that store() wrote, under the same `salt` (a digest of what else the index
  // depends on: kbc, the site's settings, the language), as where reuse() finds documents.
  // False, and nothing taken, when `bytes` are not such an index.
  bool use_last(std::string_view bytes, std::string_view salt);
  // Adds the document that the last index held under `key`, taking its postings from there:
  // true when it did. False, and nothing added, when it held none, or not in an order this index
  // can take (documents are taken in the order the last one had them).
  bool reuse(std::string_view key);
  // Adds a document; each field's tokens score by its weight and length (a token keeps its best
  // score). Every document has the same fields in the same order. `key` is what the next
  // build's reuse() finds it by (store() writes no index where a document has none).
  void add(const std::vector<Field>& fields, std::string_view key = {});
  // Extra data for meta.json (the Chinese site's glossary of search terms).
  void set_glossary(std::map<std::string, std::string> glossary) {
    glossary_ = std::move(glossary);
  }
  // Ends adding. The index's meta.json and term shards, paths relative to the language's folder
  // ("search/meta.json", ...), each given to `put` as it is made (held together, a language's
  // were 56 MB at 100,000 entries).
  void each_file(std::string_view language,
                 const std::function<void(std::string path, std::string content)>& put);
  // After each_file: writes the index for the next build's use_last, under `salt`. False, and
  // nothing written, when a document has no key.
  bool store(std::ostream& out, std::string_view salt) const;
  // search/d<k>.json: `documents` are the index's documents k * kDocChunk up to (k + 1) *
  // kDocChunk, in the order they were added.
  static std::string document_chunk(const std::vector<Document>& documents);

 private:
  // Many strings in one allocation, each ending where `ends` says.
  struct Strings {
    std::string bytes;
    std::vector<std::uint32_t> ends;
    std::size_t size() const { return ends.size(); }
    std::string_view operator[](std::size_t i) const {
      const std::size_t begin = i ? ends[i - 1] : 0;
      return std::string_view(bytes).substr(begin, ends[i] - begin);
    }
    void push_back(std::string_view text);
  };
  // A posting is a document's number and a field's, in one number (document << 8 | field):
  // sorted, they are in document order, then field order.
  using Posting = std::uint32_t;
  static constexpr int kFieldBits = 8;
  static constexpr std::size_t kMaxFields = std::size_t{1} << kFieldBits;
  static constexpr std::size_t kMaxDocuments = std::size_t{1} << (32 - kFieldBits);
  static Posting make_posting(std::size_t doc, std::size_t field) {
    return static_cast<Posting>(doc << kFieldBits | field);
  }
  static std::size_t doc_of(Posting posting) { return posting >> kFieldBits; }
  static std::size_t field_of(Posting posting) { return posting & (kMaxFields - 1); }
  // The sorted terms, each with its postings (at most one per document and field, sorted).
  struct Terms {
    Strings terms;
    std::vector<std::uint32_t> ends;  // where each term's postings end in `postings`
    std::vector<Posting> postings;
    // Term t's postings: [first, ends[t]).
    std::size_t first(std::size_t t) const { return t ? ends[t - 1] : 0; }
  };
  // The last index: its terms, its documents' keys and field lengths.
  struct Last {
    Terms terms;
    Strings keys;
    std::vector<std::int32_t> field_weights, lengths;
    std::unordered_map<std::string_view, std::size_t> by_key;
    std::vector<std::int32_t> renumbered;  // per document: its number here, or -1
    std::int64_t taken = -1;               // the last document taken
  };
  // The number the next document takes; ToolError beyond kMaxDocuments.
  std::size_t next_document() const;
  // Merges the last index's reused postings and the added ones into terms_ (once).
  void finish();
  void set_fields(const std::vector<std::int32_t>& weights);
  // A posting's weight, by field, then the field's length: BM25F's for a term that occurs once.
  std::vector<std::vector<int>> weight_table() const;

  Strings keys_;
  bool keyless_ = false;               // a document was added without a key
  std::vector<std::int32_t> lengths_;  // per document, per field: its length in tokens
  // The added documents' terms, hashed while documents are added (100,000 entries make millions
  // of terms) and sorted once, in finish(). Looked up by views (TermHash is transparent).
  struct TermHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view term) const {
      return std::hash<std::string_view>()(term);
    }
  };
  std::unordered_map<std::string, std::vector<Posting>, TermHash, std::equal_to<>> added_;
  Last last_;
  Terms terms_;
  bool finished_ = false;
  // What add() reuses from one field to the next: the field lowercased, its tokens (views into
  // it) and the phrase being looked up.
  struct Scratch {
    std::string lowered, phrase;
    std::vector<std::string_view> tokens;
  } scratch_;
  std::vector<std::int32_t> field_weights_;
  std::vector<std::int64_t> field_tokens_;  // per field, the sum of its lengths
  std::map<std::string, std::string> glossary_;
};

}  // namespace kbc
