// `kbc completion bash|zsh|fish`: prints the shell's completion script (cli/completion.h).
#include <iostream>

#include "base/diagnostic.h"
#include "cli/command.h"
#include "cli/completion.h"

namespace kbc {

int run_completion(const Arguments& arguments) {
  if (arguments.positional.size() != 1)
    throw ToolError("kbc completion: give one shell: bash, zsh or fish");
  std::cout << completion_script(all_commands(), arguments.positional[0]);
  return 0;
}

}  // namespace kbc
