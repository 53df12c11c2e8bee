// An entry's reproduction recipe: its `reproduce` block, as kbc verify runs it.
//
// The block is authoring-only (the published record leaves it out). Its script is inline
// (`python:` or `shell:`) or a file beside the entry (`file:`), whose text the knowledge base
// reads when it loads, so that the recipe's digest covers it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/entry.h"

namespace kbc {

struct Recipe {
  std::vector<std::string> packages;        // Debian packages it needs
  std::vector<std::string> python_modules;  // Python modules python3 must import
  bool gpu = false;                         // it needs an NVIDIA GPU
  std::string language;                     // "python" or "shell"
  std::string script;                       // the script's text
  std::string file;                         // its file, relative to the root; "" when inline
  int timeout_s = 60;
  std::string expect;  // the regex a line of its output must match: `expect`, else the entry's
  bool expect_is_regex = true;  // true when `expect` is the entry's own regex
  std::string digest;           // of all of the above: what evidence is recorded against
};

inline constexpr int kDefaultRecipeTimeout = 60;

// What is wrong with a reproduce block, at the node `pointer`.
struct RecipeProblem {
  std::string pointer;
  std::string message;
};

// The recipe of `entry` (schema-valid), or nullopt when it has no reproduce block. A block that
// cannot run (no script or several, a missing file) gives nullopt and `problem`. `files` maps
// paths relative to the root ("entries/cuda/x.py") to the text of the recipe files.
std::optional<Recipe> read_recipe(const Entry& entry,
                                  const std::map<std::string, std::string>& files,
                                  RecipeProblem* problem = nullptr);

// The path, relative to the root, of the script file that `entry`'s reproduce block names; ""
// when it names none.
std::string recipe_file_path(const Entry& entry);

}  // namespace kbc
