// The site's own links, checked as its pages are added to the output: a build with a broken
// link fails. Pages are read as they go by (a streamed tree keeps none), so what is kept is one
// record per file linked to, not the pages.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/diagnostic.h"
#include "base/output_tree.h"

namespace kbc {

class LinkCheck {
 public:
  // Checks the HTML pages under `prefix`, and their links to files under it.
  explicit LinkCheck(std::string prefix = "site/") : prefix_(std::move(prefix)) {}
  // Reads the links of one file of the tree (ignored unless a page under the prefix); from any
  // thread.
  void read(const std::string& path, std::string_view content);
  // Every file linked to that `tree` does not have, as one error diagnostic at its first link
  // (by page path, then place; rule id "site-link"), which says how many other links it has.
  Diagnostics problems(const OutputTree& tree) const;

 private:
  struct Use {
    std::string page, link;
    std::size_t offset = 0;
    int line = 0, column = 0;
    std::size_t count = 0;
  };
  // Keeps `use`, a link of `page`, when it is its target's first (by page, then place), placed
  // (and given its page) by `place`; under the lock.
  template <typename Place>
  void note(std::string target, Use use, const std::string& page, const Place& place);

  std::string prefix_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Use> targets_;  // "" for links that climb above the root
};

// The same check over a tree held in memory.
Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix = "site/");

}  // namespace kbc
