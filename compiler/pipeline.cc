#include "pipeline.h"

#include <algorithm>

#include "base/parallel.h"

#include "lint/rule.h"
#include "lint/suppressions.h"
#include "render/markdown_page.h"
#include "render/record.h"
#include "resources.h"
#include "site/site_builder.h"
#include "validate/schema_validator.h"

namespace kbc {

KnowledgeBase load_entries(const FileSystem& fs, const std::string& root, bool use_cache,
                           Diagnostics& diagnostics) {
  const auto schema_text = embedded_resource("schema/entry.schema.json");
  if (!schema_text) throw ToolError("the entry schema is missing from this build");
  const SchemaValidator schema(nlohmann::json::parse(*schema_text));
  std::optional<ParseCache> cache;
  if (use_cache) cache.emplace(root);
  return load_knowledge_base(fs, root, schema, diagnostics, cache ? &*cache : nullptr);
}

CheckedKnowledgeBase check_knowledge_base(const FileSystem& fs, const std::string& root,
                                          const CheckOptions& options) {
  const auto schema_text = embedded_resource("schema/entry.schema.json");
  if (!schema_text) throw ToolError("the entry schema is missing from this build");
  const SchemaValidator schema(nlohmann::json::parse(*schema_text));
  CheckedKnowledgeBase checked;
  KbConfig config = load_kb_config(fs, root, checked.diagnostics);
  checked.config = std::move(config.site);
  std::optional<ParseCache> cache;
  if (options.cache) cache.emplace(root);
  checked.kb = load_knowledge_base(fs, root, schema, checked.diagnostics, cache ? &*cache : nullptr,
                                   options.progress);
  if (options.progress) options.progress->clear();
  Diagnostics findings = run_lint(checked.kb, options.only);
  checked.diagnostics.insert(checked.diagnostics.end(), std::make_move_iterator(findings.begin()),
                             std::make_move_iterator(findings.end()));
  // kbc.yaml's rule settings and the kbc-disable comments apply on every run, after the cache.
  apply_rule_settings(checked.diagnostics, checked.kb, config.lint, options.only);
  sort_diagnostics(checked.diagnostics);
  return checked;
}

std::set<std::string> paths_with_errors(const Diagnostics& diagnostics) {
  std::set<std::string> paths;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError) paths.insert(d.path);
  }
  return paths;
}

namespace {

// The files of one entry: its record and its pages.
struct EntryFiles {
  std::string id;
  nlohmann::ordered_json record;
  std::string json, en, zh;  // json: the record as api/<id>.json holds it
};

}  // namespace

BuiltOutput emit_outputs(const KnowledgeBase& kb, const std::set<std::string>& excluded,
                         const TemplateSet& templates, const SiteConfig& config,
                         Progress* progress) {
  std::vector<const Entry*> built;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok && !excluded.count(entry.path)) built.push_back(&entry);
  }
  // Sorted by id: not the same order as paths ("a/b-c.yaml" sorts before "a/b.yaml").
  std::sort(built.begin(), built.end(),
            [](const Entry* a, const Entry* b) { return a->id() < b->id(); });

  // Templates are read here, once; each worker compiles its own copy.
  templates.text("page.md.mustache");
  templates.strings("en");
  templates.strings("zh");
  std::vector<EntryFiles> files(built.size());
  if (progress) progress->start("records", built.size());
  parallel_slices(built.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    MarkdownRenderer en(templates, "en"), zh(templates, "zh");
    for (std::size_t i = begin; i < end; ++i) {
      files[i].id = built[i]->id();
      files[i].record = published_record(*built[i]);
      files[i].json = record_text(files[i].record);
      files[i].en = en.render(files[i].record);
      files[i].zh = zh.render(files[i].record);
      if (progress) progress->advance();
    }
  });

  BuiltOutput out;
  std::vector<const nlohmann::ordered_json*> records;
  // kb.json is the array of the records, each indented one level further than in api/.
  std::string bundle = files.empty() ? "[]" : "[\n";
  for (EntryFiles& file : files) {
    bundle += &file == &files.front() ? "  " : ",\n  ";
    for (std::size_t k = 0; k + 1 < file.json.size(); ++k) {
      bundle += file.json[k];
      if (file.json[k] == '\n') bundle += "  ";
    }
    // The site carries its own copies, so that site/ can be published on its own.
    out.tree.add("api/" + file.id + ".json", std::move(file.json));
    out.tree.add("md/en/" + file.id + ".md", std::move(file.en));
    out.tree.add("md/zh/" + file.id + ".md", std::move(file.zh));
    for (const char* kind : {"api/", "md/en/", "md/zh/"}) {
      const std::string path = kind + file.id + (kind[0] == 'a' ? ".json" : ".md");
      out.tree.add_copy("site/" + path, path);
    }
    records.push_back(&file.record);
  }
  out.tree.add("kb.json", bundle + (files.empty() ? "\n" : "\n]\n"));
  build_site(SiteModel(records, config), templates, out.tree, progress);
  if (progress) progress->clear();
  out.problems = check_site_links(out.tree);
  out.entries = files.size();
  return out;
}

}  // namespace kbc
