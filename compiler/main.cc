// kbc: the knowledge-base compiler. The driver finds the command in the table (cli/command.cc),
// parses its options and runs it. Content problems are reported by the command and give exit
// status 1; every failure of the tool itself ends here as a ToolError: exit status 2.
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/memory.h"
#include "base/text.h"
#include "base/timings.h"
#include "cli/command.h"
#include "cli/man_page.h"
#include "version.h"

namespace {

void print_usage(std::ostream& out) {
  out << "usage: kbc <command> [options]\n\nkbc compiles a folder of YAML error entries into JSON "
         "and Markdown, and checks them.\n\ncommands:\n";
  for (const kbc::Command& command : kbc::all_commands()) {
    std::string name(command.name);
    name.resize(10, ' ');
    out << "  " << name << command.summary.substr(0, command.summary.find('\n')) << "\n";
  }
  out << "\nRun 'kbc <command> --help' for its options, 'kbc --man' for the man page.\n";
}

const kbc::Command& find_command(const std::string& name) {
  std::vector<std::string> names;
  for (const kbc::Command& command : kbc::all_commands()) {
    if (command.name == name) return command;
    names.emplace_back(command.name);
  }
  std::string message = "kbc: unknown command '" + name + "'";
  if (const auto suggestion = kbc::closest_match(name, names))
    message += "; did you mean '" + *suggestion + "'?";
  throw kbc::ToolError(message);
}

int run(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--man") {
    std::cout << kbc::man_page(kbc::all_commands(), kbc::kVersion);
    return 0;
  }
  if (args[0] == "--version") {
    std::cout << "kbc " << kbc::kVersion << " (commit " << kbc::kCommit << ")\n";
    return 0;
  }
  const kbc::Command& command = find_command(args[0]);
  const kbc::Arguments arguments =
      kbc::parse_arguments(std::vector<std::string>(args.begin() + 1, args.end()), command);
  if (arguments.has("--help")) {
    std::cout << kbc::command_help(command);
    return 0;
  }
  if (arguments.has("--timings")) kbc::enable_timings();
  const int status = command.run(arguments);
  std::cerr << kbc::timings_report();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // First: it may run kbc again. Only for a command whose heap grows with the knowledge base:
  // starting again costs a few milliseconds.
  for (const kbc::Command& command : kbc::all_commands()) {
    if (argc > 1 && command.large_heap && command.name == argv[1]) kbc::use_huge_pages(argv);
  }
  std::ios::sync_with_stdio(false);
  // A file-size limit (ulimit -f) or a quota makes a write fail with EFBIG, reported as any
  // write failure, instead of killing kbc halfway through its output.
  std::signal(SIGXFSZ, SIG_IGN);
  kbc::map_large_allocations();
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const kbc::ToolError& e) {
    std::cerr << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "kbc: internal error: " << e.what() << "\n";
  }
  return 2;
}
