// kbc(1): the man page, generated from the same table of commands and options as `kbc --help`
// and `kbc <command> --help`, so the three cannot disagree. `kbc --man` prints it; the build
// writes it to <build>/kbc.1.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"

namespace kbc {

// The page in man(7) roff; no date, so the same table gives the same bytes.
std::string man_page(const std::vector<Command>& commands, std::string_view version);

}  // namespace kbc
