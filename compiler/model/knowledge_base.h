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
  // The files the entries name in reproduce.file, relative to the root, in entry order.
  std::vector<std::string> recipe_paths;
  // False when the entries were not read (unread_knowledge_base): each holds its path, digest,
  // kbc-disable comments and shape_ok, but no data, and by_id is empty.
  bool read = true;

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

// The entry files under <root>/entries, each read once for its digest and kbc-disable comments
// (on every core; the texts are not kept). Throws ToolError when there is no entries folder.
struct EntryListing {
  std::vector<std::string> files;    // the .yaml files, relative to entries/, in the walk's order
  std::vector<std::string> digests;  // of each file's content
  std::vector<std::vector<SuppressionComment>> suppressions;  // each file's
  Diagnostics refused;  // the links and .yml files under entries/, which kbc does not read
  std::string digest;   // of every file's path and digest
};
// With a cache, a file whose stamp is that of the last listing (model/file_stamps.h) is not read.
EntryListing list_entry_files(const FileSystem& fs, const std::string& root,
                              ParseCache* cache = nullptr);

// Loads the listed files. With a cache, files whose result it holds (by digest) are not read or
// parsed again, and new results are stored; the files whose `slim` is true are loaded slim
// (Entry::slim) when it holds their slim copy. A file that changed since it was listed is
// loaded as it is now, and the listing updated. The listing's refused files are the caller's
// to report.
KnowledgeBase load_listed_entries(const FileSystem& fs, const std::string& root,
                                  EntryListing& listing, const SchemaValidator& schema,
                                  Diagnostics& out, ParseCache* cache = nullptr,
                                  Progress* progress = nullptr, const std::vector<bool>& slim = {});

// `entry` whole when it is slim (from `cache`, else its file read and parsed again); throws
// ToolError when its file no longer has the bytes it was loaded from.
Entry whole_entry(const FileSystem& fs, const std::string& root, const Entry& entry,
                  const SchemaValidator& schema, ParseCache* cache);

// Discovers and loads <root>/entries/**.yaml: list_entry_files, then load_listed_entries.
KnowledgeBase load_knowledge_base(const FileSystem& fs, const std::string& root,
                                  const SchemaValidator& schema, Diagnostics& out,
                                  ParseCache* cache = nullptr, Progress* progress = nullptr);

// What a load of `listing` leaves for the next run (ParseCache::store_last_load): the listing's
// digest, which files held entries and whether the schema accepted each, the recipe paths and
// `loading`, the diagnostics the load made.
nlohmann::json load_summary(const EntryListing& listing, const KnowledgeBase& kb,
                            const Diagnostics& loading);
// The knowledge base of `listing`, with its entries unread (KnowledgeBase::read false), from the
// summary that a load of the same files left; its diagnostics, then the listing's refused files,
// go to `out`. nullopt when the
// summary is of other files (or damaged). The same files under the same parse cache (the same
// kbc, the same schema) load the same: what the lint of an unchanged knowledge base needs.
std::optional<KnowledgeBase> unread_knowledge_base(const EntryListing& listing,
                                                   const nlohmann::json& summary, Diagnostics& out);

}  // namespace kbc
