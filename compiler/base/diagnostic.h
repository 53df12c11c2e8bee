// Diagnostics: the one channel for problems in the content of a knowledge base.
//
// Every stage (load, validate, lint) appends Diagnostics instead of stopping at the first
// problem; the driver sorts and prints them. Failures of the tool itself (a flag it does not
// know, a folder it cannot write) are ToolError exceptions instead, caught once in main.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kbc {

enum class Severity { kWarning, kError };

// 1-based line and column; 0 means "the whole file".
struct Location {
  int line = 0;
  int column = 0;
};

struct Diagnostic {
  std::string path;  // relative to the knowledge-base root, '/'-separated
  Location at;
  Severity severity = Severity::kError;
  std::string message;
  std::string rule;
  std::string excerpt;  // the source line, shown with a caret under `at.column`; may be empty
  // The JSON pointer of the node at fault ("/dead_ends/0/action"); "" for the whole file. Last,
  // and with an initializer, so that `{path, at, severity, message, rule, excerpt}` still works.
  std::string pointer = {};
};

using Diagnostics = std::vector<Diagnostic>;

// A failure of the tool rather than of the content: exit code 2.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string_view severity_name(Severity severity);

// `path:line:col: severity: message [rule]`, plus the excerpt and a caret when there is one.
std::string format_diagnostic(const Diagnostic& diagnostic);

// Whether `a` is printed before `b`: by path, line, column, rule, then message.
bool comes_before(const Diagnostic& a, const Diagnostic& b);

// Orders by path, line, column, then rule: the order they are printed in (comes_before; stable).
void sort_diagnostics(Diagnostics& diagnostics);

int count_severity(const Diagnostics& diagnostics, Severity severity);

}  // namespace kbc
