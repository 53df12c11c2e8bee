#include "base/output_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "base/parallel.h"

#include "base/diagnostic.h"

namespace kbc {
namespace fs = std::filesystem;
namespace {

bool is_safe_relative(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == ".." ||
        segment.find('\0') != segment.npos) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

// Writes `content` to `path`, creating or truncating it; never follows a symbolic link.
void write_file(const fs::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw ToolError("cannot write " + path.string() + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw ToolError("cannot write " + path.string() + ": " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw ToolError("cannot write " + path.string() + ": " + std::strerror(errno));
}

// True when `path` is a regular file (not a link to one) holding exactly `content`; `st` gets
// its status when it exists.
bool holds(const fs::path& path, const std::string& content, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    st = {};
    return false;
  }
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<std::size_t>(st.st_size) == content.size();
  std::string buffer(same ? 65536 : 0, '\0');
  for (std::size_t at = 0; same && at < content.size();) {
    const ssize_t n = ::read(fd, buffer.data(), std::min(buffer.size(), content.size() - at));
    if (n < 0 && errno == EINTR) continue;
    same = n > 0 && std::memcmp(buffer.data(), content.data() + at, n) == 0;
    at += n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  ::close(fd);
  return same;
}

// Makes `path` hold `content`. A file that already does is left alone; one that does not is
// rewritten in place, which spares the file system an inode, unless it shares its inode with
// another path (a hard link from an earlier build): then it gets a new one.
void sync_file(const fs::path& path, const std::string& content) {
  struct stat st {};
  if (holds(path, content, st)) return;
  if (st.st_nlink > 1 || (st.st_mode != 0 && !S_ISREG(st.st_mode))) ::unlink(path.c_str());
  write_file(path, content);
}

// Calls `write(item)` for every item on every core; rethrows the first failure.
template <typename Item, typename Write>
void write_all(const std::vector<Item>& items, Write write) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  parallel_slices(items.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    try {
      for (std::size_t i = begin; i < end; ++i) write(items[i]);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
}

// What one folder of the previous output holds that the tree does not (stale files, and anything
// that is not a regular file or folder where the tree wants one), and the folders it keeps.
struct FolderScan {
  std::vector<std::string> stale, kept;
  std::string error;
};

// Lists `folder` (relative to the output folder, open as `root`; "" for itself) with the types
// that readdir gives, so without a stat per entry where the file system gives them: the output
// has a folder per entry, and std::filesystem's walk costs a stat per file.
FolderScan scan_folder(int root, const std::string& folder, const OutputTree& tree,
                       const std::set<std::string>& folders) {
  FolderScan scan;
  const int fd = ::openat(root, folder.empty() ? "." : folder.c_str(),
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const std::unique_ptr<DIR, int (*)(DIR*)> listing(fd < 0 ? nullptr : ::fdopendir(fd), ::closedir);
  if (!listing) {
    scan.error = "cannot list '" + folder + "': " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return scan;
  }
  while (const dirent* item = ::readdir(listing.get())) {
    const std::string_view name = item->d_name;
    if (name == "." || name == "..") continue;
    std::string path = folder.empty() ? std::string(name) : folder + "/" + item->d_name;
    unsigned char type = item->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st {};
      type = ::fstatat(fd, item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ? DT_UNKNOWN
             : S_ISDIR(st.st_mode)                                      ? DT_DIR
             : S_ISREG(st.st_mode)                                      ? DT_REG
                                                                        : DT_UNKNOWN;
    }
    const bool keep = type == DT_DIR   ? folders.count(path) > 0
                      : type == DT_REG ? tree.files().count(path) > 0 || path == kOutputMarker
                                       : false;
    if (!keep)
      scan.stale.push_back(std::move(path));
    else if (type == DT_DIR)
      scan.kept.push_back(std::move(path));
  }
  return scan;
}

// Lists the previous output at `dir` one depth at a time, the folders of each depth on every
// core: what to remove into `stale`, the folders to keep into `existing`.
void find_stale(const fs::path& dir, const OutputTree& tree, const std::set<std::string>& folders,
                std::set<std::string>& existing, std::vector<std::string>& stale) {
  const int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root < 0) throw ToolError("cannot open " + dir.string() + ": " + std::strerror(errno));
  std::vector<std::string> depth = {""};
  std::string error;
  while (!depth.empty() && error.empty()) {
    std::vector<FolderScan> scans(depth.size());
    parallel_slices(
        depth.size(),
        [&](std::size_t begin, std::size_t end, std::size_t) {
          for (std::size_t i = begin; i < end; ++i)
            scans[i] = scan_folder(root, depth[i], tree, folders);
        },
        16);
    depth.clear();
    for (FolderScan& scan : scans) {
      if (error.empty()) error = scan.error;
      std::move(scan.stale.begin(), scan.stale.end(), std::back_inserter(stale));
      for (std::string& folder : scan.kept) {
        existing.insert(folder);
        depth.push_back(std::move(folder));
      }
    }
  }
  ::close(root);
  if (!error.empty()) throw ToolError("cannot write output: " + error);
}

// Makes `dir` hold exactly the tree: stale entries removed, folders made, then the files on
// every core, then the copies as hard links to their sources (written out where linking fails).
void write_tree(const OutputTree& tree, const fs::path& dir, Progress* progress) {
  std::set<std::string> folders;
  for (const auto& [path, content] : tree.files()) {
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1))
      folders.insert(path.substr(0, slash));
  }
  std::set<std::string> existing;
  std::vector<std::string> stale;
  find_stale(dir, tree, folders, existing, stale);
  for (const std::string& path : stale) fs::remove_all(dir / path);
  // A folder sorts after its parent, so parents are made first.
  for (const std::string& folder : folders) {
    if (!existing.count(folder)) fs::create_directory(dir / folder);
  }
  std::vector<const std::pair<const std::string, std::string>*> files, copies;
  for (const auto& file : tree.files()) {
    if (!tree.copies().count(file.first)) files.push_back(&file);
  }
  for (const auto& copy : tree.copies()) copies.push_back(&copy);
  if (progress) progress->start("writing", files.size());
  write_all(files, [&](const auto* file) {
    sync_file(dir / file->first, file->second);
    if (progress) progress->advance();
  });
  write_all(copies, [&](const auto* copy) {
    const fs::path target = dir / copy->first, source = dir / copy->second;
    struct stat target_status {
    }, source_status{};
    if (::lstat(target.c_str(), &target_status) == 0 &&
        ::lstat(source.c_str(), &source_status) == 0 &&
        target_status.st_ino == source_status.st_ino &&
        target_status.st_dev == source_status.st_dev)
      return;  // already the same file
    ::unlink(target.c_str());
    if (::link(source.c_str(), target.c_str()) != 0)
      write_file(target, tree.files().at(copy->first));
  });
}

// The output folder `name` names, absolute: without a trailing slash (its staging folder is its
// sibling, not its child), and where it is a symbolic link (a deploy folder), the folder it
// points to, which is the one replaced.
fs::path output_folder(const std::string& name) {
  if (name.empty()) throw ToolError("the output folder is empty: give --out a folder");
  fs::path out_dir = fs::absolute(name).lexically_normal();
  while (out_dir.filename().empty() && out_dir.has_relative_path()) out_dir = out_dir.parent_path();
  if (!out_dir.has_relative_path())
    throw ToolError("refusing to write the output over " + out_dir.string());
  std::error_code error;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(out_dir, error)); ++hops) {
    const fs::path target = fs::read_symlink(out_dir, error);
    if (error || hops == 40)
      throw ToolError("cannot follow the output folder's link " + out_dir.string());
    out_dir = (out_dir.parent_path() / target).lexically_normal();
  }
  return out_dir;
}

void remove_tree(const fs::path& dir);

// Removes what builds killed while writing left beside `out_dir`: staging folders of processes
// that no longer run (`.<name>.tmp-<pid>-<n>`).
void remove_abandoned(const fs::path& out_dir) {
  const std::string prefix = "." + out_dir.filename().string() + ".tmp-";
  std::error_code error;
  for (const auto& item : fs::directory_iterator(out_dir.parent_path(), error)) {
    const std::string name = item.path().filename().string();
    if (!name.starts_with(prefix) || item.is_symlink(error) || !item.is_directory(error)) continue;
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash ||
        rest.find_first_not_of("0123456789", dash + 1) != std::string::npos || dash > 9)
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
    if (pid == ::getpid() || (::kill(pid, 0) == 0 || errno != ESRCH)) continue;
    remove_tree(item.path());
  }
}

// The previous output may only be replaced when kbc wrote it (or it is empty).
void check_replaceable(const fs::path& out_dir) {
  std::error_code error;
  if (!fs::exists(out_dir, error)) return;
  if (!fs::is_directory(out_dir, error)) {
    throw ToolError("output path " + out_dir.string() + " exists and is not a folder");
  }
  if (fs::is_empty(out_dir, error) || fs::exists(out_dir / kOutputMarker, error)) return;
  throw ToolError("refusing to replace " + out_dir.string() + ": it is not empty and was not " +
                  "written by kbc (no " + std::string(kOutputMarker) + " file)");
}

fs::path staging_path(const fs::path& out_dir) {
  std::random_device random;
  return out_dir.parent_path() / ("." + out_dir.filename().string() + ".tmp-" +
                                  std::to_string(::getpid()) + "-" + std::to_string(random()));
}

// The previous output kept beside the output folder to be rewritten by the next build: files
// rewritten in place cost a fraction of new ones, and unchanged files cost only a read.
fs::path spare_path(const fs::path& out_dir) {
  return out_dir.parent_path() / ("." + out_dir.filename().string() + ".kbc-spare");
}

// A fresh staging folder: the spare when there is one kbc wrote (claimed with one rename, so
// two builds never share it), else a new empty folder.
fs::path claim_staging(const fs::path& out_dir) {
  fs::path staging = staging_path(out_dir);
  const fs::path spare = spare_path(out_dir);
  std::error_code error;
  if (fs::is_regular_file(spare / kOutputMarker, error) && !fs::is_symlink(spare, error) &&
      ::rename(spare.c_str(), staging.c_str()) == 0)
    return staging;
  fs::create_directories(staging);
  return staging;
}

// Removes a whole tree, its top-level parts on every core.
void remove_tree(const fs::path& dir) {
  std::vector<fs::path> parts;
  std::error_code error;
  for (const auto& item : fs::directory_iterator(dir, error)) parts.push_back(item.path());
  parallel_slices(
      parts.size(),
      [&](std::size_t begin, std::size_t end, std::size_t) {
        std::error_code ignored;
        for (std::size_t i = begin; i < end; ++i) fs::remove_all(parts[i], ignored);
      },
      /*grain=*/1);
  fs::remove_all(dir, error);
}

// Puts the tree that was the output at `old` aside as the spare, or removes it.
void keep_as_spare(const fs::path& old, const fs::path& out_dir) {
  std::error_code error;
  const fs::path spare = spare_path(out_dir);
  if (fs::exists(old / kOutputMarker, error) && !fs::exists(spare, error) &&
      ::rename(old.c_str(), spare.c_str()) == 0)
    return;
  remove_tree(old);
}

void swap_in(const fs::path& staging, const fs::path& out_dir) {
  std::error_code error;
  if (!fs::exists(out_dir, error)) {
    fs::rename(staging, out_dir);
    return;
  }
  // One atomic exchange: the old tree ends up under the staging name.
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, out_dir.c_str(), RENAME_EXCHANGE) != 0) {
    throw ToolError("cannot replace " + out_dir.string() + ": " + std::strerror(errno));
  }
  keep_as_spare(staging, out_dir);
}

}  // namespace

void OutputTree::add(std::string_view path, std::string content) {
  if (!is_safe_relative(path)) {
    throw ToolError("refusing to write outside the output folder: '" + std::string(path) + "'");
  }
  files_[std::string(path)] = std::move(content);
}

void OutputTree::add_copy(std::string_view path, const std::string& source) {
  const auto it = files_.find(source);
  if (it == files_.end() || copies_.count(source))
    throw ToolError("internal error: copy of '" + source + "', which is not a written file");
  add(path, it->second);
  copies_[std::string(path)] = source;
}

void commit_output(const OutputTree& tree, const std::string& out_dir_name, Progress* progress) {
  const fs::path out_dir = output_folder(out_dir_name);
  check_replaceable(out_dir);
  remove_abandoned(out_dir);
  fs::path staging;
  try {
    staging = claim_staging(out_dir);
    write_file(staging / kOutputMarker, "");
    write_tree(tree, staging, progress);
    if (progress) progress->clear();
    swap_in(staging, out_dir);
  } catch (const fs::filesystem_error& e) {
    std::error_code ignored;
    if (!staging.empty()) fs::remove_all(staging, ignored);
    throw ToolError("cannot write the output " + out_dir.string() + ": " + e.code().message() +
                    (e.path1().empty() ? "" : " (" + e.path1().string() + ")") +
                    "; the folder that holds it must be writable, with room for a second copy");
  } catch (...) {
    std::error_code ignored;
    if (!staging.empty()) fs::remove_all(staging, ignored);
    throw;
  }
}

}  // namespace kbc
