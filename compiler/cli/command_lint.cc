// `kbc lint [--root DIR] [--list-rules] [FILE...]`
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/command.h"
#include "lint/rule.h"
#include "pipeline.h"

namespace kbc {
namespace {

int list_rules() {
  for (const Rule& rule : all_rules()) {
    std::string id(rule.id);
    id.resize(std::max<std::size_t>(id.size() + 2, 26), ' ');
    std::string severity(severity_name(rule.severity));
    severity.resize(9, ' ');
    std::cout << id << severity << rule.summary << "\n";
  }
  return 0;
}

// FILE arguments as paths relative to the root, as diagnostics name them.
std::set<std::string> selected_paths(const std::vector<std::string>& files,
                                     const std::string& root) {
  namespace fs = std::filesystem;
  const fs::path base = fs::weakly_canonical(fs::absolute(root));
  std::set<std::string> paths;
  for (const std::string& file : files) {
    std::error_code error;
    if (!fs::is_regular_file(file, error)) throw ToolError("kbc lint: no such file: " + file);
    const std::string relative =
        fs::weakly_canonical(fs::absolute(file)).lexically_relative(base).generic_string();
    if (relative.empty() || relative.starts_with("..")) {
      throw ToolError("kbc lint: " + file + " is not inside the knowledge base " + root);
    }
    paths.insert(relative);
  }
  return paths;
}

std::string plural(int count, const char* word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

}  // namespace

int run_lint(const Arguments& arguments) {
  if (arguments.has("--list-rules")) return list_rules();
  const std::string root = arguments.value_or("--root", ".");
  const std::set<std::string> only = selected_paths(arguments.positional, root);
  const RealFileSystem fs;
  CheckedKnowledgeBase checked = check_knowledge_base(fs, root);
  Diagnostics shown;
  for (Diagnostic& d : checked.diagnostics) {
    if (only.empty() || only.count(d.path)) shown.push_back(std::move(d));
  }
  for (const Diagnostic& d : shown) std::cout << format_diagnostic(d);
  const int errors = count_severity(shown, Severity::kError);
  const int warnings = count_severity(shown, Severity::kWarning);
  const std::size_t checked_files = only.empty() ? checked.kb.file_ids.size() : only.size();
  std::cout << plural(errors, "error") << ", " << plural(warnings, "warning") << " in "
            << plural(static_cast<int>(checked_files), "file") << "\n";
  return errors > 0 ? 1 : 0;
}

}  // namespace kbc
