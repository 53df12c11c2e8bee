// What the last listing of the entry files learnt of each (its digest and kbc-disable comments),
// under the file's stamp, so that the next listing need not read a file whose stamp has not
// changed (git's index does the same for `git status`).
//
// A stamp is trusted only when its modification and change times are older than the listing
// that recorded it by more than two seconds (settled_before, base/file_system.h): a file written
// again in the same tick of the clock as the read, after it, keeps its times, and is hashed again
// until its times are old enough to tell any later write apart. Anything damaged in the stored
// table makes it empty.
#pragma once

#include <cstdint>
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
  static FileStamps parse(std::string_view text);
  std::string text() const;

  // What was recorded of `path`, if anything.
  const Known* find(const std::string& path) const;
  // Whether a stamp's times are old enough for this table to trust it.
  bool settled(const FileStamp& stamp) const;
  // What was recorded of `path` when `now` is its recorded stamp and settled.
  const Known* trusted(const std::string& path, const FileStamp& now) const;
  // Whether record() keeps `path`: a path holding a tab or a line break is always hashed.
  static bool recordable(const std::string& path);
  // Records `path`, when it is recordable.
  void record(const std::string& path, Known known);
  std::size_t size() const { return files_.size(); }

 private:
  std::int64_t listed_at_ns_;
  std::unordered_map<std::string, Known> files_;
};

// Now, in nanoseconds since the epoch, on the clock file times are written with.
std::int64_t wall_clock_ns();

}  // namespace kbc
