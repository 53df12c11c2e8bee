// The command-line interface: a table of subcommands, each with its options, and one small
// option parser shared by all of them. `kbc --help` and `kbc <command> --help` are printed
// from the same table.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

struct OptionSpec {
  std::string_view name;                       // "--root"
  std::string_view value;                      // "DIR", or empty for a flag
  std::string_view help;                       // without its default, which option_help() adds
  std::vector<std::string_view> choices = {};  // when not empty, the only values it accepts
  // What Arguments::value() gives when the option is not given; empty when the command works
  // it out (such as --out, under the root).
  std::string_view default_value = {};
  // The default in words, for --help, the man page and the completions, where the value alone
  // says too little ("the current folder"); else default_value is shown.
  std::string_view default_text = {};
};

// The option's help with its default: "the knowledge base (default: the current folder)".
std::string option_help(const OptionSpec& option);

struct Arguments {
  std::map<std::string, std::string> values;    // options with a value, as given
  std::map<std::string, std::string> defaults;  // the command's options' default values
  std::set<std::string> flags;                  // options without one
  std::vector<std::string> positional;

  // The option's value as given, else its default_value (empty when it has none).
  std::string value(const std::string& name) const {
    const auto it = values.find(name);
    if (it != values.end()) return it->second;
    const auto fallback = defaults.find(name);
    return fallback == defaults.end() ? std::string() : fallback->second;
  }
  // The option's value as given, else `fallback`: for a default the command works out.
  std::string value_or(const std::string& name, const std::string& fallback) const {
    const auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
  }
  bool has(const std::string& name) const { return flags.count(name) > 0; }
};

struct Command {
  std::string_view name;
  std::string_view operands;  // "[FILE...]"
  std::string_view summary;
  std::vector<OptionSpec> options;
  int (*run)(const Arguments& arguments);
  // Works on a whole knowledge base or bundle, whose entries fill the heap: kbc starts again
  // with its heaps on huge pages for it (use_huge_pages in base/memory.h).
  bool large_heap = false;
};

// Throws ToolError (exit 2) for an unknown option or a missing value, with a did-you-mean.
Arguments parse_arguments(const std::vector<std::string>& args, const Command& command);

std::string command_help(const Command& command);

// The date of --today, or the current date in UTC: the one input of a command that depends on
// the clock, so tests and reproducible runs pass it. Throws ToolError, naming `command`, for a
// date that is not a calendar day.
std::chrono::sys_days today_option(const Arguments& arguments, std::string_view command);

// The commands, each defined in its command_<name>.cc.
int run_lint(const Arguments& arguments);
int run_build(const Arguments& arguments);
int run_import(const Arguments& arguments);
int run_new(const Arguments& arguments);
int run_stats(const Arguments& arguments);
int run_verify(const Arguments& arguments);
int run_match(const Arguments& arguments);
int run_mcp(const Arguments& arguments);
int run_serve(const Arguments& arguments);
int run_completion(const Arguments& arguments);

const std::vector<Command>& all_commands();

// Makes a T that is left for the process's exit to free. Taking a large knowledge base and its
// output apart piece by piece (2,522 JSON trees, 18,000 files) costs 0.1 s at the end of every
// build and a tenth of a cache-filled lint; compilers skip it too. The pointer stays reachable, so
// leak checkers do not count it.
// Made from `arguments` (a T to move from, or what T's constructor takes).
template <typename T, typename... Arguments>
T& kept_until_exit(Arguments&&... arguments) {
  static std::vector<std::shared_ptr<void>>* const kept = new std::vector<std::shared_ptr<void>>;
  auto owned = std::make_shared<T>(std::forward<Arguments>(arguments)...);
  kept->push_back(owned);
  return *owned;
}

}  // namespace kbc
