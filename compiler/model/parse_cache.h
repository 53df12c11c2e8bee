// The parse cache: what loading and validating each entry file gave, kept between runs so that
// a lint of one changed file does not parse the 2,521 that did not change.
//
// A result is stored under a key made of the file's path and its exact content, in a folder
// named after this build of kbc (the size, time and inode of its executable), so a stored
// result is only ever used for the very bytes, path and program that produced it: whatever
// happens to the files (edits, renames, deletions, a checkout), the cache cannot change what
// kbc reports. What the last whole lint found and learnt is kept beside the results
// (lint/last_lint.h). It lives in <root>/.kbc-cache/, which holds a
// .gitignore of its own. Anything unreadable in it counts as a miss.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/cache_pack.h"
#include "base/diagnostic.h"
#include "model/entry.h"

namespace kbc {

class ParseCache {
 public:
  struct Result {
    std::optional<Entry> entry;  // nullopt when the file is not a loadable YAML mapping
    Diagnostics diagnostics;     // from loading and validating it
  };

  // `salt` is what else the results depend on (the text of the entry schema, which kbc.yaml's
  // languages change): results stored under another salt are never used.
  explicit ParseCache(const std::string& root, std::string_view salt = "");

  // The stored result for this path and content (`digest`: digest_of the content), if any.
  std::optional<Result> find(const std::string& path, std::string_view digest) const;
  // The stored result with its entry slim (Entry::slimmed), which reads a tenth of the bytes;
  // the full result is kept for a later find (prune does not drop it).
  std::optional<Result> find_slim(const std::string& path, std::string_view digest) const;
  // Stores a result (and its slim copy); safe to call from several threads. Failing to write is not
  // an error.
  void store(const std::string& path, std::string_view digest, const Result& result);
  // Drops the stored results that this run did neither find nor store (old versions of files).
  // Once every result was asked for: find and store do nothing after it.
  void prune();

  // What the last whole lint stored (lint/last_lint.h), if anything. Only the latest is kept.
  // In two parts (lint/last_lint.h), stored at once from two threads; a lint killed between the
  // two leaves facts that name another digest than the findings, which are never used together.
  // The findings part and the facts part as their bytes (LastLint::from_bytes and
  // LastLint::add_facts read them).
  std::optional<std::string> find_last_lint() const;
  std::optional<std::string> find_last_lint_facts() const;
  // `write` puts the part in the stream (LastLint::write_findings, ...).
  using Writer = std::function<bool(std::ostream&)>;
  void store_last_lint(const Writer& write);
  void store_last_lint_facts(const Writer& write);
  // What the last whole lint's load left (load_summary in model/knowledge_base.h), likewise.
  std::optional<nlohmann::json> find_last_load() const;
  void store_last_load(const nlohmann::json& summary);
  // What the last listing of the entry files learnt (model/file_stamps.h), as its text.
  std::optional<std::string> find_file_stamps() const;
  void store_file_stamps(std::string_view text);
  // What the last walk of entries/ saw in each folder (base/folder_memo.h), as its text.
  std::optional<std::string> find_folders() const;
  void store_folders(std::string_view text);
  // What the last build measured of the site's match figures (site/match_figures.h), likewise.
  std::optional<nlohmann::json> find_site_figures() const;
  void store_site_figures(const nlohmann::json& figures);

  // The search index of the last build's site in the language `code` (SearchIndex::store), as
  // its bytes; `write` writes it.
  std::optional<std::string> find_search_index(const std::string& code) const;
  void store_search_index(const std::string& code, const Writer& write);

  // What a build made of one entry (its record and what the site reads of it), as bytes stored
  // under a key that names everything they were made from (site/record_cache.h), in a
  // pack of their own. prune_records() drops those this run neither found nor stored, once
  // a build has asked for every entry's.
  std::optional<std::string> find_record(const std::string& key) const;
  void store_record(const std::string& key, std::string_view bytes);
  void prune_records();

 private:
  std::string key(const std::string& path, std::string_view digest) const;
  static std::string slim_key(const std::string& key);
  std::optional<Result> result_of(const std::string& path, const std::string& bytes,
                                  bool slim) const;
  std::optional<std::string> find_named_bytes(const char* name) const;
  // Replaces the named file with `bytes` (a text or a Writer).
  template <typename Bytes>
  void store_named_bytes(const char* name, const Bytes& bytes);
  std::optional<nlohmann::json> find_named(const char* name) const;
  void store_named(const char* name, const nlohmann::json& stored);

  std::string folder_;  // <root>/.kbc-cache/<fingerprint>, or "" when unusable
  // The parse results and the records, each in a pack (base/cache_pack.h); null when unusable.
  std::unique_ptr<CachePack> results_;
  std::unique_ptr<CachePack> records_;
};

// Diagnostics as the cache stores them, and back; from_json throws on what to_json did not write.
nlohmann::json diagnostic_to_json(const Diagnostic& diagnostic);
nlohmann::json diagnostics_to_json(const Diagnostics& diagnostics);
Diagnostics diagnostics_from_json(const nlohmann::json& stored);

}  // namespace kbc
