// The command table is the one source of `kbc --help`, `kbc <command> --help`, the man page and
// the README's command reference: these tests fail when one of them leaves something out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"
#include "cli/command.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "lint/rule.h"
#include "match/rank.h"

using namespace kbc;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// roff's spelling of an option or command name.
std::string roff_name(std::string_view name) {
  std::string out;
  for (const char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

// The README's section of `kbc <name>`: from its "### `kbc <name>" heading to the next heading.
std::string readme_section(const std::string& readme, std::string_view name) {
  const std::string heading = "### `kbc " + std::string(name);
  const std::size_t begin = readme.find(heading);
  if (begin == std::string::npos) return "";
  const std::size_t end = readme.find("\n#", begin + heading.size());
  return readme.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

}  // namespace

TEST_CASE("the man page has every command and every option of the table") {
  const std::string page = man_page(all_commands(), "9.9.9");
  CHECK(page.starts_with(".TH KBC 1 \"\" \"kbc 9.9.9\""));
  for (const Command& command : all_commands()) {
    INFO(command.name);
    CHECK(page.find(".SS " + roff_name(command.name) + "\n") != std::string::npos);
    for (const OptionSpec& option : command.options) {
      INFO(option.name);
      CHECK(page.find(".B " + roff_name(option.name)) != std::string::npos);
    }
  }
  // Every line is text or a known macro: none starts with a stray '.' or '\'' from the table.
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || (line[0] != '.' && line[0] != '\'')) continue;
    INFO(line);
    CHECK((line.starts_with(".TH ") || line.starts_with(".SH ") || line.starts_with(".SS ") ||
           line.starts_with(".B ") || line.starts_with(".I ") || line.starts_with(".IR ") ||
           line.starts_with(".RI ") || line == ".TP" || line == ".PP" || line == ".br"));
  }
}

TEST_CASE("roff escapes hyphens, backslashes and leading dots of the table's text") {
  const std::vector<Command> commands = {
      {"demo", "", ".hidden \\ text-with-hyphens", {{"--x-y", "N", "'quoted"}}, nullptr}};
  const std::string page = man_page(commands, "1");
  CHECK(page.find("\\&.hidden \\e text\\-with\\-hyphens\n") != std::string::npos);
  CHECK(page.find(".B \\-\\-x\\-y \\fIN\\fR\n\\&'quoted\n") != std::string::npos);
}

TEST_CASE("the completion scripts offer every command and option of the table") {
  for (const std::string_view shell : kCompletionShells) {
    const std::string script = completion_script(all_commands(), shell);
    for (const Command& command : all_commands()) {
      INFO(shell << ": " << command.name);
      // bash lists it in the first word's choices and as a case; zsh and fish as an item.
      CHECK(script.find(" " + std::string(command.name) + (shell == "bash" ? ")\n" : "")) !=
            std::string::npos);
      for (const OptionSpec& option : command.options) {
        INFO(option.name);
        const std::string name = shell == "fish" ? " -l " + std::string(option.name.substr(2))
                                                 : std::string(option.name);
        CHECK(script.find(name) != std::string::npos);
      }
    }
  }
}

TEST_CASE("kbc completion's operands name the shells it has scripts for") {
  std::string shells;
  for (const std::string_view shell : kCompletionShells)
    shells += (shells.empty() ? "" : "|") + std::string(shell);
  const auto command = std::find_if(all_commands().begin(), all_commands().end(),
                                    [](const Command& c) { return c.name == "completion"; });
  REQUIRE(command != all_commands().end());
  CHECK(command->operands == shells);
}

TEST_CASE("the completion scripts quote the table's help safely") {
  const std::vector<Command> commands = {{"demo",
                                          "[FILE...]",
                                          "Does it: 'quoted' [x] $HOME `cmd`.",
                                          {{"--x", "N", "it's [y]: z"}},
                                          nullptr}};
  const std::string zsh = completion_script(commands, "zsh");
  CHECK(zsh.find("'demo:Does it quoted x HOME cmd'") != std::string::npos);
  CHECK(zsh.find("'--x[its y z]:N: '") != std::string::npos);
  const std::string fish = completion_script(commands, "fish");
  CHECK(fish.find("-l x -x -d 'its y z'") != std::string::npos);
  CHECK_THROWS_AS(completion_script(commands, "powershell"), ToolError);
}

TEST_CASE("the README documents every command and option of the table") {
  const std::string readme = read_text(std::string(KBC_SOURCE_DIR) + "/README.md");
  REQUIRE_FALSE(readme.empty());
  for (const Command& command : all_commands()) {
    INFO("kbc " << command.name);
    const std::string section = readme_section(readme, command.name);
    REQUIRE_FALSE(section.empty());
    for (const OptionSpec& option : command.options) {
      if (option.name == "--help") continue;
      INFO(option.name);
      CHECK(section.find(std::string(option.name)) != std::string::npos);
    }
  }
}

TEST_CASE("an option's default is stated once, in the table, and shown wherever it is described") {
  const std::string readme = read_text(std::string(KBC_SOURCE_DIR) + "/README.md");
  for (const Command& command : all_commands()) {
    const std::string section = readme_section(readme, command.name);
    for (const OptionSpec& option : command.options) {
      if (option.default_value.empty() && option.default_text.empty()) continue;
      INFO("kbc " << command.name << " " << option.name);
      const std::string_view shown =
          option.default_text.empty() ? option.default_value : option.default_text;
      CHECK(option_help(option).ends_with(" (default: " + std::string(shown) + ")"));
      CHECK(command_help(command).find(option_help(option)) != std::string::npos);
      if (!option.choices.empty() && !option.default_value.empty()) {
        CHECK(std::find(option.choices.begin(), option.choices.end(), option.default_value) !=
              option.choices.end());
      }
      // The README's row of the option names its default, or refers to another command's.
      const std::size_t row = section.find("| `" + std::string(option.name));
      REQUIRE(row != std::string::npos);
      const std::string line = section.substr(row, section.find('\n', row) - row);
      CHECK(
          (line.find("default") != std::string::npos || line.find("as for") != std::string::npos));
    }
  }
}

TEST_CASE("an option not given reads as its default, one given as given") {
  const Command& match = *std::find_if(all_commands().begin(), all_commands().end(),
                                       [](const Command& c) { return c.name == "match"; });
  const Arguments none = parse_arguments({}, match);
  CHECK(none.value("--root") == ".");
  CHECK(none.value("--top") == "5");
  CHECK(none.value("--min-score") == std::to_string(kDefaultMinScore));
  CHECK(none.value("--bundle").empty());
  CHECK(none.values.empty());  // what was given stays apart from the defaults
  const Arguments given = parse_arguments({"--top=3", "--root", "kb"}, match);
  CHECK(given.value("--top") == "3");
  CHECK(given.value("--root") == "kb");
}

TEST_CASE("the README's table of lint rules lists every rule with its severity") {
  const std::string readme = read_text(std::string(KBC_SOURCE_DIR) + "/README.md");
  for (const Rule& rule : all_rules()) {
    INFO(rule.id);
    const std::string severity =
        std::string(rule.severity == Severity::kError ? "error" : "warning") +
        (rule.required ? ", required" : "");
    CHECK(readme.find("| `" + std::string(rule.id) + "` | " + severity + " |") !=
          std::string::npos);
  }
}
