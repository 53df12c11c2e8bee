// The pipeline, as the commands drive it:
//
//   discover files -> load YAML (with positions) -> validate against the schema -> model
//     -> lint rules -> emit (JSON bundle, per-entry records, Markdown pages, the site)
//
// Each stage is a free function with explicit inputs and outputs; problems in the content are
// Diagnostics, failures of the tool are ToolError.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/output_tree.h"
#include "base/progress.h"
#include "model/config.h"
#include "model/knowledge_base.h"
#include "render/templates.h"

namespace kbc {

struct CheckedKnowledgeBase {
  KnowledgeBase kb;
  SiteConfig config;        // from kbc.yaml, or the defaults
  Diagnostics diagnostics;  // sorted
  EntryListing listing;     // what `kb` was made from, while it is unread
};

struct CheckOptions {
  bool cache = false;            // use <root>/.kbc-cache (real file systems only)
  std::set<std::string> only;    // when not empty: run the rules on these paths only
  Progress* progress = nullptr;  // shows the loading of the entries
  // Whether the entries may be left unread (KnowledgeBase::read false) when the cache holds what
  // the last whole lint of the same files loaded and found: for a caller that needs only the
  // findings, the digest and which entries the schema accepted.
  bool unread = false;
  // Whether the entries that a whole lint after an edit only cross-checks may be loaded slim
  // (Entry::slim): for a caller that reads of them only what the build reads (emit_outputs,
  // given EmitOptions::whole_entry).
  bool slim = false;
};

// Loads, validates and lints the knowledge base at `root`. With `only`, every entry is still
// loaded (rules that look across entries see them all) but only those are checked.
CheckedKnowledgeBase check_knowledge_base(const FileSystem& fs, const std::string& root,
                                          const CheckOptions& options = {});

// Reads the entries of `checked.kb` when check_knowledge_base left them unread, from the listing
// it was made from and through the cache; the findings stay those of the check. Should a file
// have changed since it was listed, the whole check is made again. With `slim`, every entry is
// loaded slim (CheckOptions::slim), as the lint checked these very files.
void read_entries(const FileSystem& fs, const std::string& root, CheckedKnowledgeBase& checked,
                  Progress* progress, bool slim = false);

// Discovers, loads and validates the entries at `root` (in the languages of its kbc.yaml, whose
// problems also go to `diagnostics`) without running the lint rules, for commands that read a
// knowledge base rather than check it (kbc match). With `use_cache`, through <root>/.kbc-cache.
KnowledgeBase load_entries(const FileSystem& fs, const std::string& root, bool use_cache,
                           Diagnostics& diagnostics);

struct BuiltOutput {
  OutputTree tree;
  std::size_t entries = 0;  // entries written
  Diagnostics problems;     // broken links in the site: the tree must not be committed
  // The records and the site model the site was made from, freed with the BuiltOutput (which
  // `kbc build` leaves to the process's exit: 100,000 of them take a second to take apart).
  std::shared_ptr<void> records;
};

struct EmitOptions {
  Progress* progress = nullptr;
  // Where the files go as they are made (the tree keeps none of them); without, the tree holds
  // them.
  OutputStage* stage = nullptr;
  // site_inputs_digest: with it, the pages that the stage's output holds from the same inputs
  // are reused, not rendered.
  std::string site_digest;
  // Where what the last build made of each entry (site/record_cache.h) and the match figures
  // it measured are read, and this build's kept.
  ParseCache* cache = nullptr;
  // Called with an entry's index in kb.entries once its record is made, from any thread: a
  // caller done with the entries frees each there (Entry::drop_data), so that the entries and
  // the records are not both held (1.3 GB each at 100,000 entries).
  std::function<void(std::size_t)> entry_done;
  // A slim entry whole (kb.entries holds slim ones when CheckOptions::slim was given), for the
  // record of one that `cache` does not hold.
  std::function<Entry(const Entry&)> whole_entry;
};

// Renders every schema-valid entry whose path is not in `excluded`: the bundle, the records,
// the Markdown pages and the site.
BuiltOutput emit_outputs(const KnowledgeBase& kb, const std::set<std::string>& excluded,
                         const TemplateSet& templates, const SiteConfig& config,
                         const EmitOptions& options = {});

// A digest of what every page of a build of the knowledge base at `root` reads besides the
// entries: this build of kbc, kbc.yaml, the site settings as given (with the images they name),
// the languages and the knowledge base's own templates/. "" when it cannot be known (the
// executable's identity is unknown).
std::string site_inputs_digest(const FileSystem& fs, const std::string& root,
                               const SiteConfig& config, const std::vector<Language>& languages);

// A digest of everything a build of `kb` with `config` reads, leaving out `excluded`: what
// site_inputs_digest covers, and every entry and benign file. Two builds with the same digest
// write the same output. "" when it cannot be known (the executable's identity is unknown).
std::string build_inputs_digest(const FileSystem& fs, const std::string& root,
                                const KnowledgeBase& kb, const SiteConfig& config,
                                const std::set<std::string>& excluded);
// How many entries a build writes: the schema-valid ones not in `excluded`.
std::size_t entries_to_build_count(const KnowledgeBase& kb, const std::set<std::string>& excluded);

// The paths of files with at least one error.
std::set<std::string> paths_with_errors(const Diagnostics& diagnostics);

}  // namespace kbc
