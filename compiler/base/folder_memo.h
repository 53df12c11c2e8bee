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
//
// The memo read is its text and an index of its lines, and a walk records the names of a
// trusted folder as that line holds them: at 100,000 entries, parsing the memo into names,
// copying them into the next and freeing both took 0.2 s of the walk's 0.6, on one core.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/file_system.h"
#include "base/text.h"

namespace kbc {

// The names of a folder as a memo's line holds them: each after a tab and its kind ('f', 'l' or
// 'd': a file, a link, a folder). Nullopt when a name holds a tab or a line break.
std::optional<std::string> folder_names(const std::vector<std::string>& files,
                                        const std::vector<std::string>& links,
                                        const std::vector<std::string>& folders);

// Calls `name(kind, name)` for each name of `names` (folder_names' form), in its order.
template <typename Name>
void for_each_folder_name(std::string_view names, Name name) {
  if (!names.empty()) names.remove_prefix(1);  // the first tab
  while (!names.empty()) {
    const std::string_view field = next_tab_field(names);
    name(field.front(), field.substr(1));
  }
}

// A stored memo, read.
class FolderMemo {
 public:
  FolderMemo() = default;
  // The memo FolderRecord::text() wrote; an empty one when `text` is not one.
  static FolderMemo parse(std::string text);

  // The names recorded in the folder at `path` (relative to the walk's top; folder_names' form),
  // when `now` is its recorded stamp and settled.
  std::optional<std::string_view> trusted(std::string_view path, const FileStamp& now) const;
  std::size_t size() const { return lines_.size(); }

 private:
  struct Line {
    FileStamp stamp;
    std::string_view names;
  };
  std::int64_t listed_at_ns_ = 0;
  std::unique_ptr<const std::string> text_;  // what lines_ views
  std::unordered_map<std::string_view, Line> lines_;
};

// The memo a walk records, to store for the next walk.
class FolderRecord {
 public:
  // The record of a walk that starts at `listed_at_ns` (since the epoch).
  explicit FolderRecord(std::int64_t listed_at_ns) : listed_at_ns_(listed_at_ns) {}
  // Records the folder at `path` with its `names` (folder_names' form; nullopt: unrecordable),
  // `listed` by a listing, not from a memo. Each folder once.
  void record(std::string path, const FileStamp& stamp, std::optional<std::string> names,
              bool listed);
  // Adds what `other` recorded.
  void take(FolderRecord other);
  // The memo's text, for FolderMemo::parse.
  std::string text() const;
  std::size_t size() const { return folders_.size(); }
  // How many folders this walk listed: each differs from the last memo, or holds a stamp the
  // last did not trust.
  std::size_t listed() const { return listed_; }

 private:
  struct Folder {
    FileStamp stamp;
    std::string names;
  };
  std::int64_t listed_at_ns_;
  std::vector<std::pair<std::string, Folder>> folders_;
  std::size_t listed_ = 0;
};

}  // namespace kbc
