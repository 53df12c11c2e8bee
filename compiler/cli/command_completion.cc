// `kbc completion bash|zsh|fish`: prints the shell's completion script (cli/completion.h).
#include <algorithm>
#include <iostream>

#include "base/diagnostic.h"
#include "base/text.h"
#include "cli/command.h"
#include "cli/completion.h"

namespace kbc {

int run_completion(const Arguments& arguments) {
  if (arguments.positional.size() != 1)
    throw ToolError("kbc completion: give one shell: bash, zsh or fish");
  const std::string& shell = arguments.positional[0];
  const std::vector<std::string> shells(std::begin(kCompletionShells), std::end(kCompletionShells));
  if (std::find(shells.begin(), shells.end(), shell) == shells.end()) {
    std::string message = "kbc completion: unknown shell '" + shell + "' (bash, zsh or fish)";
    if (const auto suggestion = closest_match(shell, shells))
      message += "; did you mean '" + *suggestion + "'?";
    throw ToolError(message);
  }
  std::cout << completion_script(all_commands(), shell);
  return 0;
}

}  // namespace kbc
