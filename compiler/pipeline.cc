#include "pipeline.h"

#include <algorithm>

#include "lint/rule.h"
#include "render/markdown_page.h"
#include "render/record.h"
#include "resources.h"
#include "validate/schema_validator.h"

namespace kbc {

CheckedKnowledgeBase check_knowledge_base(const FileSystem& fs, const std::string& root) {
  const auto schema_text = embedded_resource("schema/entry.schema.json");
  if (!schema_text) throw ToolError("the entry schema is missing from this build");
  const SchemaValidator schema(nlohmann::json::parse(*schema_text));
  CheckedKnowledgeBase checked;
  checked.kb = load_knowledge_base(fs, root, schema, checked.diagnostics);
  Diagnostics findings = run_lint(checked.kb);
  checked.diagnostics.insert(checked.diagnostics.end(), std::make_move_iterator(findings.begin()),
                             std::make_move_iterator(findings.end()));
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

BuiltOutput emit_outputs(const KnowledgeBase& kb, const std::set<std::string>& excluded,
                         const TemplateSet& templates) {
  BuiltOutput out;
  nlohmann::ordered_json bundle = nlohmann::ordered_json::array();
  std::vector<const Entry*> built;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok && !excluded.count(entry.path)) built.push_back(&entry);
  }
  // Sorted by id: not the same order as paths ("a/b-c.yaml" sorts before "a/b.yaml").
  std::sort(built.begin(), built.end(), [](const Entry* a, const Entry* b) { return a->id() < b->id(); });
  for (const Entry* entry_pointer : built) {
    const Entry& entry = *entry_pointer;
    const nlohmann::ordered_json record = published_record(entry);
    const std::string id = entry.id();
    out.tree.add("api/" + id + ".json", record_text(record));
    out.tree.add("md/en/" + id + ".md", markdown_page(record, "en", templates));
    out.tree.add("md/zh/" + id + ".md", markdown_page(record, "zh", templates));
    bundle.push_back(record);
    ++out.entries;
  }
  out.tree.add("kb.json", bundle.dump(2) + "\n");
  return out;
}

}  // namespace kbc
