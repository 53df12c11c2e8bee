#include "cli/man_page.h"

namespace kbc {
namespace {

// Text as roff: backslashes escaped, hyphens as \- (so they copy and search as ASCII), and a
// line that would start with a control character ('.' or '\'') guarded by \&.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

// A command's summary, whose lines are wrapped for a terminal, as one paragraph.
std::string paragraph(std::string_view text) {
  std::string joined(text);
  for (char& c : joined) {
    if (c == '\n') c = ' ';
  }
  return roff(joined) + "\n";
}

std::string synopsis(const Command& command) {
  std::string out = ".B kbc " + roff(command.name) + "\n";
  if (!command.operands.empty()) out += roff(command.operands) + "\n";
  if (!command.options.empty()) out += "[\\fIoptions\\fR]\n";
  return out;
}

}  // namespace

std::string man_page(const std::vector<Command>& commands, std::string_view version) {
  std::string out;
  out += ".TH KBC 1 \"\" \"kbc " + roff(version) + "\" \"User Commands\"\n";
  out += ".SH NAME\nkbc \\- the knowledge-base compiler\n";
  out += ".SH SYNOPSIS\n";
  out += ".B kbc\n.I command\n[\\fIoptions\\fR] [\\fIoperands\\fR]\n.br\n";
  out += ".B kbc \\-\\-help\n|\n.B \\-\\-version\n|\n.B \\-\\-man\n";
  out += ".SH DESCRIPTION\n";
  out +=
      "kbc compiles a folder of YAML error entries (one file per entry under\n"
      ".IR entries/ )\n"
      "into a JSON bundle, per-entry JSON records, Markdown pages and a multilingual static "
      "site, and checks them: every entry against the JSON Schema and the lint rules, with "
      "diagnostics as\n.IR path : line : col :\n"
      ".IR severity :\n.I message\n.RI [ rule\\-id ].\n";
  out += ".SH COMMANDS\n";
  for (const Command& command : commands) {
    out += ".SS " + roff(command.name) + "\n" + synopsis(command);
    out += ".PP\n" + paragraph(command.summary);
    for (const OptionSpec& option : command.options) {
      out += ".TP\n.B " + roff(option.name);
      if (!option.value.empty()) out += " \\fI" + roff(option.value) + "\\fR";
      out += "\n" + roff(option_help(option)) + "\n";
    }
  }
  out +=
      ".SH EXIT STATUS\n"
      ".TP\n.B 0\nsuccess (warnings allowed)\n"
      ".TP\n.B 1\nthe content has errors (lint errors; for match, nothing matched)\n"
      ".TP\n.B 2\na usage error or a failure of the tool itself\n";
  out +=
      ".SH ENVIRONMENT\n"
      ".TP\n.B NO_COLOR\nwhen set, \\-\\-color auto does not colour the output\n"
      ".TP\n.B GLIBC_TUNABLES\nwhen not set, lint, build, stats, match, mcp and serve run kbc "
      "again with glibc.malloc.hugetlb=1 (its heaps on transparent huge pages) where the kernel "
      "gives them on request; set it, for example to glibc.malloc.hugetlb=0, to keep the heaps as "
      "they are\n";
  out +=
      ".SH FILES\n"
      ".TP\n.I kbc.yaml\nthe knowledge base's settings, at its root\n"
      ".TP\n.I .kbc\\-cache/\nthe parse cache under the root, ignored by git\n"
      ".TP\n.I templates/\na knowledge base's own page templates and UI strings, used "
      "before the built\\-in ones\n";
  return out;
}

}  // namespace kbc
