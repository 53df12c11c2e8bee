// Glob patterns over '/'-separated names, as kbc.yaml's `exclude` writes entry ids.
//
// A pattern is matched segment by segment: within a segment, `*` is any text, `?` one
// character and `[...]` a set (fnmatch(3)); a segment that is exactly `**` matches any number of
// segments, none included. So `cuda/*` matches `cuda/x` but not `cuda/x/v`, and `cuda/**`
// matches both.
#pragma once

#include <string_view>

namespace kbc {

bool glob_match(std::string_view pattern, std::string_view name);

}  // namespace kbc
