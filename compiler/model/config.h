// The settings of a knowledge base: kbc.yaml at its root, optional, validated against
// schema/kbc.schema.json like an entry (unknown keys are errors).
#pragma once

#include <string>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "site/site_model.h"

namespace kbc {

inline constexpr const char* kConfigFile = "kbc.yaml";

// Reads kbc.yaml under `root` when there is one; problems go to `out` with path "kbc.yaml" and
// leave the defaults in place.
SiteConfig load_config(const FileSystem& fs, const std::string& root, Diagnostics& out);

// `url` with exactly one trailing '/'; "" stays "".
std::string normalized_base_url(std::string url);

}  // namespace kbc
