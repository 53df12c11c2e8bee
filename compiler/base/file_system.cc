#include "base/file_system.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/diagnostic.h"
#include "base/folder_memo.h"
#include "base/parallel.h"
#include "base/text.h"

namespace kbc {
namespace fs = std::filesystem;

std::string join_path(std::string_view a, std::string_view b) {
  if (a.empty() || a == ".") return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  if (out.back() != '/') out += '/';
  out += b;
  return out;
}

namespace {

// Writes all of `bytes` to `fd`; false when they could not all be written.
bool write_all(int fd, std::string_view bytes) {
  bool ok = true;
  for (std::size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  return ok;
}

}  // namespace

bool replace_file(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = write_all(fd, bytes);
  ok = ::close(fd) == 0 && ok;
  if (ok && ::rename(temporary.c_str(), path.c_str()) == 0) return true;
  ::unlink(temporary.c_str());
  return false;
}

bool replace_file(const std::string& path, const std::function<bool(std::ostream&)>& write) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  bool ok = false;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    ok = out && write(out);
    out.close();
    ok = ok && out;
  }
  if (ok && ::rename(temporary.c_str(), path.c_str()) == 0) return true;
  ::unlink(temporary.c_str());
  return false;
}

std::optional<ScratchFile> ScratchFile::in(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return std::nullopt;
  return ScratchFile(fd);
}

std::optional<ScratchFile> ScratchFile::reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  ScratchFile file(fd);
  file.size_ = static_cast<std::uint64_t>(st.st_size);
  return file;
}

ScratchFile::~ScratchFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool ScratchFile::append(std::string_view bytes) {
  if (!write_all(fd_, bytes)) return false;
  size_ += bytes.size();
  return true;
}

std::string ScratchFile::read(std::uint64_t offset, std::size_t size) const {
  std::string bytes(size, '\0');
  if (!read_at(fd_, bytes.data(), size, offset))
    throw std::runtime_error("cannot read back a scratch file");
  return bytes;
}

bool read_at(int fd, char* out, std::size_t size, std::uint64_t offset) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool write_at(int fd, std::string_view bytes, std::uint64_t offset) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n =
        ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string executable_identity() {
  struct stat st {};
  if (::stat("/proc/self/exe", &st) != 0) return "";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
}

namespace {

std::optional<std::string> read_whole(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | flags);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::string out;
  // One byte more than the size, so that the read that finds the end needs no second buffer.
  std::size_t capacity =
      ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) + 1 : 0;
  capacity = std::max<std::size_t>(capacity, 4096);
  std::size_t size = 0;
  while (true) {
    if (size == out.size()) out.resize(std::max(capacity, 2 * out.size()));
    const ssize_t n = ::read(fd, out.data() + size, out.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(size);
  return out;
}

}  // namespace

std::optional<std::string> read_whole_file(const std::string& path) { return read_whole(path, 0); }

std::optional<std::string> read_whole_file_not_link(const std::string& path) {
  return read_whole(path, O_NOFOLLOW);
}

std::string RealFileSystem::read(const std::string& path) const {
  std::optional<std::string> content = read_whole_file_not_link(path);
  if (!content && errno == ELOOP) {
    throw ToolError("cannot read " + path +
                    ": it is a symbolic link, and kbc follows no link inside a knowledge base");
  }
  if (!content) throw ToolError("cannot read " + path + ": " + std::strerror(errno));
  return std::move(*content);
}

std::optional<std::uintmax_t> RealFileSystem::size(const std::string& path) const {
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(path, error))) return std::nullopt;
  const std::uintmax_t bytes = fs::file_size(path, error);
  if (error) return std::nullopt;
  return bytes;
}

bool RealFileSystem::is_directory(const std::string& path) const {
  std::error_code error;
  return fs::is_directory(path, error);
}

namespace {

// The names in a folder, by kind.
struct Names {
  std::vector<std::string> files, links, folders;
};

Names names_in(const fs::path& dir) {
  Names names;
  std::error_code error;
  fs::directory_iterator it(dir, error), end;
  if (error) throw ToolError("cannot list " + dir.string() + ": " + error.message());
  for (; it != end; it.increment(error)) {
    if (error) throw ToolError("cannot list " + dir.string() + ": " + error.message());
    std::string name = it->path().filename().string();
    if (it->is_symlink(error)) {
      names.links.push_back(std::move(name));
    } else if (it->is_regular_file(error)) {
      names.files.push_back(std::move(name));
    } else if (it->is_directory(error)) {
      names.folders.push_back(std::move(name));
    }
  }
  return names;
}

// What one folder holds, relative to the walk's top: regular files and links go to `listing`,
// folders to `folders`. From `last` when it trusts the folder's stamp; recorded in `next` when
// it is given.
void list_folder(const std::string& top, const std::string& relative, FileSystem::Listing& listing,
                 std::vector<std::string>& folders, const FolderMemo* last, FolderRecord* next) {
  const fs::path dir = fs::path(top) / relative;
  // The stamp before the names: a name added while they are read changes it after.
  const std::optional<FileStamp> stamp = next ? folder_stamp(dir.string()) : std::nullopt;
  const std::optional<std::string_view> known =
      last && stamp ? last->trusted(relative, *stamp) : std::nullopt;
  if (known) {
    for_each_folder_name(*known, [&](char kind, std::string_view name) {
      (kind == 'f'   ? listing.files
       : kind == 'l' ? listing.links
                     : folders)
          .push_back(join_path(relative, name));
    });
    next->record(relative, *stamp, std::string(*known), false);
    return;
  }
  const Names names = names_in(dir);
  for (const std::string& name : names.files) listing.files.push_back(join_path(relative, name));
  for (const std::string& name : names.links) listing.links.push_back(join_path(relative, name));
  for (const std::string& name : names.folders) folders.push_back(join_path(relative, name));
  if (stamp)
    next->record(relative, *stamp, folder_names(names.files, names.links, names.folders), true);
}

// The whole tree under `relative`, as list_folder sees each folder.
void walk_folder(const std::string& top, const std::string& relative, FileSystem::Listing& listing,
                 const FolderMemo* last, FolderRecord* next) {
  std::vector<std::string> folders = {relative};
  while (!folders.empty()) {
    const std::string folder = std::move(folders.back());
    folders.pop_back();
    list_folder(top, folder, listing, folders, last, next);
  }
}

}  // namespace

FileSystem::Listing RealFileSystem::walk(const std::string& dir) const {
  return walk(dir, nullptr, nullptr);
}

// One walk of the tree (links to folders not entered): its regular files and its links. The
// folders of the first levels are walked on every core (100,000 entries are some 90,000
// folders, and a folder costs the kernel an open, a read and a close).
FileSystem::Listing RealFileSystem::walk(const std::string& dir, const FolderMemo* last,
                                         FolderRecord* next) const {
  Listing listing;
  std::vector<std::string> folders = {""};
  for (int level = 0; level < 2 && !folders.empty() && folders.size() < 256; ++level) {
    std::vector<std::string> below;
    for (const std::string& folder : folders) list_folder(dir, folder, listing, below, last, next);
    folders = std::move(below);
  }
  std::vector<Listing> found(folders.size());
  std::vector<FolderRecord> seen(folders.size(), FolderRecord(0));  // merged into next
  parallel_blocks(
      folders.size(),
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
          walk_folder(dir, folders[i], found[i], last, next ? &seen[i] : nullptr);
      },
      1);
  for (std::size_t i = 0; i < folders.size(); ++i) {
    Listing& part = found[i];
    listing.files.insert(listing.files.end(), std::make_move_iterator(part.files.begin()),
                         std::make_move_iterator(part.files.end()));
    listing.links.insert(listing.links.end(), std::make_move_iterator(part.links.begin()),
                         std::make_move_iterator(part.links.end()));
    if (next) next->take(std::move(seen[i]));
  }
  std::sort(listing.files.begin(), listing.files.end());
  std::sort(listing.links.begin(), listing.links.end());
  return listing;
}

namespace {

FileStamp stamp_from(const struct stat& st) {
  const auto ns = [](const timespec& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
  };
  return FileStamp{static_cast<std::uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim),
                   static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_dev)};
}

}  // namespace

std::optional<FileStamp> stamp_of(const std::string& path, bool follow_link) {
  struct stat st {};
  const int failed = follow_link ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
  if (failed != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return stamp_from(st);
}

bool settled_before(const FileStamp& stamp, std::int64_t listed_at_ns) {
  const std::int64_t before = listed_at_ns - 2'000'000'000;
  return stamp.modified_ns < before && stamp.changed_ns < before;
}

void append_stamp_fields(std::string& out, const FileStamp& stamp) {
  for (const std::string& field : {std::to_string(stamp.size), std::to_string(stamp.modified_ns),
                                   std::to_string(stamp.changed_ns), std::to_string(stamp.inode),
                                   std::to_string(stamp.device)})
    out.append(field).push_back('\t');
}

FileStamp take_stamp_fields(std::string_view& line) {
  FileStamp stamp;
  stamp.size = number_tab_field<std::uint64_t>(line);
  stamp.modified_ns = number_tab_field<std::int64_t>(line);
  stamp.changed_ns = number_tab_field<std::int64_t>(line);
  stamp.inode = number_tab_field<std::uint64_t>(line);
  stamp.device = number_tab_field<std::uint64_t>(line);
  return stamp;
}

std::optional<FileStamp> folder_stamp(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return stamp_from(st);
}

std::optional<FileStamp> RealFileSystem::stamp(const std::string& path) const {
  return stamp_of(path, /*follow_link=*/false);
}

std::vector<std::string> RealFileSystem::list(const std::string& dir,
                                              std::string_view suffix) const {
  std::vector<std::string> files = walk(dir).files;
  std::erase_if(files, [&](const std::string& file) { return !file.ends_with(suffix); });
  return files;
}

std::vector<std::string> RealFileSystem::links(const std::string& dir) const {
  return walk(dir).links;
}

std::string MemoryFileSystem::read(const std::string& path) const {
  if (symlinks.count(path)) {
    throw ToolError("cannot read " + path +
                    ": it is a symbolic link, and kbc follows no link inside a knowledge base");
  }
  const auto it = files.find(path);
  if (it == files.end()) throw ToolError("cannot read " + path);
  return it->second;
}

std::optional<std::uintmax_t> MemoryFileSystem::size(const std::string& path) const {
  const auto it = files.find(path);
  if (it == files.end()) return std::nullopt;
  return it->second.size();
}

bool MemoryFileSystem::is_directory(const std::string& path) const {
  const std::string prefix = join_path(path, "");
  return std::any_of(files.begin(), files.end(),
                     [&](const auto& file) { return file.first.starts_with(prefix + "/"); });
}

std::vector<std::string> MemoryFileSystem::list(const std::string& dir,
                                                std::string_view suffix) const {
  const std::string prefix = dir.empty() ? "" : join_path(dir, "") + "/";
  std::vector<std::string> out;
  for (const auto& [path, content] : files) {
    if (path.starts_with(prefix) && path.ends_with(suffix))
      out.push_back(path.substr(prefix.size()));
  }
  return out;
}

std::vector<std::string> MemoryFileSystem::links(const std::string& dir) const {
  const std::string prefix = dir.empty() ? "" : join_path(dir, "") + "/";
  std::vector<std::string> out;
  for (const auto& [path, target] : symlinks) {
    if (path.starts_with(prefix)) out.push_back(path.substr(prefix.size()));
  }
  return out;
}

std::optional<FileStamp> MemoryFileSystem::stamp(const std::string& path) const {
  const auto it = stamps.find(path);
  if (it == stamps.end() || !files.count(path)) return std::nullopt;
  return it->second;
}

}  // namespace kbc
