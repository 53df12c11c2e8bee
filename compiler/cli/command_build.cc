// `kbc build [--root DIR] [--out DIR] [--base-url URL] [--keep-going] [--timings] [--color WHEN]`
#include <unistd.h>

#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/timings.h"
#include "cli/command.h"
#include "cli/diagnostic_output.h"
#include "pipeline.h"

namespace kbc {
namespace {

// To stderr, as lint's text, each with its source line on a terminal (attached in place: the
// findings of 100,000 entries are 300 MB, and a copy of them was most of a build's peak memory).
void print_findings(Diagnostics& findings, bool color, const FileSystem& fs,
                    const std::string& root) {
  if (is_terminal(STDERR_FILENO)) attach_source_lines(findings, fs, root);
  write_text_diagnostics(std::cerr, findings, color);
}

// The last lines of a build: what it wrote where.
void report_built(const SiteConfig& config, std::size_t entries, std::size_t files,
                  const std::string& out_dir, const OutputStage::Summary& written,
                  std::size_t failed) {
  if (config.base_url.empty()) {
    std::cerr << "kbc build: note: no base_url (kbc.yaml or --base-url), so the site has no "
                 "canonical links, sitemap.xml or Atom feeds\n";
  }
  std::cerr << "kbc build: " << entries << " entries, " << files << " files in " << out_dir << " ("
            << written.written << " written, " << written.removed << " removed)";
  if (failed != 0) std::cerr << " (" << failed << " file(s) with errors left out)";
  std::cerr << "\n";
}

// The staged files put in place (OutputStage::commit), timed.
OutputStage::Summary committed(OutputStage& stage, Progress& progress) {
  const Phase phase("write output");
  return stage.commit(&progress);
}

// The slim entries whose records the cache does not hold, read whole again (whole_entry),
// from any thread. The schema is read once, and only then.
class WholeEntries {
 public:
  WholeEntries(const FileSystem& fs, const std::string& root,
               const std::vector<Language>& languages, ParseCache* cache)
      : fs_(fs), root_(root), languages_(languages), cache_(cache) {}

  Entry of(const Entry& entry) {
    std::call_once(schema_read_, [this] {
      schema_.emplace(nlohmann::json::parse(entry_schema_text(languages_)));
    });
    return whole_entry(fs_, root_, entry, *schema_, cache_);
  }

 private:
  const FileSystem& fs_;
  const std::string& root_;
  const std::vector<Language>& languages_;
  ParseCache* cache_;
  std::once_flag schema_read_;
  std::optional<SchemaValidator> schema_;
};

}  // namespace

int run_build(const Arguments& arguments) {
  if (!arguments.positional.empty())
    throw ToolError("kbc build: unexpected argument " + arguments.positional[0]);
  const std::string root = arguments.value("--root");
  const std::string out_dir = arguments.value_or("--out", join_path(root, "dist"));
  const RealFileSystem fs;
  Progress progress(Progress::wanted());
  const bool use_cache = !arguments.has("--no-cache");
  CheckedKnowledgeBase& checked = kept_until_exit<CheckedKnowledgeBase>(
      check_knowledge_base(fs, root, {use_cache, {}, &progress, /*unread=*/true, /*slim=*/true}));
  const bool color = use_color_on(*parse_color_mode(arguments.value("--color")), STDERR_FILENO);
  print_findings(checked.diagnostics, color, fs, root);
  const std::set<std::string> failed = paths_with_errors(checked.diagnostics);
  if (!failed.empty() && !arguments.has("--keep-going")) {
    std::cerr << "kbc build: " << failed.size() << " file(s) with errors; " << out_dir
              << " left unchanged (use --keep-going to build the rest)\n";
    return 1;
  }
  SiteConfig config = checked.config;
  if (arguments.values.count("--base-url")) {
    const std::string url = arguments.value("--base-url");
    if (!is_valid_base_url(url))
      throw ToolError("kbc build: --base-url must be an absolute http(s) URL, not '" + url + "'");
    config.base_url = normalized_base_url(url);
  }
  // Files are staged beside the output as they are made; nothing in it changes before commit.
  OutputStage stage(out_dir, arguments.has("--no-cache"));
  const std::string site = site_inputs_digest(fs, root, config, checked.kb.languages);
  std::string inputs = build_inputs_digest(fs, root, checked.kb, config, failed);
  if (!inputs.empty() && inputs == stage.built_from()) {  // as ninja: nothing to do
    report_built(config, entries_to_build_count(checked.kb, failed), stage.files_held(), out_dir,
                 {}, failed.size());
    return failed.empty() ? 0 : 1;
  }
  stage.set_inputs(std::move(inputs));
  // The lint's findings were known without reading the entries; the pages need them.
  if (!checked.kb.read) read_entries(fs, root, checked, &progress, /*slim=*/true);
  // Printed, and the failed files known: 100,000 entries' findings held 300 MB to the end.
  Diagnostics().swap(checked.diagnostics);
  std::optional<ParseCache> cache;
  if (use_cache) cache.emplace(root, entry_schema_text(checked.kb.languages));
  WholeEntries whole(fs, root, checked.kb.languages, cache ? &*cache : nullptr);
  const BuiltOutput& built = kept_until_exit<BuiltOutput>(
      emit_outputs(checked.kb, failed, TemplateSet(fs, root), config,
                   {&progress, &stage, site, cache ? &*cache : nullptr,
                    [&checked](std::size_t entry) { checked.kb.entries[entry].drop_data(); },
                    [&whole](const Entry& entry) { return whole.of(entry); }}));
  if (!built.problems.empty()) {
    write_text_diagnostics(std::cerr, built.problems, color);  // paths in the output
    std::cerr << "kbc build: " << built.problems.size() << " broken link(s) in the site; "
              << out_dir << " left unchanged\n";
    return 1;
  }
  const OutputStage::Summary written = committed(stage, progress);
  report_built(config, built.entries, built.tree.size(), out_dir, written, failed.size());
  kept_until_exit<std::shared_ptr<void>>(stage.release_manifests());
  return failed.empty() ? 0 : 1;
}

}  // namespace kbc
