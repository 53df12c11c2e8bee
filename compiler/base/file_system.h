// The file-system interface every stage reads through, so tests can use an in-memory tree.
//
// Paths are '/'-separated strings. Writing goes through OutputTree (output_tree.h) instead:
// stages produce a complete tree in memory and the driver commits it in one step.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbc {

// The whole content of the file at `path`, read to its end with one buffer sized by fstat (a
// stream and a string stream cost a tenth of a cache-filled lint); nullopt when it cannot be
// opened or read.
std::optional<std::string> read_whole_file(const std::string& path);
// The same, but never through a symbolic link as the file itself: nullopt with errno ELOOP.
std::optional<std::string> read_whole_file_not_link(const std::string& path);

// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so that a reader
// sees the old file or the new one, never a part; on failure removes the temporary file and
// returns false. For caches, whose failure to write is not an error.
bool replace_file(const std::string& path, std::string_view bytes);
// The same with the bytes that `write` puts in the stream, which are never all in memory; false
// too when `write` returns false. Its file is an std::ofstream, opened without O_CLOEXEC: for
// what is written while kbc starts no process (the last lint); the version above opens its own.
bool replace_file(const std::string& path, const std::function<bool(std::ostream&)>& write);

// Reads `size` bytes at `offset` of the open file `fd` into `out`; false when it ends before
// them or cannot be read.
bool read_at(int fd, char* out, std::size_t size, std::uint64_t offset);
// Writes `bytes` at `offset` of the open file `fd`; false when they could not all be written.
bool write_at(int fd, std::string_view bytes, std::uint64_t offset);

// A file for bytes a run reads back instead of holding them in memory: one it writes once, which
// no other process can open (unnamed, O_TMPFILE, so it goes with the process however it ends),
// or one it has written already and only reads.
class ScratchFile {
 public:
  // One in `folder`; nullopt where the file system cannot make one.
  static std::optional<ScratchFile> in(const std::string& folder);
  // The file at `path`, read-only (append fails), never through a link; nullopt when it cannot
  // be opened.
  static std::optional<ScratchFile> reading(const std::string& path);
  ScratchFile(ScratchFile&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}
  ScratchFile& operator=(ScratchFile&&) = delete;
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile();

  // Appends `bytes`; false when they could not all be written.
  bool append(std::string_view bytes);
  std::uint64_t size() const { return size_; }
  // The `size` bytes at `offset`, as append wrote them, from any thread; throws
  // std::runtime_error when they cannot be read.
  std::string read(std::uint64_t offset, std::size_t size) const;

 private:
  explicit ScratchFile(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// This kbc executable, as its size, modification time and inode: what a cache stores results of
// this build under, since another build may compute them differently. Empty when unknown.
std::string executable_identity();

// What the file system says of a regular file without reading it. Any write to the file changes
// its modification or change time (or its inode, when an editor saves a new file in its place).
struct FileStamp {
  std::uint64_t size = 0;
  std::int64_t modified_ns = 0;  // since the epoch
  std::int64_t changed_ns = 0;   // ctime: set by every write, rename and chmod
  std::uint64_t inode = 0;
  std::uint64_t device = 0;
  bool operator==(const FileStamp&) const = default;
};

// The stamp of the regular file at `path` (through a link only when `follow_link`); nullopt when
// there is none.
std::optional<FileStamp> stamp_of(const std::string& path, bool follow_link);
// The stamp of the folder at `path` (not through a link); nullopt when there is none.
std::optional<FileStamp> folder_stamp(const std::string& path);
// Whether `stamp`'s modification and change times are older than `listed_at_ns` by more than
// two seconds (FAT's step, and far more than any clock tick of ext4, XFS or btrfs): a write in
// the same tick as a listing, after it, leaves the times as they were, so only a settled stamp
// can be trusted to change with every later write.
bool settled_before(const FileStamp& stamp, std::int64_t listed_at_ns);
// A stamp as a cache's table writes it: its size, times, inode and device, each followed by a
// tab; and back from the front of `line` (past them), throwing std::invalid_argument on
// anything else.
void append_stamp_fields(std::string& out, const FileStamp& stamp);
FileStamp take_stamp_fields(std::string_view& line);

class FolderMemo;
class FolderRecord;

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // A knowledge base comes from pull requests: a file in it that is a symbolic link could make
  // kbc print or publish any file of the machine that runs it (/proc/self/environ holds a CI's
  // secrets). So links are never followed: `read` refuses them, `size` and `list` see no
  // regular file there, and `links` names them, to be reported.
  //
  // The whole file; throws ToolError when it cannot be read or is a symbolic link.
  virtual std::string read(const std::string& path) const = 0;
  // Size in bytes, or nullopt when there is no such regular file.
  virtual std::optional<std::uintmax_t> size(const std::string& path) const = 0;
  virtual bool is_directory(const std::string& path) const = 0;
  // Regular files under `dir` (recursively) whose name ends in `suffix`, relative to `dir`, sorted.
  virtual std::vector<std::string> list(const std::string& dir, std::string_view suffix) const = 0;
  // The symbolic links under `dir` (recursively; links to folders are not entered), relative to
  // `dir`, sorted.
  virtual std::vector<std::string> links(const std::string& dir) const = 0;
  // What `list(dir, "")` and `links(dir)` give, in one walk of the tree.
  struct Listing {
    std::vector<std::string> files, links;
  };
  virtual Listing walk(const std::string& dir) const { return {list(dir, ""), links(dir)}; }
  // The same, taking the names of a folder that `last` trusts from it, and recording every
  // folder's in `next` (base/folder_memo.h). Here, without either.
  virtual Listing walk(const std::string& dir, const FolderMemo* /*last*/,
                       FolderRecord* /*next*/) const {
    return walk(dir);
  }
  // The stamp of the regular file at `path` (not through a link); nullopt when there is none or
  // the file system keeps none.
  virtual std::optional<FileStamp> stamp(const std::string& path) const = 0;
};

class RealFileSystem final : public FileSystem {
 public:
  std::string read(const std::string& path) const override;
  std::optional<std::uintmax_t> size(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list(const std::string& dir, std::string_view suffix) const override;
  std::vector<std::string> links(const std::string& dir) const override;
  Listing walk(const std::string& dir) const override;
  Listing walk(const std::string& dir, const FolderMemo* last, FolderRecord* next) const override;
  std::optional<FileStamp> stamp(const std::string& path) const override;
};

// Files keyed by path; a directory exists when some file lies under it.
class MemoryFileSystem final : public FileSystem {
 public:
  std::map<std::string, std::string> files;
  std::map<std::string, std::string> symlinks;  // path -> target
  std::map<std::string, FileStamp> stamps;      // set by tests; a file without one has none

  std::string read(const std::string& path) const override;
  std::optional<std::uintmax_t> size(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list(const std::string& dir, std::string_view suffix) const override;
  std::vector<std::string> links(const std::string& dir) const override;
  std::optional<FileStamp> stamp(const std::string& path) const override;
};

// `a/b` from `a` and `b`; either may be empty.
std::string join_path(std::string_view a, std::string_view b);

}  // namespace kbc
