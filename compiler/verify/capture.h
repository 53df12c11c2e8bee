// kbc verify --capture: adds a line that a recipe printed to the entry's samples, editing the
// YAML text in place so that the rest of the file (comments, quoting, order) stays as written.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/entry.h"

namespace kbc {

// `text` (the file of `entry`) with `line` added as the last item of its block-style `samples`
// list, or as a new `samples` list at the end when it has none. nullopt when the list is not in
// block style (`samples: [a, b]`), which kbc does not rewrite.
std::optional<std::string> with_sample(std::string_view text, const Entry& entry,
                                       const std::string& line);

}  // namespace kbc
