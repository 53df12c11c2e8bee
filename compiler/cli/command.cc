#include "cli/command.h"

#include <algorithm>

#include "base/diagnostic.h"
#include "base/text.h"
#include "cli/diagnostic_output.h"

namespace kbc {
namespace {

const OptionSpec* find_option(const Command& command, std::string_view name) {
  for (const OptionSpec& option : command.options) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

[[noreturn]] void unknown_option(const Command& command, const std::string& name) {
  std::vector<std::string> names;
  for (const OptionSpec& option : command.options) names.emplace_back(option.name);
  std::string message = "kbc " + std::string(command.name) + ": unknown option '" + name + "'";
  if (const auto suggestion = closest_match(name, names))
    message += "; did you mean '" + *suggestion + "'?";
  throw ToolError(message);
}

// A value outside an option's closed set of choices is a usage error, with a did-you-mean.
void check_choice(const Command& command, const OptionSpec& option, const std::string& value) {
  if (option.choices.empty()) return;
  std::vector<std::string> choices(option.choices.begin(), option.choices.end());
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return;
  std::string message =
      "kbc " + std::string(command.name) + ": " + std::string(option.name) + " must be one of ";
  for (std::size_t i = 0; i < choices.size(); ++i) message += (i ? ", " : "") + choices[i];
  message += ", not '" + value + "'";
  if (const auto suggestion = closest_match(value, choices))
    message += "; did you mean '" + *suggestion + "'?";
  throw ToolError(message);
}

}  // namespace

std::string option_help(const OptionSpec& option) {
  const std::string_view fallback =
      option.default_text.empty() ? option.default_value : option.default_text;
  if (fallback.empty()) return std::string(option.help);
  return std::string(option.help) + " (default: " + std::string(fallback) + ")";
}

Arguments parse_arguments(const std::vector<std::string>& args, const Command& command) {
  Arguments out;
  for (const OptionSpec& option : command.options) {
    if (!option.default_value.empty())
      out.defaults[std::string(option.name)] = std::string(option.default_value);
  }
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || !arg.starts_with("-") || arg == "-") {
      out.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const OptionSpec* option = find_option(command, name);
    if (!option) unknown_option(command, name);
    if (option->value.empty()) {
      if (equals != std::string::npos) throw ToolError("kbc: option " + name + " takes no value");
      out.flags.insert(name);
    } else if (equals != std::string::npos) {
      out.values[name] = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      out.values[name] = args[++i];
    } else {
      throw ToolError("kbc: option " + name + " needs a value (" + std::string(option->value) +
                      ")");
    }
  }
  for (const auto& [name, value] : out.values)
    check_choice(command, *find_option(command, name), value);
  return out;
}

std::chrono::sys_days today_option(const Arguments& arguments, std::string_view command) {
  if (!arguments.values.count("--today"))
    return std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::string& text = arguments.values.at("--today");
  const auto date = parse_date(text);
  if (!date || !date->ok())
    throw ToolError(std::string(command) + ": --today '" + text +
                    "' is not a calendar date YYYY-MM-DD");
  return *date;
}

std::string command_help(const Command& command) {
  std::string out = "usage: kbc " + std::string(command.name);
  if (!command.operands.empty()) out += " " + std::string(command.operands);
  out += command.options.empty() ? "\n" : " [options]\n";
  out += "\n" + std::string(command.summary) + "\n";
  if (!command.options.empty()) out += "\noptions:\n";
  for (const OptionSpec& option : command.options) {
    std::string left = "  " + std::string(option.name);
    if (!option.value.empty()) left += " " + std::string(option.value);
    left.resize(std::max<std::size_t>(left.size() + 2, 22), ' ');
    out += left + option_help(option) + "\n";
  }
  return out;
}

const std::vector<Command>& all_commands() {
  static const OptionSpec kRoot{"--root", "DIR", "the knowledge base",
                                {},       ".",   "the current folder"};
  static const OptionSpec kHelp{"--help", "", "show this help"};
  static const OptionSpec kColor{"--color", "WHEN",
                                 "auto (colour a terminal unless NO_COLOR is set), always or never",
                                 kColorModeNames, "auto"};
  static const OptionSpec kNoCache{"--no-cache", "",
                                   "parse every file again instead of using .kbc-cache/"};
  static const OptionSpec kTimings{
      "--timings", "", "print the wall and CPU time of each phase to stderr at the end"};
  static const std::vector<Command> kCommands = {
      {"lint",
       "[FILE...]",
       "Checks every entry against the schema and the lint rules. With FILE arguments, reports\n"
       "on those files only; rules that look across entries still see the whole knowledge base.\n"
       "Exit status: 0 clean (warnings allowed), 1 errors, 2 usage or tool failure.",
       {kRoot,
        {"--list-rules", "",
         "print every rule id, its severity and summary, marked [required] when kbc.yaml and "
         "comments cannot turn it off"},
        kNoCache,
        {"--format", "FORMAT", "text, json, sarif or github", kOutputFormatNames, "text"},
        kTimings,
        kColor,
        kHelp},
       run_lint,
       true},
      {"build",
       "",
       "Lints, then writes kb.json, api/<id>.json, md/{en,zh}/<id>.md and the site (site/) into\n"
       "the output folder, writing only the files whose bytes change. With any lint error or a\n"
       "broken link in the site, the output folder is left untouched.",
       {kRoot,
        {"--out", "DIR", "output folder", {}, {}, "dist/ under the root"},
        {"--base-url", "URL", "absolute URL of the published site (overrides kbc.yaml)"},
        {"--keep-going", "", "leave out entries with errors, build the rest, still exit 1"},
        {"--no-cache", "",
         "parse every file again instead of using .kbc-cache/, and compare every output file's "
         "bytes instead of trusting the output's manifest"},
        kTimings,
        kColor,
        kHelp},
       run_build,
       true},
      {"verify",
       "[ID...]",
       "Runs the entries' reproduction recipes (their reproduce blocks), or those of the IDs, in\n"
       "bubblewrap's sandbox: no network, the system read-only, a throw-away working folder and\n"
       "limits on time, memory, processes and output. A recipe reproduces its entry when a line\n"
       "of its output matches the entry's regex (or its expect). Records each result in\n"
       "verify.lock; a recipe that needs a GPU, a package or a module that is missing is\n"
       "skipped. Exit status: 0 nothing failed, 1 a recipe failed, 2 usage or tool failure.",
       {kRoot,
        {"--capture", "", "add each reproduced line to the entry's samples when it is new"},
        {"--format", "FORMAT", "text or json", {"text", "json"}, "text"},
        {"--today", "YYYY-MM-DD", "the date to record", {}, {}, "today, UTC"},
        kNoCache,
        kHelp},
       run_verify},
      {"import",
       "FILE.json...",
       "Turns published JSON records (one record, or a bundle of them) into entries/<id>.yaml.",
       {kRoot, {"--force", "", "overwrite entries that already exist"}, kHelp},
       run_import},
      {"new",
       "<id>",
       "Scaffolds a new entry, entries/<id>.yaml, from templates/entry.yaml.mustache and prints\n"
       "its path. Every required key is there, with placeholders that kbc lint reports until\n"
       "they are filled in; the optional keys are commented out. Never overwrites a file.",
       {kRoot,
        {"--date",
         "YYYY-MM-DD",
         "first_seen, last_confirmed, last_updated",
         {},
         {},
         "placeholders"},
        kHelp},
       run_new},
      {"stats",
       "",
       "Reports figures on the whole knowledge base, for the people who maintain it.\n"
       "Entries per domain and verification tier, translation coverage per language, entries\n"
       "not confirmed for 180 or 365 days, entries outside the transition graph, regex overlaps.\n"
       "Exit status: 0 (also when entries have errors), 2 usage or tool failure.",
       {kRoot,
        {"--format", "FORMAT", "text or json", {"text", "json"}, "text"},
        {"--today", "YYYY-MM-DD", "the date to age last_confirmed from", {}, {}, "today, UTC"},
        kNoCache,
        kHelp},
       run_stats,
       true},
      {"match",
       "[TEXT | -]",
       "Finds the entries that explain an error message (TEXT) or the errors in a log read from\n"
       "standard input (no TEXT, or -), best first, with each one's best workaround, the next\n"
       "best and the dead ends to avoid. A hit scoring below --min-score is not shown; when none\n"
       "is left, entries whose words the text holds are shown as near matches. Exit status: 0\n"
       "something matched, 1 nothing matched (near matches only, or none), 2 usage or tool\n"
       "failure.",
       {kRoot,
        {"--bundle", "FILE", "read the entries from a published bundle (kb.json) instead"},
        {"--top", "N", "show the N best entries", {}, "5"},
        {"--min-score", "N", "show only hits that score N or more, 0 for all", {}, "150"},
        {"--json", "", "print the hits as JSON, for tools"},
        {"--all-lines", "",
         "also match the lines of a log marked INFO, DEBUG or TRACE that name no error"},
        kNoCache,
        kTimings,
        kHelp},
       run_match,
       true},
      {"mcp",
       "",
       "Serves the entries to coding agents as a Model Context Protocol server over stdio:\n"
       "JSON-RPC 2.0 messages, one per line, on standard input and output. Tools: lookup_error\n"
       "(kbc match), get_entry (a record and its related entries) and search (the site's text\n"
       "search). Exit status: 0 at the end of input, 2 usage or tool failure.",
       {kRoot,
        {"--bundle", "FILE", "read the entries from a published bundle (kb.json) instead"},
        kNoCache,
        kHelp},
       run_mcp,
       true},
      {"serve",
       "",
       "Builds the site in memory and serves it on 127.0.0.1, builds again when a file under\n"
       "entries/, templates/ or kbc.yaml changes, and reloads the open pages. Lint errors show in\n"
       "the terminal and over the page, and the last site without errors stays served. Writes\n"
       "nothing but the parse cache; stops on Ctrl+C (SIGINT) or SIGTERM.",
       {kRoot,
        {"--port", "N", "the port to listen on, 0 for any free one", {}, "8000"},
        kNoCache,
        kColor,
        kHelp},
       run_serve,
       true},
      {"completion",
       "bash|zsh|fish",
       "Prints the completion script of a shell: commands, options, their values and files.\n"
       "bash: kbc completion bash > ~/.local/share/bash-completion/completions/kbc\n"
       "zsh: kbc completion zsh > \"${fpath[1]}/_kbc\"; fish: kbc completion fish >\n"
       "~/.config/fish/completions/kbc.fish. The Debian package installs all three.",
       {kHelp},
       run_completion},
  };
  return kCommands;
}

}  // namespace kbc
