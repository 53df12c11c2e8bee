// `kbc lint [--root DIR] [--list-rules] [--format FORMAT] [--color WHEN] [FILE...]`
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <set>

#include "cli/command.h"
#include "cli/diagnostic_output.h"
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
    std::cout << id << severity << rule.summary << (rule.required ? " [required]" : "") << "\n";
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
    const fs::file_status status = fs::symlink_status(file, error);
    if (!fs::is_regular_file(status) && !fs::is_symlink(status))
      throw ToolError("kbc lint: no such file: " + file);
    // The folder resolved, not the file: a link is linted as the link it is (entry-file).
    const fs::path absolute = fs::absolute(file);
    const std::string relative =
        (fs::weakly_canonical(absolute.parent_path()) / absolute.filename())
            .lexically_relative(base)
            .generic_string();
    if (relative.empty() || relative.starts_with("..")) {
      throw ToolError("kbc lint: " + file + " is not inside the knowledge base " + root);
    }
    paths.insert(relative);
  }
  return paths;
}

// The findings in the form --format asks for. Text shows each finding's source line when it
// goes to a terminal, and colours as --color says.
void write_lint_output(std::ostream& out, const Arguments& arguments, Diagnostics& shown,
                       std::size_t files, const FileSystem& fs, const std::string& root) {
  switch (*parse_output_format(arguments.value("--format"))) {
    case OutputFormat::kJson:
      return write_json(out, shown, files);
    case OutputFormat::kSarif:
      return write_sarif(out, shown, all_rules(), kbc_tool_info());
    case OutputFormat::kGithub:
      return write_github(out, shown, files);
    case OutputFormat::kText:
      break;
  }
  if (is_terminal(STDOUT_FILENO)) attach_source_lines(shown, fs, root);
  const ColorMode color = *parse_color_mode(arguments.value("--color"));
  write_text(out, shown, files, use_color_on(color, STDOUT_FILENO));
}

}  // namespace

int run_lint(const Arguments& arguments) {
  if (arguments.has("--list-rules")) return list_rules();
  const std::string root = arguments.value("--root");
  const std::set<std::string> only = selected_paths(arguments.positional, root);
  const RealFileSystem fs;
  Progress progress(Progress::wanted());
  CheckedKnowledgeBase& checked = kept_until_exit<CheckedKnowledgeBase>(check_knowledge_base(
      fs, root, {!arguments.has("--no-cache"), only, &progress, /*unread=*/true, /*slim=*/true}));
  // Taken whole, not moved one by one into a vector grown by doubling (527,000 findings at
  // 100,000 entries: 93 MB of vector, held twice while it grew).
  Diagnostics shown;
  if (only.empty()) shown.swap(checked.diagnostics);
  for (Diagnostic& d : checked.diagnostics) {
    if (only.count(d.path)) shown.push_back(std::move(d));
  }
  const std::size_t checked_files = only.empty() ? checked.kb.file_ids.size() : only.size();
  write_lint_output(std::cout, arguments, shown, checked_files, fs, root);
  return count_severity(shown, Severity::kError) > 0 ? 1 : 0;
}

}  // namespace kbc
