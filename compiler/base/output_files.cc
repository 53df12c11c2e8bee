#include "base/output_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <memory>
#include <sstream>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/output_stage.h"
#include "base/parallel.h"

namespace kbc {
namespace fs = std::filesystem;

void fail_on(const std::string& what, const fs::path& path) {
  throw ToolError("cannot " + what + " " + path.string() + ": " + std::strerror(errno));
}

// Removes a whole tree, its top-level parts on every core; never follows a link.
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

int open_for_writing(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) fail_on("write", path);
  return fd;
}

void write_all(int fd, std::string_view content, const fs::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      fail_on("write", path);
    }
    written += static_cast<std::size_t>(n);
  }
}

void write_file(const fs::path& path, std::span<const std::string_view> pieces) {
  const int fd = open_for_writing(path);
  // Up to IOV_MAX pieces a call (kb.json is two pieces a record: 200,000 writes at 100,000
  // entries one at a time); what a short write leaves of them is written piece by piece.
  constexpr std::size_t kPiecesPerCall = 1024;
  std::vector<iovec> vectors;
  for (std::size_t first = 0; first < pieces.size(); first += kPiecesPerCall) {
    const std::size_t end = std::min(pieces.size(), first + kPiecesPerCall);
    vectors.clear();
    for (std::size_t k = first; k < end; ++k)
      vectors.push_back({const_cast<char*>(pieces[k].data()), pieces[k].size()});
    ssize_t written = 0;
    do {
      written = ::writev(fd, vectors.data(), static_cast<int>(vectors.size()));
    } while (written < 0 && errno == EINTR);
    auto left = static_cast<std::size_t>(std::max<ssize_t>(written, 0));
    for (std::size_t k = first; k < end; ++k) {
      if (left >= pieces[k].size()) {
        left -= pieces[k].size();
        continue;
      }
      write_all(fd, pieces[k].substr(left), path);  // fails as write does, when writev did
      left = 0;
    }
  }
  if (::close(fd) != 0) fail_on("write", path);
}

void write_file(const fs::path& path, std::string_view content) {
  write_file(path, std::span<const std::string_view>(&content, 1));
}

std::string read_file(const fs::path& path) {
  return read_whole_file_not_link(path.string()).value_or("");
}

// A piece at a time: kb.json is compared a record at a time, never joined (318 MB at 100,000
// entries, grown by doubling, was the peak of a build without the cache).
bool holds(const fs::path& path, std::span<const std::string_view> pieces) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  std::size_t size = 0;
  for (const std::string_view piece : pieces) size += piece.size();
  struct stat st {};
  bool same =
      ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) == size;
  std::string buffer(same ? 65536 : 0, '\0');
  for (const std::string_view piece : pieces) {
    for (std::size_t at = 0; same && at < piece.size();) {
      const ssize_t n = ::read(fd, buffer.data(), std::min(buffer.size(), piece.size() - at));
      if (n < 0 && errno == EINTR) continue;
      same = n > 0 && std::memcmp(buffer.data(), piece.data() + at, n) == 0;
      at += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
  }
  ::close(fd);
  return same;
}

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string journal_text(const Journal& journal) {
  std::string text;
  for (const std::string& path : journal.remove) text.append("remove\t").append(path) += '\n';
  for (const std::string& path : journal.move) text.append("move\t").append(path) += '\n';
  return text;
}

Journal parse_journal(const std::string& text) {
  Journal journal;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    (line.compare(0, tab, "remove") == 0 ? journal.remove : journal.move)
        .push_back(line.substr(tab + 1));
  }
  return journal;
}

namespace {

// Makes the folder `relative` (under `root`) and its parents real folders: a link or a file
// where one is wanted is removed first, so nothing is ever written through a link.
void make_real_folders(const fs::path& root, const std::string& relative,
                       std::set<std::string>& made) {
  for (std::size_t end = 0; end != std::string::npos;) {
    end = relative.find('/', end + 1);
    const std::string folder = relative.substr(0, end);
    if (folder.empty() || made.count(folder)) continue;
    const fs::path path = root / folder;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
      std::error_code error;
      fs::remove(path, error);
    }
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) fail_on("make the folder", path);
    made.insert(folder);
  }
}

// Whether every folder above `path` (under `root`) is a real folder, not a link: a path of the
// manifest under a link put in the output by hand is not kbc's to remove.
bool under_real_folders(const fs::path& root, const std::string& path,
                        std::set<std::string>& checked) {
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string folder = path.substr(0, slash);
    if (checked.count(folder)) continue;
    struct stat st {};
    if (::lstat((root / folder).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    checked.insert(folder);
  }
  return true;
}

// Removes the folders above `path` that are left empty, up to the output folder.
void remove_empty_parents(const fs::path& root, std::string path) {
  for (path = parent_of(path); !path.empty(); path = parent_of(path)) {
    if (::rmdir((root / path).c_str()) != 0) return;
  }
}

}  // namespace

void apply_journal(const fs::path& out_dir, const fs::path& staging, Progress* progress) {
  const Journal journal = parse_journal(read_whole_file_not_link(staging / kJournal).value_or(""));
  std::set<std::string> real;
  for (const std::string& path : journal.remove) {
    if (!under_real_folders(out_dir, path, real)) continue;
    std::error_code error;
    fs::remove_all(out_dir / path, error);
    remove_empty_parents(out_dir, path);
  }
  if (progress) progress->start("writing", journal.move.size());
  std::set<std::string> made;
  for (const std::string& path : journal.move) {
    const fs::path from = staging / path, to = out_dir / path;
    if (progress) progress->advance();
    struct stat st {};
    if (::lstat(from.c_str(), &st) != 0) continue;  // moved before the last build was killed
    make_real_folders(out_dir, parent_of(path), made);
    struct stat target {};
    if (::lstat(to.c_str(), &target) == 0 && S_ISDIR(target.st_mode)) fs::remove_all(to);
    if (::rename(from.c_str(), to.c_str()) != 0) fail_on("replace", to);
  }
  if (progress) progress->clear();
  if (::unlink((staging / kJournal).c_str()) != 0) fail_on("remove", staging / kJournal);
  remove_tree(staging);
}

namespace {

// What one folder of the output holds that the new tree does not (stale files, and anything that
// is not a regular file or folder where the tree wants one), and the folders it keeps.
struct FolderScan {
  std::vector<std::string> stale, kept;
};

FolderScan scan_folder(int root, const std::string& folder,
                       const std::function<bool(const std::string&)>& wanted_file,
                       const std::set<std::string>& folders) {
  FolderScan scan;
  const int fd = ::openat(root, folder.empty() ? "." : folder.c_str(),
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const std::unique_ptr<DIR, int (*)(DIR*)> listing(fd < 0 ? nullptr : ::fdopendir(fd), ::closedir);
  if (!listing) {
    if (fd >= 0) ::close(fd);
    fail_on("list", folder);
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
                      : type == DT_REG ? wanted_file(path) || path == kOutputMarker
                                       : false;
    if (!keep)
      scan.stale.push_back(std::move(path));
    else if (type == DT_DIR)
      scan.kept.push_back(std::move(path));
  }
  return scan;
}

}  // namespace

std::vector<std::string> find_stale(const fs::path& dir,
                                    const std::function<bool(const std::string&)>& wanted_file,
                                    const std::set<std::string>& folders) {
  const int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root < 0) fail_on("open", dir);
  std::vector<std::string> depth = {""}, stale;
  while (!depth.empty()) {
    std::vector<FolderScan> scans(depth.size());
    parallel_slices(
        depth.size(),
        [&](std::size_t begin, std::size_t end, std::size_t) {
          for (std::size_t i = begin; i < end; ++i)
            scans[i] = scan_folder(root, depth[i], wanted_file, folders);
        },
        16);
    depth.clear();
    for (FolderScan& scan : scans) {
      std::move(scan.stale.begin(), scan.stale.end(), std::back_inserter(stale));
      std::move(scan.kept.begin(), scan.kept.end(), std::back_inserter(depth));
    }
  }
  ::close(root);
  return stale;
}

}  // namespace kbc
