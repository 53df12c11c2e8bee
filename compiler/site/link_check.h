// The site's own links, checked as its pages are added to the output: a build with a broken
// link fails. Pages are read as they go by (a streamed tree keeps none), so what is kept is one
// record per file linked to that the tree did not have yet, not the pages: a link to a file the
// tree has is good, since a tree's files stay.
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
  // Checks the HTML pages of `tree` under `prefix`, and their links to files under it.
  explicit LinkCheck(const OutputTree& tree, std::string prefix = "site/")
      : tree_(tree), prefix_(std::move(prefix)) {}
  // Reads the links of one file of the tree (ignored unless a page under the prefix), as it is
  // added to the tree; from any thread.
  void read(const std::string& path, std::string_view content);
  // Every file linked to that the tree does not have, as one error diagnostic at its first link
  // (by page path, then place; rule id "site-link"), which says how many other links it has.
  Diagnostics problems() const;
  // How many files linked to it keeps (those the tree did not have when a page linked to them).
  std::size_t kept() const;

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

  const OutputTree& tree_;
  std::string prefix_;
  mutable std::mutex mutex_;
  // The files linked to that the tree did not have when they were; "" for links that climb
  // above the root.
  std::unordered_map<std::string, Use> targets_;
};

// The same check over a tree held in memory.
Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix = "site/");

}  // namespace kbc
