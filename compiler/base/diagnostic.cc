#include "base/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace kbc {

std::string_view severity_name(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.path;
  if (d.at.line > 0) {
    out += ':' + std::to_string(d.at.line) + ':' + std::to_string(std::max(d.at.column, 1));
  }
  out += ": ";
  out += severity_name(d.severity);
  out += ": " + d.message + " [" + d.rule + "]\n";
  if (!d.excerpt.empty()) {
    out += "  " + d.excerpt + "\n  ";
    // The caret lines up under the column: tabs are kept so it matches the line above.
    for (int i = 1; i < d.at.column && i <= static_cast<int>(d.excerpt.size()); ++i) {
      out += d.excerpt[i - 1] == '\t' ? '\t' : ' ';
    }
    out += "^\n";
  }
  return out;
}

void sort_diagnostics(Diagnostics& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const auto& a, const auto& b) {
    return std::tie(a.path, a.at.line, a.at.column, a.rule, a.message) <
           std::tie(b.path, b.at.line, b.at.column, b.rule, b.message);
  });
}

int count_severity(const Diagnostics& diagnostics, Severity severity) {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                        [&](const Diagnostic& d) { return d.severity == severity; }));
}

}  // namespace kbc
