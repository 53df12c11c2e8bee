// Shell completion scripts for bash, zsh and fish, generated from the table of commands and
// options (cli/command.cc), like --help and the man page: `kbc completion SHELL` prints one, and
// the build writes all three beside kbc for `cmake --install` and the Debian package.
//
// What completes: the commands; each command's options; an option's value when the table says
// what it is (its choices; DIR: folders; FILE: files); operands (FILE: files; a word list such
// as "bash|zsh|fish": those words).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"

namespace kbc {

inline constexpr std::string_view kCompletionShells[] = {"bash", "zsh", "fish"};

// The script for `shell` (one of kCompletionShells); throws ToolError for another name.
std::string completion_script(const std::vector<Command>& commands, std::string_view shell);

}  // namespace kbc
