// What the last listing of the entry files learnt of each (its digest and kbc-disable comments),
// under the file's stamp, so that the next listing need not read a file whose stamp has not
// changed (git's index does the same for `git status`).
//
// A stamp is trusted only when its modification and change times are older than the listing
// that recorded it by more than two seconds (settled_before, base/file_system.h): a file written
// again in the same tick of the clock as the read, after it, keeps its times, and is hashed again
// until its times are old enough to tell any later write apart. Anything damaged in the stored
// table makes it empty.
//
// A table read keeps its text, and its rows' paths and digests are views into it: at 100,000
// entries, a path and a digest made and freed per row were 0.13 s of a listing, on one core.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/file_system.h"
#include "load/suppression_comments.h"

namespace kbc {

class FileStamps {
 public:
  struct Known {
    FileStamp stamp;
    std::string digest;
    std::vector<SuppressionComment> suppressions;
  };

  // A table being recorded by a listing that starts at `listed_at_ns` (since the epoch).
  explicit FileStamps(std::int64_t listed_at_ns = 0) : listed_at_ns_(listed_at_ns) {}
  // The table text() wrote; an empty table when `text` is not one.
  static FileStamps parse(std::string text);
  std::string text() const;

  // What was recorded of `path`, if anything.
  std::optional<Known> find(std::string_view path) const;
  // Whether a stamp's times are old enough for this table to trust it.
  bool settled(const FileStamp& stamp) const;
  // What was recorded of `path` when `now` is its recorded stamp and settled.
  std::optional<Known> trusted(std::string_view path, const FileStamp& now) const;
  // Whether record() keeps `path`: a path holding a tab or a line break is always hashed.
  static bool recordable(const std::string& path);
  // Records `path`, when it is recordable.
  void record(const std::string& path, Known known);
  std::size_t size() const { return files_.size(); }

 private:
  struct Row {
    FileStamp stamp;
    std::string_view digest;
    std::vector<SuppressionComment> suppressions;
  };
  std::int64_t listed_at_ns_;
  std::unique_ptr<const std::string> text_;  // what a table read views
  std::deque<std::string> recorded_;         // the paths and digests record() was given
  std::unordered_map<std::string_view, Row> files_;
};

// Now, in nanoseconds since the epoch, on the clock file times are written with.
std::int64_t wall_clock_ns();

}  // namespace kbc
