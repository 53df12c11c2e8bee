// The parse cache: what loading and validating each entry file gave, kept between runs so that
// a lint of one changed file does not parse the 2,521 that did not change.
//
// A result is stored under a key made of the file's path and its exact content, in a folder
// named after this build of kbc (the size, time and inode of its executable), so a stored
// result is only ever used for the very bytes, path and program that produced it: whatever
// happens to the files (edits, renames, deletions, a checkout), the cache cannot change what
// kbc reports. The findings of the last whole lint are kept beside the results, under the
// digest of every file of the knowledge base. It lives in <root>/.kbc-cache/, which holds a
// .gitignore of its own. Anything unreadable in it counts as a miss.
#pragma once

#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

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

  // The stored result for this path and content, if any.
  std::optional<Result> find(const std::string& path, std::string_view content) const;
  // Stores a result; safe to call from several threads. Failing to write is not an error.
  void store(const std::string& path, std::string_view content, const Result& result);
  // Removes stored results that this run did neither find nor store (old versions of files).
  void prune();

  // The findings of the lint rules on the whole knowledge base whose files have `digest`
  // (KnowledgeBase::digest), as stored by the last whole lint, if it was of these files. Only
  // the latest whole lint is kept.
  std::optional<Diagnostics> find_findings(std::string_view digest) const;
  void store_findings(std::string_view digest, const Diagnostics& findings);

 private:
  std::string key(const std::string& path, std::string_view content) const;

  std::string folder_;  // <root>/.kbc-cache/<fingerprint>, or "" when unusable
  mutable std::mutex used_mutex_;
  mutable std::set<std::string> used_;
};

}  // namespace kbc
