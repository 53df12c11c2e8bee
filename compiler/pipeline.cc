#include "pipeline.h"

#include <algorithm>
#include <future>
#include <optional>

#include "base/digest.h"
#include "base/file_system.h"
#include "base/memory.h"
#include "base/parallel.h"
#include "base/timings.h"

#include "lint/last_lint.h"
#include "lint/rule.h"
#include "lint/suppressions.h"
#include "match/benign_corpus.h"
#include "render/markdown_page.h"
#include "render/record.h"
#include "site/link_check.h"
#include "site/record_cache.h"
#include "site/record_row.h"
#include "site/site_builder.h"
#include "validate/schema_validator.h"

namespace kbc {

namespace {

// Gives `kb` what it depends on besides its entries: the languages and benign files of kbc.yaml
// and kbc verify's evidence (their digests are added to kb.digest, as lint's findings depend on
// them).
void add_settings_and_evidence(const FileSystem& fs, const std::string& root,
                               const KbConfig& config, KnowledgeBase& kb,
                               Diagnostics& diagnostics) {
  kb.languages = config.languages;
  kb.benign = config.benign;
  load_evidence(fs, root, kb, diagnostics);
  if (!kb.benign.empty()) {
    Digest listing;
    for (const BenignFile& file : kb.benign) listing.add(file.path).add(file.text);
    kb.digest += "-benign-" + listing.hex();
  }
}

// Discovers, loads and validates the entries against `schema_text`, the entry schema of the
// knowledge base's languages, through `cache` when there is one.
KnowledgeBase load_in_languages(const FileSystem& fs, const std::string& root,
                                const KbConfig& config, const std::string& schema_text,
                                ParseCache* cache, Diagnostics& diagnostics) {
  KnowledgeBase kb = load_knowledge_base(
      fs, root, SchemaValidator(nlohmann::json::parse(schema_text)), diagnostics, cache);
  add_settings_and_evidence(fs, root, config, kb, diagnostics);
  return kb;
}

// The knowledge base of `listing` unread, with the findings of its last lint, when the cache
// holds both for these files (unread_knowledge_base).
std::optional<Diagnostics> unread_and_linted(const FileSystem& fs, const std::string& root,
                                             const KbConfig& config, const EntryListing& listing,
                                             const ParseCache& cache, std::optional<LastLint>& last,
                                             KnowledgeBase& kb, Diagnostics& diagnostics) {
  const std::optional<nlohmann::json> summary = cache.find_last_load();
  Diagnostics loading;
  std::optional<KnowledgeBase> unread =
      summary ? unread_knowledge_base(listing, *summary, loading) : std::nullopt;
  if (!unread) return std::nullopt;
  add_settings_and_evidence(fs, root, config, *unread, loading);
  std::optional<Diagnostics> findings = last_lint_findings(*unread, last);
  if (!findings) return std::nullopt;
  kb = std::move(*unread);
  diagnostics.insert(diagnostics.end(), std::make_move_iterator(loading.begin()),
                     std::make_move_iterator(loading.end()));
  return findings;
}

// Moves `findings` after `diagnostics`, in whichever of the two vectors is the larger: the
// findings of 100,000 entries (527,000, 93 MB of vector) copied into a new one beside themselves
// were the peak of a lint.
void append_findings(Diagnostics& diagnostics, Diagnostics& findings) {
  if (findings.size() > diagnostics.size()) {
    findings.insert(findings.begin(), std::make_move_iterator(diagnostics.begin()),
                    std::make_move_iterator(diagnostics.end()));
    diagnostics.swap(findings);
  } else {
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(findings.begin()),
                       std::make_move_iterator(findings.end()));
  }
  Diagnostics().swap(findings);
}

// The parse cache of `root` for entries of this schema, when `wanted`.
std::optional<ParseCache> parse_cache(bool wanted, const std::string& root,
                                      const std::string& schema_text) {
  if (!wanted) return std::nullopt;
  return std::optional<ParseCache>(std::in_place, root, schema_text);
}

}  // namespace

KnowledgeBase load_entries(const FileSystem& fs, const std::string& root, bool use_cache,
                           Diagnostics& diagnostics) {
  const KbConfig config = load_kb_config(fs, root, diagnostics);
  const std::string schema_text = entry_schema_text(config.languages);
  std::optional<ParseCache> cache = parse_cache(use_cache, root, schema_text);
  return load_in_languages(fs, root, config, schema_text, cache ? &*cache : nullptr, diagnostics);
}

namespace {

// The files whose entries may be loaded slim (CheckOptions::slim): those that the lint after an
// edit only cross-checks. The last lint's facts are read into `last` (from `reading`, when its
// findings part is not read yet).
std::vector<bool> slim_files(const ParseCache& cache, const EntryListing& listing,
                             const KbConfig& config, std::future<std::optional<LastLint>>& reading,
                             std::optional<LastLint>& last) {
  const Phase phase("read the last lint's facts");
  if (!last && reading.valid()) last = reading.get();
  if (!last || !add_last_lint_facts(cache, *last)) return {};
  return lint_unchanged_files(*last, listing, config.benign);
}

}  // namespace

CheckedKnowledgeBase check_knowledge_base(const FileSystem& fs, const std::string& root,
                                          const CheckOptions& options) {
  CheckedKnowledgeBase checked;
  KbConfig config = load_kb_config(fs, root, checked.diagnostics);
  checked.config = std::move(config.site);
  const std::string schema_text = entry_schema_text(config.languages);
  std::optional<ParseCache> cache = parse_cache(options.cache, root, schema_text);
  const bool whole = cache && options.only.empty();  // a whole lint, through the cache
  std::optional<Phase> phase("load");
  // The last lint's findings (97 MB of CBOR at 100,000 entries) are read on a thread of their
  // own while the files are listed and loaded: every whole lint through the cache wants them.
  std::future<std::optional<LastLint>> reading;
  if (whole) reading = std::async(std::launch::async, [&cache] { return read_last_lint(*cache); });
  std::optional<Phase> step("list the files");
  EntryListing listing = list_entry_files(fs, root, cache ? &*cache : nullptr);
  step.reset();
  std::optional<LastLint> last;
  std::optional<Diagnostics> findings;
  if (whole && options.unread) {
    const Phase waiting("read the last lint");
    last = reading.get();
    findings =
        unread_and_linted(fs, root, config, listing, *cache, last, checked.kb, checked.diagnostics);
  }
  if (!findings) {
    std::vector<bool> slim;
    if (whole && options.slim) slim = slim_files(*cache, listing, config, reading, last);
    Diagnostics loading;
    step.emplace("load the entries");
    checked.kb =
        load_listed_entries(fs, root, listing, SchemaValidator(nlohmann::json::parse(schema_text)),
                            loading, cache ? &*cache : nullptr, options.progress, slim);
    step.reset();
    std::optional<nlohmann::json> summary;
    if (whole) summary = load_summary(listing, checked.kb, loading);
    loading.insert(loading.end(), listing.refused.begin(), listing.refused.end());
    add_settings_and_evidence(fs, root, config, checked.kb, loading);
    checked.diagnostics.insert(checked.diagnostics.end(), std::make_move_iterator(loading.begin()),
                               std::make_move_iterator(loading.end()));
    if (options.progress) options.progress->clear();
    return_free_memory();  // what parsing and validating dropped
    phase.emplace("lint");
    if (whole && reading.valid()) {
      const Phase waiting("read the last lint");
      last = reading.get();
    }
    findings = whole ? run_lint_cached(checked.kb, *cache, std::move(last))
                     : run_lint(checked.kb, options.only);
    if (summary) cache->store_last_load(*summary);  // after the lint it goes with is stored
  }
  if (!checked.kb.read) checked.listing = std::move(listing);
  append_findings(checked.diagnostics, *findings);
  // kbc.yaml's rule settings and the kbc-disable comments apply on every run, after the cache.
  apply_rule_settings(checked.diagnostics, checked.kb, config.lint, options.only);
  sort_diagnostics(checked.diagnostics);
  return checked;
}

void read_entries(const FileSystem& fs, const std::string& root, CheckedKnowledgeBase& checked,
                  Progress* progress, bool slim) {
  if (checked.kb.read) return;
  const Phase phase("read the entries");
  const std::string schema_text = entry_schema_text(checked.kb.languages);
  ParseCache cache(root, schema_text);
  const std::string listed = checked.listing.digest;
  Diagnostics loading;  // the check has them already
  KnowledgeBase loaded = load_listed_entries(
      fs, root, checked.listing, SchemaValidator(nlohmann::json::parse(schema_text)), loading,
      &cache, progress, std::vector<bool>(slim ? checked.listing.files.size() : 0, true));
  if (progress) progress->clear();
  if (checked.listing.digest != listed) {  // a file changed since: its findings are not these
    checked = check_knowledge_base(fs, root, {true, {}, progress, false, slim});
    return;
  }
  checked.kb.entries = std::move(loaded.entries);
  checked.kb.by_id = std::move(loaded.by_id);
  checked.kb.read = true;
  checked.listing = EntryListing();
}

std::set<std::string> paths_with_errors(const Diagnostics& diagnostics) {
  std::set<std::string> paths;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError) paths.insert(d.path);
  }
  return paths;
}

namespace {

// The files of one entry: its record and its pages. The record is held as its part of kb.json
// (the JSON text of the record, a third of what it takes as a JSON value) and the row the site's
// lists read (site/record_row.h).
struct EntryFiles {
  std::string path;  // the entry's file, relative to the root
  RecordRow row;
  std::string indented;                // the record's part of kb.json (indented_record)
  std::string digest;                  // of the record as api/<id>.json holds it
  const Evidence* evidence = nullptr;  // kbc verify's, when current and reproduced
};

// The schema-valid entries not in `excluded`, sorted by id: not the same order as paths
// ("a/b-c.yaml" sorts before "a/b.yaml").
std::vector<const Entry*> entries_to_build(const KnowledgeBase& kb,
                                           const std::set<std::string>& excluded) {
  // Each id looked up once, not in every comparison (a search of the entry's keys).
  std::vector<std::pair<std::string_view, const Entry*>> keyed;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok && !excluded.count(entry.path)) keyed.emplace_back(entry.id(), &entry);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<const Entry*> built;
  built.reserve(keyed.size());
  for (const auto& [id, entry] : keyed) built.push_back(entry);
  return built;
}

// What the Markdown page of `file` in `language` is made from, for OutputTree::reuse.
std::string page_key(const std::string& site_digest, const Language& language,
                     const EntryFiles& file) {
  Digest key;
  key.add("markdown page 1").add(site_digest).add(language.code).add(file.digest);
  return key.hex().substr(0, 32);
}

// Each entry's record, and its record and Markdown pages added to `tree` with the site's copies
// of them (so that site/ can be published on its own), on every core. With `site_digest`, the
// Markdown pages the output holds from the same record are reused; with `cache`, the records
// and rows made by the last build from the same entries are (site/record_cache.h).
std::vector<EntryFiles> render_entries(const KnowledgeBase& kb,
                                       const std::vector<const Entry*>& built,
                                       const TemplateSet& templates, const EmitOptions& options,
                                       OutputTree& tree) {
  const std::vector<Language>& languages = kb.languages;
  // Templates are read here, once; each worker compiles its own copy.
  templates.text("page.md.mustache");
  for (const Language& language : languages) templates.strings(language.code);
  std::vector<EntryFiles> files(built.size());
  if (options.progress) options.progress->start("records", built.size());
  parallel_slices(built.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<MarkdownRenderer> renderers;
    for (const Language& language : languages) renderers.emplace_back(templates, language);
    for (std::size_t i = begin; i < end; ++i) {
      EntryFiles& file = files[i];
      const std::string id = built[i]->id();  // the entry is dropped below
      file.path = built[i]->path;
      file.evidence = kb.current_evidence(*built[i]);
      std::optional<nlohmann::ordered_json> record;
      MadeRecord made = made_record(*built[i], languages, file.evidence, options.cache, record,
                                    options.whole_entry);
      if (options.entry_done)
        options.entry_done(static_cast<std::size_t>(built[i] - kb.entries.data()));
      file.row = std::move(made.row);
      file.digest = std::move(made.digest);
      file.indented = std::move(made.indented);
      // The record's file, put again unread when the output holds it from the same text.
      const std::string api = "api/" + id + ".json";
      if (!tree.reuse_with_copy(api, "site/" + api, file.digest))
        tree.add_with_copy(api, "site/" + api, unindented_record(file.indented), file.digest);
      for (std::size_t l = 0; l < languages.size(); ++l) {
        const std::string md = "md/" + languages[l].code + "/" + id + ".md";
        // A page reads its record only: the same record, the same page.
        std::string key =
            options.site_digest.empty() ? "" : page_key(options.site_digest, languages[l], file);
        if (tree.reuse_with_copy(md, "site/" + md, key)) continue;
        if (!record) record = nlohmann::ordered_json::parse(file.indented);
        tree.add_with_copy(md, "site/" + md, renderers[l].render(*record), key);
      }
      if (options.progress) options.progress->advance();
    }
  });
  if (options.cache) options.cache->prune_records();
  return files;
}

// What kb.json is made from: the digests of its records, in order, by this kbc (which frames
// them); empty when one is not known.
std::string bundle_key(const std::vector<EntryFiles>& files) {
  const std::string build = executable_identity();
  if (build.empty()) return "";
  Digest key;
  key.add("kbc bundle 1").add(build).add(files.size());
  for (const EntryFiles& file : files) {
    if (file.digest.empty()) return "";
    key.add(file.digest);
  }
  return key.hex();
}

// The bundle: every record, in id order, written a record at a time (bundle_text whole is 318 MB
// at 100,000 entries, on top of the records' texts). Returns where each record lies in it.
std::vector<std::uint64_t> add_bundle(const std::vector<EntryFiles>& files, OutputTree& tree) {
  std::vector<std::string_view> records;
  for (const EntryFiles& file : files) records.push_back(file.indented);
  const std::vector<std::string_view> pieces = bundle_pieces(records);
  std::vector<std::uint64_t> at;  // a record is a piece of its own, the very view given
  std::uint64_t offset = 0;
  for (const std::string_view piece : pieces) {
    if (at.size() < records.size() && piece.data() == records[at.size()].data())
      at.push_back(offset);
    offset += piece.size();
  }
  tree.add_pieces("kb.json", pieces, bundle_key(files));
  return at;
}

// Where the site reads a record again from, for an entry page it renders: the records' parts of
// kb.json (318 MB at 100,000 entries, held through the site phase otherwise), read back from the
// kb.json the build staged; when it staged none (its bytes did not change), from a scratch file
// beside the output they are written to, else held.
class RecordParts {
 public:
  // `in_bundle`: where add_bundle put each record.
  RecordParts(std::vector<EntryFiles>& files, const std::vector<std::uint64_t>& in_bundle,
              const OutputStage* stage)
      : files_(files) {
    if (!stage) return;
    // Reading kb.json's staged copy back writes nothing more: a scratch copy of the parts was
    // 318 MB and 0.8 s written again after one edit at 100,000 entries. When no record changed
    // (a template, a comment), the output's kb.json holds them and stays as it is.
    std::optional<ScratchFile> staged = stage->put_file("kb.json");
    if (staged && in_bundle.size() == files.size()) {
      file_.emplace(std::move(*staged));
      for (std::size_t i = 0; i < files.size(); ++i)
        parts_.push_back({in_bundle[i], files[i].indented.size()});
    } else if (std::optional<ScratchFile> scratch = stage->scratch_file()) {
      file_.emplace(std::move(*scratch));
      if (!write_parts()) {
        file_.reset();
        parts_.clear();
        return;  // the parts stay in memory
      }
    } else {
      return;
    }
    for (EntryFiles& file : files) std::string().swap(file.indented);
  }

  // The record of the `i`th file whole.
  nlohmann::ordered_json record(std::size_t i) const {
    if (!file_) return nlohmann::ordered_json::parse(files_[i].indented);
    return nlohmann::ordered_json::parse(file_->read(parts_[i].first, parts_[i].second));
  }

 private:
  // The parts, one after the other in file_, a scratch file.
  bool write_parts() {
    std::string buffer;  // written a megabyte at a time
    for (const EntryFiles& file : files_) {
      parts_.push_back({file_->size() + buffer.size(), file.indented.size()});
      buffer += file.indented;
      if (buffer.size() >= (1 << 20)) {
        if (!file_->append(buffer)) return false;
        buffer.clear();
      }
    }
    return file_->append(buffer);
  }

  std::vector<EntryFiles>& files_;
  std::optional<ScratchFile> file_;
  std::vector<std::pair<std::uint64_t, std::size_t>> parts_;  // where each part lies in file_
};

// What a build is made from, kept until the BuiltOutput goes.
struct Emitted {
  std::vector<EntryFiles> files;
  std::optional<RecordParts> parts;
  std::optional<SiteModel> model;
};

}  // namespace

std::string site_inputs_digest(const FileSystem& fs, const std::string& root,
                               const SiteConfig& config, const std::vector<Language>& languages) {
  const std::string build = executable_identity();
  if (build.empty()) return "";
  Digest inputs;
  inputs.add("kbc site inputs 1").add(build);
  const std::string config_file = join_path(root, kConfigFile);
  inputs.add(fs.size(config_file) ? fs.read(config_file) : "");
  inputs.add(config.title).add(config.base_url).add(config.description).add(config.edit_url);
  for (const SiteConfig::Image* image : {&config.logo, &config.favicon})
    inputs.add(image->name).add(image->bytes);
  inputs.add(languages.size());
  for (const Language& language : languages) {
    inputs.add(language.code).add(language.html_lang).add(language.name);
    inputs.add(language.english_name).add(language.base ? 1 : 0);
  }
  const std::string templates = join_path(root, "templates");
  if (fs.is_directory(templates)) {
    for (const std::string& file : fs.list(templates, ""))
      inputs.add(file).add(fs.read(join_path(templates, file)));
  }
  return inputs.hex();
}

std::string build_inputs_digest(const FileSystem& fs, const std::string& root,
                                const KnowledgeBase& kb, const SiteConfig& config,
                                const std::set<std::string>& excluded) {
  const std::string site = site_inputs_digest(fs, root, config, kb.languages);
  if (site.empty()) return "";
  Digest inputs;
  inputs.add("kbc build inputs 2").add(site).add(kb.digest);
  inputs.add(excluded.size());
  for (const std::string& path : excluded) inputs.add(path);
  return inputs.hex();
}

std::size_t entries_to_build_count(const KnowledgeBase& kb, const std::set<std::string>& excluded) {
  return entries_to_build(kb, excluded).size();
}

BuiltOutput emit_outputs(const KnowledgeBase& kb, const std::set<std::string>& excluded,
                         const TemplateSet& templates, const SiteConfig& config,
                         const EmitOptions& options) {
  BuiltOutput out;
  if (options.stage) out.tree = OutputTree(*options.stage);
  LinkCheck links(out.tree);
  out.tree.observe(
      [&links](const std::string& path, std::string_view content) { links.read(path, content); });
  std::optional<Phase> phase("records and Markdown");
  const auto emitted = std::make_shared<Emitted>();
  std::vector<EntryFiles>& files = emitted->files;
  files = render_entries(kb, entries_to_build(kb, excluded), templates, options, out.tree);
  const std::vector<std::uint64_t> in_bundle = add_bundle(files, out.tree);
  std::optional<Phase> aside("records set aside");
  const RecordParts& parts = emitted->parts.emplace(files, in_bundle, options.stage);
  aside.reset();
  std::vector<RecordRow> rows;
  std::vector<std::string> paths;
  std::vector<const Evidence*> evidence;
  std::vector<std::string> digests;
  for (EntryFiles& file : files) {
    rows.push_back(std::move(file.row));
    paths.push_back(file.path);
    evidence.push_back(file.evidence);
    digests.push_back(std::move(file.digest));
  }
  // The memory the entries and records freed is not given back here (malloc_trim): the site
  // takes it again at once. Given back, with the heaps on huge pages, the pages faulted in again
  // made the site phase of a build after one edit at 100,000 entries 4.2-4.9 s instead of
  // 1.6-1.7; kept, the build's peak is 1,923 MB instead of 1,880.
  phase.emplace("site");
  std::optional<Phase> step("site model");
  const std::vector<BenignLine> benign = benign_lines_with(kb.benign);
  // An entry page that is rendered reads its record again, from its part of kb.json.
  SiteModel& model = emitted->model.emplace(
      std::move(rows), [&parts](std::size_t i) { return parts.record(i); }, config, kb.languages);
  model.set_source_paths(std::move(paths));
  model.set_evidence(std::move(evidence));
  if (!options.site_digest.empty()) model.set_digests(options.site_digest, std::move(digests));
  step.emplace("figures read");
  std::optional<BreadthMemo> memo;
  if (options.cache) {
    const std::optional<nlohmann::json> stored = options.cache->find_site_figures();
    memo = stored ? BreadthMemo::from_json(*stored) : std::nullopt;
    if (!memo) memo.emplace();
  }
  step.reset();
  build_site(model, templates, out.tree, options.progress, &benign, memo ? &*memo : nullptr,
             options.cache);
  step.emplace("figures stored");
  if (memo && memo->changed) options.cache->store_site_figures(memo->to_json());
  step.reset();
  if (options.progress) options.progress->clear();
  phase.emplace("link check");
  out.tree.observe(nullptr);
  out.problems = links.problems();
  out.entries = files.size();
  out.records = emitted;
  return out;
}

}  // namespace kbc
