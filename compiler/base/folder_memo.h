// What a walk of a tree saw in each folder, under the folder's stamp, so that the next walk need
// not list a folder whose stamp is the same: a name added to a folder, removed from it or renamed
// in it changes the folder's modification time (git's untracked cache trusts the same). Listing
// a folder costs an open, two reads and a close; its stamp, one call: at 100,000 entries (93,000
// folders) the walk was most of the system time of a lint or a build after an edit.
//
// A folder's stamp is trusted only when its modification and change times are older than the
// walk that recorded it by two seconds (settled_before), as FileStamps trusts a file's
// (model/file_stamps.h): a name added in the same tick of the clock as the listing, after it,
// leaves the times as they were. A folder whose path or names hold a tab or a line break is
// never recorded. Anything damaged in a stored memo makes it empty.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/file_system.h"

namespace kbc {

class FolderMemo {
 public:
  struct Folder {
    FileStamp stamp;                                 // the folder's own
    std::vector<std::string> files, links, folders;  // the names in it, by kind
    bool operator==(const Folder&) const = default;
  };

  // A memo being recorded by a walk that starts at `listed_at_ns` (since the epoch).
  explicit FolderMemo(std::int64_t listed_at_ns = 0) : listed_at_ns_(listed_at_ns) {}
  // The memo text() wrote; an empty one when `text` is not one.
  static FolderMemo parse(std::string_view text);
  std::string text() const;

  // What was recorded of the folder at `path` (relative to the walk's top), when `now` is its
  // recorded stamp and settled.
  const Folder* trusted(const std::string& path, const FileStamp& now) const;
  // Records the folder at `path` (`listed`: by a listing, not from a memo), unless a tab or a
  // line break makes it unrecordable.
  void record(const std::string& path, Folder folder, bool listed);
  std::size_t size() const { return folders_.size(); }
  // How many folders a walk recording into this memo listed: each differs from the last memo,
  // or holds a stamp the last did not trust.
  std::size_t listed() const { return listed_; }

 private:
  std::int64_t listed_at_ns_;
  std::unordered_map<std::string, Folder> folders_;
  std::size_t listed_ = 0;
};

}  // namespace kbc
