// The whole knowledge base: every entry under <root>/entries, loaded and schema-checked.
//
// Stage 1-3 of the pipeline (discover, load, validate) end here. Files that are not valid YAML
// are not entries, but their ids still count as existing, so that a syntax error in one file
// does not also produce "unknown id" errors in every entry that links to it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/progress.h"
#include "model/benign_file.h"
#include "model/entry.h"
#include "model/evidence.h"
#include "model/languages.h"
#include "model/parse_cache.h"
#include "validate/schema_validator.h"

namespace kbc {

struct KnowledgeBase {
  std::vector<Entry> entries;      // sorted by path
  std::set<std::string> file_ids;  // ids implied by every entry file, loadable or not
  std::map<std::string, std::vector<std::size_t>> by_id;  // declared id -> indices into entries
  // The languages it is written in (kbc.yaml), which its entries were validated for.
  std::vector<Language> languages = default_languages();
  // A digest of the path and content of every entry file (and of the benign files): two loads
  // with equal digests read the same files with the same bytes.
  std::string digest;
  // kbc.yaml's `benign` files, read (model/config.h).
  std::vector<BenignFile> benign;

  // kbc verify's records (verify.lock), and the text of the recipe files that entries name
  // (reproduce.file), by path relative to the root.
  EvidenceLock evidence;
  std::map<std::string, std::string> recipe_files;

  // The entry declaring `id` (the first, when several do), or nullptr.
  const Entry* find(std::string_view id) const;
  // The evidence of `entry` when it is reproduced and its recipe has not changed since; else
  // nullptr.
  const Evidence* current_evidence(const Entry& entry) const;
};

// Reads what kbc verify needs besides the entries: the recipe files the entries name and
// verify.lock (problems go to `out`), and adds them to kb.digest, since lint's findings depend
// on them.
void load_evidence(const FileSystem& fs, const std::string& root, KnowledgeBase& kb,
                   Diagnostics& out);

// Discovers and loads <root>/entries/**.yaml. Throws ToolError when there is no entries folder.
// With a cache, files whose result it holds are not parsed again, and new results are stored.
KnowledgeBase load_knowledge_base(const FileSystem& fs, const std::string& root,
                                  const SchemaValidator& schema, Diagnostics& out,
                                  ParseCache* cache = nullptr, Progress* progress = nullptr);

}  // namespace kbc
