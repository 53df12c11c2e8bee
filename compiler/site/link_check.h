// The site's own links, checked once its tree is complete: a build with a broken link fails.
#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "base/output_tree.h"

namespace kbc {

// Every href and src of the HTML pages under `prefix` that points inside the site at a file the
// tree does not have, as an error diagnostic at the link (rule id "site-link").
Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix = "site/");

}  // namespace kbc
