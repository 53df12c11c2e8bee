// Every entry's regex, compiled once, and a prefilter to match a text against all of them.
//
// Testing each of N texts against each of N regexes is quadratic (seconds at 2,522 entries),
// and an RE2::Set of that many regexes exceeds RE2's memory budget. RE2's FilteredRE2 instead
// reduces each regex to literal "atoms" that any match must contain; an RE2::Set of those
// plain literals finds the atoms in a text in one pass, and only the regexes whose atoms are
// present are run. Regexes with no usable atom are always run.
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

class RegexIndex {
 public:
  // `patterns[i]` is entry i's regex, or nullopt when it has none.
  explicit RegexIndex(const std::vector<std::optional<std::string_view>>& patterns);
  ~RegexIndex();

  // Entry i's compiled regex, or nullptr when it has none or it did not compile.
  const RE2* regex(std::size_t entry) const;
  // RE2's error for entry i's regex; empty when it compiled.
  const std::string& error(std::size_t entry) const { return errors_[entry]; }

  // The entries whose regex matches somewhere in `text`, in increasing order.
  std::vector<std::size_t> matching(std::string_view text) const;

 private:
  std::vector<std::string> errors_;
  std::vector<int> filter_id_;              // entry -> FilteredRE2 id, -1 when none
  std::vector<std::size_t> entry_of_filter_;  // FilteredRE2 id -> entry
  re2::FilteredRE2 filter_;
  std::vector<std::string> atoms_;
  std::unique_ptr<RE2::Set> atom_set_;  // null when it could not be compiled: atoms_ are scanned
};

// RE2 options used for entry regexes everywhere (lint, match, build).
RE2::Options entry_regex_options();

}  // namespace kbc
