// The forms `kbc lint` prints its findings in: text for people, JSON for scripts, SARIF for
// code-scanning services, and GitHub Actions workflow commands, which GitHub shows as
// annotations on the lines of a pull request.
//
// Each form is a pure function of the diagnostics (sorted, as check_knowledge_base leaves them)
// to the whole output, so tests compare strings; write_* put the same bytes in a stream a finding
// at a time, which is how kbc lint prints them (at 100,000 entries, a whole output and its JSON
// document took gigabytes). The command decides what the terminal gets:
// colour, and each finding's source line, which attach_source_lines reads beforehand. Without
// them, text is exactly what format_diagnostic prints, plus the summary line.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "lint/rule.h"

namespace kbc {

enum class OutputFormat { kText, kJson, kSarif, kGithub };
enum class ColorMode { kAuto, kAlways, kNever };

// The names the options take, in the order the help lists them.
inline const std::vector<std::string_view> kOutputFormatNames = {"text", "json", "sarif", "github"};
inline const std::vector<std::string_view> kColorModeNames = {"auto", "always", "never"};

// nullopt for a name not in the lists above.
std::optional<OutputFormat> parse_output_format(std::string_view name);
std::optional<ColorMode> parse_color_mode(std::string_view name);

// `always` and `never` decide; `auto` colours a terminal, unless NO_COLOR is set and not empty
// (no-color.org) or TERM is "dumb". `no_color` and `term` are the variables, or nullptr.
bool use_color(ColorMode mode, bool is_terminal, const char* no_color, const char* term);

// The same for a file descriptor (STDOUT_FILENO, STDERR_FILENO) and this process's environment.
bool is_terminal(int fd);
bool use_color_on(ColorMode mode, int fd);

// `2 errors, 1 warning in 4 files`, without a newline.
std::string summary_line(const Diagnostics& diagnostics, std::size_t files);

// Every diagnostic as format_diagnostic prints it (with its source line and a caret when it has
// an excerpt). With `color`: the location bold, the severity red or yellow, the caret green.
std::string format_text_diagnostics(const Diagnostics& diagnostics, bool color);
void write_text_diagnostics(std::ostream& out, const Diagnostics& diagnostics, bool color);

// format_text_diagnostics, then the summary line.
std::string format_text(const Diagnostics& diagnostics, std::size_t files, bool color);
void write_text(std::ostream& out, const Diagnostics& diagnostics, std::size_t files, bool color);

// {"version": 1, "diagnostics": [{path, line, column, severity, rule, message, pointer}...],
//  "summary": {errors, warnings, files}}; line and column are 0 for the whole file.
std::string format_json(const Diagnostics& diagnostics, std::size_t files);
void write_json(std::ostream& out, const Diagnostics& diagnostics, std::size_t files);

// What SARIF says of the tool that produced it.
struct ToolInfo {
  std::string name;
  std::string version;
  std::string information_uri;
};
ToolInfo kbc_tool_info();

// A SARIF 2.1.0 log with one run: every rule of `rules`, and one result per diagnostic, its
// location relative to %SRCROOT% (which code scanning takes to be the repository's root).
std::string format_sarif(const Diagnostics& diagnostics, const std::vector<Rule>& rules,
                         const ToolInfo& tool);
void write_sarif(std::ostream& out, const Diagnostics& diagnostics, const std::vector<Rule>& rules,
                 const ToolInfo& tool);

// One `::error file=...,line=...,col=...,title=RULE::MESSAGE` workflow command per diagnostic
// (`::warning` for warnings), escaped as GitHub documents, then the summary line.
std::string format_github(const Diagnostics& diagnostics, std::size_t files);
void write_github(std::ostream& out, const Diagnostics& diagnostics, std::size_t files);

// Gives each diagnostic that has a line but no excerpt the text of that line, read from
// `root`/path. Files that cannot be read are left as they are.
void attach_source_lines(Diagnostics& diagnostics, const FileSystem& fs, const std::string& root);

}  // namespace kbc
