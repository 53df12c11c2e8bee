#include "cli/diagnostic_output.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <ostream>
#include <sstream>

#include "base/text.h"
#include "load/yaml_loader.h"
#include "version.h"

namespace kbc {
namespace {

// A relative path as a URI reference (RFC 3986), as SARIF requires: each byte other than an
// unreserved character or '/' percent-encoded ("a b%.yaml" -> "a%20b%25.yaml").
std::string uri_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x80 && std::isalnum(byte)) || c == '-' || c == '.' || c == '_' || c == '~' ||
        c == '/') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

using nlohmann::ordered_json;

constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kYellow = "\x1b[1;33m";
constexpr std::string_view kGreen = "\x1b[1;32m";
constexpr std::string_view kReset = "\x1b[0m";

template <typename T>
std::optional<T> parse_name(std::string_view name, const std::vector<std::string_view>& names) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<T>(it - names.begin());
}

std::string plural(int count, const char* word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

// `path:line:col`, or `path` for the whole file: the start of format_diagnostic's line.
std::string location_of(const Diagnostic& d) {
  if (d.at.line <= 0) return d.path;
  return d.path + ':' + std::to_string(d.at.line) + ':' + std::to_string(std::max(d.at.column, 1));
}

int column_of(const Diagnostic& d) { return d.at.line > 0 ? std::max(d.at.column, 1) : 0; }

// format_diagnostic's text with colours added; the excerpt and caret are drawn by it.
std::string colored_diagnostic(const Diagnostic& d) {
  const std::string plain = format_diagnostic(d);
  const std::string location = location_of(d);
  const std::string_view severity = severity_name(d.severity);
  std::string rest = plain.substr(location.size() + severity.size() + 4);  // after "SEVERITY: "
  if (!d.excerpt.empty() && rest.ends_with("^\n")) {
    rest.replace(rest.size() - 2, 1, std::string(kGreen) + "^" + std::string(kReset));
  }
  const std::string_view color = d.severity == Severity::kError ? kRed : kYellow;
  return std::string(kBold) + location + ":" + std::string(kReset) + " " + std::string(color) +
         std::string(severity) + ":" + std::string(kReset) + " " + rest;
}

std::string dump(const ordered_json& value) {
  return value.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

// Stands, in a document, for an array written an item at a time (write_with_items).
constexpr char kItems[] = "\x01kbc items\x01";

// Writes `document` as dump() does, with the array of `count` items that item(k) makes where it
// holds kItems (once): the output is the same bytes, without the items' document in memory (a
// knowledge base of 100,000 entries has 400,000 findings; as one document, a gigabyte).
void write_with_items(std::ostream& out, const ordered_json& document, std::size_t count,
                      const std::function<ordered_json(std::size_t)>& item) {
  const std::string text = dump(document);
  const std::string marker = ordered_json(kItems).dump();
  const std::size_t at = text.find(marker);
  const std::size_t line = text.rfind('\n', at) + 1;  // 0 when there is no earlier line
  const std::string indent(text.find_first_not_of(' ', line) - line, ' ');
  out.write(text.data(), static_cast<std::streamsize>(at));
  if (count == 0) out << "[]";
  for (std::size_t k = 0; k < count; ++k) {
    std::string lines = (k == 0 ? "[\n" : ",\n") + indent + "  ";
    for (const char c : item(k).dump(2, ' ', false, ordered_json::error_handler_t::replace)) {
      lines += c;
      if (c == '\n') lines += indent + "  ";
    }
    out << lines;
  }
  if (count != 0) out << "\n" << indent << "]";
  out << std::string_view(text).substr(at + marker.size());
}

// "entry-blank-text" -> "EntryBlankText": SARIF's rule name is an identifier-like word.
std::string rule_name(std::string_view id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

std::string_view sarif_level(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

ordered_json sarif_rule(const Rule& rule) {
  return {{"id", rule.id},
          {"name", rule_name(rule.id)},
          {"shortDescription", {{"text", rule.summary}}},
          {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}}};
}

ordered_json sarif_result(const Diagnostic& d, const std::map<std::string_view, int>& rule_index) {
  ordered_json location = {
      {"artifactLocation", {{"uri", uri_path(d.path)}, {"uriBaseId", "%SRCROOT%"}}}};
  if (d.at.line > 0) location["region"] = {{"startLine", d.at.line}, {"startColumn", column_of(d)}};
  ordered_json result = {{"ruleId", d.rule}};
  if (const auto it = rule_index.find(d.rule); it != rule_index.end())
    result["ruleIndex"] = it->second;
  result["level"] = sarif_level(d.severity);
  result["message"] = {{"text", d.message}};
  result["locations"] = ordered_json::array({{{"physicalLocation", location}}});
  return result;
}

// Workflow-command escaping, as GitHub's toolkit does it (@actions/core, command.ts).
std::string escape_data(std::string_view text) {
  return replace_characters(text, {{'%', "%25"}, {'\r', "%0D"}, {'\n', "%0A"}});
}

std::string escape_property(std::string_view text) {
  return replace_characters(escape_data(text), {{':', "%3A"}, {',', "%2C"}});
}

std::string workflow_command(const Diagnostic& d) {
  std::string out = d.severity == Severity::kError ? "::error " : "::warning ";
  out += "file=" + escape_property(d.path);
  if (d.at.line > 0) {
    out += ",line=" + std::to_string(d.at.line) + ",col=" + std::to_string(column_of(d));
  }
  return out + ",title=" + escape_property(d.rule) + "::" + escape_data(d.message) + "\n";
}

// The file's text, or nullopt when it is missing, unreadable or larger than an entry may be.
std::optional<std::string> read_entry_file(const FileSystem& fs, const std::string& file) {
  try {
    const auto bytes = fs.size(file);
    if (bytes && *bytes <= kMaxFileBytes) return fs.read(file);
  } catch (const ToolError&) {
    // The source line is an aid; the diagnostic is shown without it.
  }
  return std::nullopt;
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  return parse_name<OutputFormat>(name, kOutputFormatNames);
}

std::optional<ColorMode> parse_color_mode(std::string_view name) {
  return parse_name<ColorMode>(name, kColorModeNames);
}

bool use_color(ColorMode mode, bool is_terminal, const char* no_color, const char* term) {
  if (mode != ColorMode::kAuto) return mode == ColorMode::kAlways;
  if (no_color && *no_color) return false;
  if (term && std::string_view(term) == "dumb") return false;
  return is_terminal;
}

bool is_terminal(int fd) { return isatty(fd) == 1; }

bool use_color_on(ColorMode mode, int fd) {
  return use_color(mode, is_terminal(fd), std::getenv("NO_COLOR"), std::getenv("TERM"));
}

std::string summary_line(const Diagnostics& diagnostics, std::size_t files) {
  return plural(count_severity(diagnostics, Severity::kError), "error") + ", " +
         plural(count_severity(diagnostics, Severity::kWarning), "warning") + " in " +
         plural(static_cast<int>(files), "file");
}

std::string format_text_diagnostics(const Diagnostics& diagnostics, bool color) {
  std::ostringstream out;
  write_text_diagnostics(out, diagnostics, color);
  return out.str();
}

void write_text_diagnostics(std::ostream& out, const Diagnostics& diagnostics, bool color) {
  // In pieces of about 64 KB: std::cerr is unbuffered, and a write a finding was 500,000 calls.
  std::string piece;
  for (const Diagnostic& d : diagnostics) {
    piece += color ? colored_diagnostic(d) : format_diagnostic(d);
    if (piece.size() >= 65536) {
      out << piece;
      piece.clear();
    }
  }
  out << piece;
}

std::string format_text(const Diagnostics& diagnostics, std::size_t files, bool color) {
  std::ostringstream out;
  write_text(out, diagnostics, files, color);
  return out.str();
}

void write_text(std::ostream& out, const Diagnostics& diagnostics, std::size_t files, bool color) {
  write_text_diagnostics(out, diagnostics, color);
  out << summary_line(diagnostics, files) << "\n";
}

std::string format_json(const Diagnostics& diagnostics, std::size_t files) {
  std::ostringstream out;
  write_json(out, diagnostics, files);
  return out.str();
}

void write_json(std::ostream& out, const Diagnostics& diagnostics, std::size_t files) {
  const ordered_json summary = {{"errors", count_severity(diagnostics, Severity::kError)},
                                {"warnings", count_severity(diagnostics, Severity::kWarning)},
                                {"files", files}};
  write_with_items(out, {{"version", 1}, {"diagnostics", kItems}, {"summary", summary}},
                   diagnostics.size(), [&](std::size_t k) -> ordered_json {
                     const Diagnostic& d = diagnostics[k];
                     return {{"path", d.path},         {"line", std::max(d.at.line, 0)},
                             {"column", column_of(d)}, {"severity", severity_name(d.severity)},
                             {"rule", d.rule},         {"message", d.message},
                             {"pointer", d.pointer}};
                   });
}

ToolInfo kbc_tool_info() { return {"kbc", kVersion, "https://kbc.dev"}; }

std::string format_sarif(const Diagnostics& diagnostics, const std::vector<Rule>& rules,
                         const ToolInfo& tool) {
  std::ostringstream out;
  write_sarif(out, diagnostics, rules, tool);
  return out.str();
}

void write_sarif(std::ostream& out, const Diagnostics& diagnostics, const std::vector<Rule>& rules,
                 const ToolInfo& tool) {
  ordered_json rule_list = ordered_json::array();
  std::map<std::string_view, int> rule_index;
  for (const Rule& rule : rules) {
    rule_index.emplace(rule.id, static_cast<int>(rule_list.size()));
    rule_list.push_back(sarif_rule(rule));
  }
  ordered_json driver = {{"name", tool.name}};
  if (!tool.information_uri.empty()) driver["informationUri"] = tool.information_uri;
  driver["version"] = tool.version;
  driver["rules"] = rule_list;
  const ordered_json run = {
      {"tool", {{"driver", driver}}}, {"columnKind", "unicodeCodePoints"}, {"results", kItems}};
  write_with_items(out,
                   {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                    {"version", "2.1.0"},
                    {"runs", ordered_json::array({run})}},
                   diagnostics.size(),
                   [&](std::size_t k) { return sarif_result(diagnostics[k], rule_index); });
}

std::string format_github(const Diagnostics& diagnostics, std::size_t files) {
  std::ostringstream out;
  write_github(out, diagnostics, files);
  return out.str();
}

void write_github(std::ostream& out, const Diagnostics& diagnostics, std::size_t files) {
  for (const Diagnostic& d : diagnostics) out << workflow_command(d);
  out << summary_line(diagnostics, files) << "\n";
}

void attach_source_lines(Diagnostics& diagnostics, const FileSystem& fs, const std::string& root) {
  std::map<std::string, std::optional<std::string>> texts;  // by path; nullopt when unreadable
  for (Diagnostic& d : diagnostics) {
    if (d.at.line <= 0 || !d.excerpt.empty()) continue;
    auto [it, added] = texts.try_emplace(d.path);
    if (added) it->second = read_entry_file(fs, join_path(root, d.path));
    if (it->second) d.excerpt = printable_utf8(line_text(*it->second, d.at.line));
  }
}

}  // namespace kbc
