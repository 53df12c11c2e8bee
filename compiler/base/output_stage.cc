#include "base/output_stage.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <iterator>
#include <memory>
#include <sstream>
#include <vector>

#include "base/diagnostic.h"
#include "base/digest.h"
#include "base/file_system.h"
#include "base/parallel.h"

namespace kbc {
namespace fs = std::filesystem;
namespace {

// The manifest's first line: this, then the digest of what the output was built from, if any.
// Each line after it: digest, size, path and, in version 2, what the file was made from, if
// known; tab-separated. Version 1's lines are read as version 2's without the last field.
constexpr std::string_view kManifestHeader = "kbc-output 2";
constexpr std::string_view kManifestHeaderV1 = "kbc-output 1";
// The manifest is written in pieces of about this many bytes.
constexpr std::size_t kManifestPiece = std::size_t{1} << 20;
constexpr std::string_view kJournal = ".kbc-journal";

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw ToolError("cannot " + what + " " + path.string() + ": " + std::strerror(errno));
}

// Writes `content` to `path`, creating or truncating it; never follows a symbolic link.
int open_for_writing(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) fail("write", path);
  return fd;
}

// Writes `content` to `fd`, opened by open_for_writing(path); closes it on a failure.
void write_all(int fd, std::string_view content, const fs::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      fail("write", path);
    }
    written += static_cast<std::size_t>(n);
  }
}

void write_file(const fs::path& path, std::string_view content) {
  const int fd = open_for_writing(path);
  write_all(fd, content, path);
  if (::close(fd) != 0) fail("write", path);
}

// The file's bytes, "" when it cannot be read (or is a link).
std::string read_file(const fs::path& path) {
  return read_whole_file_not_link(path.string()).value_or("");
}

// True when `path` is a regular file (not a link to one) holding exactly `content`.
bool holds(const fs::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  struct stat st {};
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

// The output folder `name` names, absolute: without a trailing slash (its staging folder is its
// sibling, not its child), and where it is a symbolic link (a deploy folder), the folder it
// points to, which is the one written.
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

// The previous output may only be written over when kbc wrote it (or it is empty).
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

// ".<name><suffix>" beside the output folder (built with append: GCC 12 warns wrongly about
// "." + a temporary string).
std::string hidden_name(const fs::path& out_dir, std::string_view suffix) {
  std::string name(".");
  name.append(out_dir.filename().string()).append(suffix);
  return name;
}

fs::path sibling(const fs::path& out_dir, std::string_view suffix) {
  return out_dir.parent_path() / hidden_name(out_dir, suffix);
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

// Removes what earlier versions of kbc kept beside the output: the spare tree, and staging
// folders of killed builds (`.<name>.tmp-<pid>-<n>`; the lock is held, so none is in use).
void remove_older_leftovers(const fs::path& out_dir) {
  const std::string prefix = hidden_name(out_dir, ".tmp-");
  std::error_code error;
  const fs::path spare = sibling(out_dir, ".kbc-spare");
  if (fs::is_regular_file(spare / kOutputMarker, error) && !fs::is_symlink(spare, error))
    remove_tree(spare);
  for (const auto& item : fs::directory_iterator(out_dir.parent_path(), error)) {
    const std::string name = item.path().filename().string();
    if (name.starts_with(prefix) && !item.is_symlink(error) && item.is_directory(error) &&
        fs::exists(item.path() / kOutputMarker, error))
      remove_tree(item.path());
  }
}

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
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) fail("make the folder", path);
    made.insert(folder);
  }
}

std::string parent_of(const std::string& path);

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

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Removes the folders above `path` that are left empty, up to the output folder.
void remove_empty_parents(const fs::path& root, std::string path) {
  for (path = parent_of(path); !path.empty(); path = parent_of(path)) {
    if (::rmdir((root / path).c_str()) != 0) return;
  }
}

struct Journal {
  std::vector<std::string> remove, move;
};

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

// Carries out a valid journal: removes, then moves each staged file over its target (a file
// already moved is skipped, so a journal can be carried out again after a kill), the manifest
// last; then drops the journal and the staging folder.
void apply_journal(const fs::path& out_dir, const fs::path& staging, Progress* progress) {
  const Journal journal = parse_journal(read_file(staging / kJournal));
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
    if (::rename(from.c_str(), to.c_str()) != 0) fail("replace", to);
  }
  if (progress) progress->clear();
  if (::unlink((staging / kJournal).c_str()) != 0) fail("remove", staging / kJournal);
  remove_tree(staging);
}

// What one folder of the output holds that the new tree does not (stale files, and anything that
// is not a regular file or folder where the tree wants one), and the folders it keeps.
struct FolderScan {
  std::vector<std::string> stale, kept;
};

template <typename Wanted>
FolderScan scan_folder(int root, const std::string& folder, const Wanted& wanted_file,
                       const std::set<std::string>& folders) {
  FolderScan scan;
  const int fd = ::openat(root, folder.empty() ? "." : folder.c_str(),
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const std::unique_ptr<DIR, int (*)(DIR*)> listing(fd < 0 ? nullptr : ::fdopendir(fd), ::closedir);
  if (!listing) {
    if (fd >= 0) ::close(fd);
    fail("list", folder);
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

// Everything in the output at `dir` that is not a file `wanted_file` accepts or a folder of one,
// listed one depth at a time, the folders of each depth on every core.
template <typename Wanted>
std::vector<std::string> find_stale(const fs::path& dir, const Wanted& wanted_file,
                                    const std::set<std::string>& folders) {
  const int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root < 0) fail("open", dir);
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

bool is_hex_digest(std::string_view text) { return text.size() == 32 && is_hex(text); }

// 32 lowercase hex digits (is_hex_digest) as the 16 bytes they write.
std::array<std::uint8_t, 16> hash_of_hex(std::string_view hex) {
  std::array<std::uint8_t, 16> out{};
  bytes_of_hex(hex, out);
  return out;
}

// What a file was made from, as kept: a key of 32 hex digits (a digest: every key kbc makes) as
// its bytes, any other as its own digest's. The manifest writes the bytes as hex, which reads
// back as the same bytes.
std::array<std::uint8_t, 16> key_hash(std::string_view key) {
  return hash_of_hex(is_hex_digest(key) ? key : std::string_view(digest_of(key)).substr(0, 32));
}

}  // namespace

OutputStage::OutputStage(const std::string& out_dir, bool verify)
    : out_dir_(output_folder(out_dir)), staging_(sibling(out_dir_, ".kbc-stage")), verify_(verify) {
  check_replaceable(out_dir_);
  std::error_code error;
  fs::create_directories(out_dir_.parent_path(), error);  // a failure shows at the lock
  const fs::path lock = sibling(out_dir_, ".kbc-lock");
  lock_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_ < 0) {
    throw ToolError("cannot write the output " + out_dir_.string() + ": cannot open " +
                    lock.string() + ": " + std::strerror(errno) +
                    "; the folder that holds it must be writable");
  }
  while (::flock(lock_, LOCK_EX) != 0) {
    if (errno != EINTR) fail("lock", lock);
  }
  if (fs::is_symlink(staging_, error)) {
    fs::remove(staging_, error);
  } else if (fs::is_regular_file(staging_ / kJournal, error)) {
    fs::create_directories(out_dir_);
    apply_journal(out_dir_, staging_, nullptr);  // a killed build's commit, finished
  } else if (fs::exists(staging_, error)) {
    remove_tree(staging_);  // a killed build's files, never committed
  }
  remove_older_leftovers(out_dir_);
  if (!verify_) read_manifest();
  if (!known_) distrust_manifest();
}

void OutputStage::distrust_manifest() {
  old_.clear();
  known_ = false;
  // An output without a manifest (an older kbc's) is compared byte for byte, strays removed.
  std::error_code error;
  if (fs::exists(out_dir_, error) && !fs::is_empty(out_dir_, error)) verify_ = true;
}

OutputStage::~OutputStage() {
  // Staged files that no valid journal names are dropped; a valid journal is left to the next
  // build (commit failed while carrying it out).
  std::error_code error;
  if (staging_made_ && fs::exists(staging_, error) && !fs::exists(staging_ / kJournal, error))
    remove_tree(staging_);
  if (lock_ >= 0) ::close(lock_);
}

void OutputStage::read_manifest() {
  std::string text = read_file(out_dir_ / kOutputMarker);
  // None, or an older kbc's empty marker.
  if (!text.starts_with(kManifestHeader) && !text.starts_with(kManifestHeaderV1)) return;
  const std::string_view header(text.data(), std::min(text.find('\n'), text.size()));
  built_from_ = header.substr(std::min(header.size(), kManifestHeader.size() + 1));
  held_ = std::max<std::ptrdiff_t>(std::count(text.begin(), text.end(), '\n') - 1, 0);
  known_ = true;
  manifest_ = std::move(text);  // indexed when a file is first put (index_manifest)
}

void OutputStage::index_manifest() {
  std::call_once(indexed_, [this] {
    const std::string text = std::move(manifest_);
    if (!known_) return;
    // Read in place, line by line (a copy of the text is 89 MB at 100,000 entries).
    const std::string_view all(text);
    for (std::size_t end = std::min(all.find('\n'), all.size()), start = end + 1;
         start < all.size(); start = end + 1) {
      end = std::min(all.find('\n', start), all.size());
      const std::string_view line = all.substr(start, end - start);
      const std::size_t first = line.find('\t'), second = line.find('\t', first + 1);
      if (second == std::string_view::npos || !is_hex_digest(line.substr(0, first)))
        return distrust_manifest();  // damaged: trusted no more than a missing one
      const std::size_t third = line.find('\t', second + 1);
      File& file = old_[std::string(line.substr(second + 1, third - second - 1))];
      file.digest = hash_of_hex(line.substr(0, first));
      std::from_chars(line.data() + first + 1, line.data() + second, file.size);
      file.keyed = third != std::string_view::npos;
      if (file.keyed) file.key = key_hash(line.substr(third + 1));
    }
  });
}

void OutputStage::write_manifest(const std::function<void(std::string_view)>& out) const {
  std::vector<const std::pair<const std::string, File>*> files;
  for (const auto& file : new_) files.push_back(&file);
  std::sort(files.begin(), files.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string text(kManifestHeader);
  if (!inputs_.empty()) text.append(" ").append(inputs_);
  text += '\n';
  for (const auto* file : files) {
    text.append(hex_of(file->second.digest)).append("\t");
    text.append(std::to_string(file->second.size)).append("\t").append(file->first);
    if (file->second.keyed) text.append("\t").append(hex_of(file->second.key));
    text += '\n';
    if (text.size() >= kManifestPiece) {
      out(text);
      text.clear();
    }
  }
  out(text);
}

fs::path OutputStage::staged_path(const std::string& path) {
  // The staging folder is kbc's own, made fresh: its folders are made without a check for links,
  // and outside the lock (two threads may make the same one: EEXIST is success).
  std::call_once(staging_once_, [this] {
    if (::mkdir(staging_.c_str(), 0755) != 0 && errno != EEXIST) fail("make the folder", staging_);
    staging_made_ = true;
  });
  std::vector<std::string> missing;  // innermost first
  {
    const std::lock_guard lock(mutex_);
    for (std::string folder = parent_of(path); !folder.empty() && !staged_folders_.count(folder);
         folder = parent_of(folder))
      missing.push_back(folder);
  }
  for (auto folder = missing.rbegin(); folder != missing.rend(); ++folder) {
    const fs::path made = staging_ / *folder;
    if (::mkdir(made.c_str(), 0755) != 0 && errno != EEXIST) fail("make the folder", made);
  }
  const std::lock_guard lock(mutex_);
  for (std::string& folder : missing) staged_folders_.insert(std::move(folder));
  return staging_ / path;
}

OutputStage::File OutputStage::made(const Hash& digest, std::uint64_t size, std::string_view key) {
  return {digest, size, false, !key.empty(), key.empty() ? Hash{} : key_hash(key)};
}

void OutputStage::put(const std::string& path, std::string_view content, std::string_view key) {
  index_manifest();
  File file =
      made(hash_of_hex(std::string_view(digest_of(content)).substr(0, 32)), content.size(), key);
  file.changed = verify_ ? !holds(out_dir_ / path, content) : !unchanged(path, file);
  if (file.changed) write_file(staged_path(path), content);
  const std::lock_guard lock(mutex_);
  new_[path] = file;
}

bool OutputStage::reuse(const std::string& path, std::string_view key) {
  index_manifest();
  if (verify_ || !known_ || key.empty()) return false;
  const auto old = old_.find(path);  // old_ is not written once the stage is open
  if (old == old_.end() || !old->second.keyed || old->second.key != key_hash(key)) return false;
  File file = old->second;
  file.changed = false;
  const std::lock_guard lock(mutex_);
  new_[path] = file;
  return true;
}

bool OutputStage::drops_files() {
  index_manifest();
  const std::lock_guard lock(mutex_);
  return std::any_of(old_.begin(), old_.end(),
                     [this](const auto& file) { return !new_.count(file.first); });
}

void OutputStage::put_copy(const std::string& path, const std::string& source,
                           std::string_view content, std::string_view key) {
  index_manifest();
  File file;
  bool source_staged = false;
  {
    const std::lock_guard lock(mutex_);
    const File& original = new_.at(source);
    file = made(original.digest, original.size, key);
    source_staged = original.changed;
  }
  file.changed = verify_ ? !holds(out_dir_ / path, content) : !unchanged(path, file);
  if (file.changed) {  // linked to its source where that is staged too, else written
    const fs::path target = staged_path(path);
    ::unlink(target.c_str());
    if (!source_staged || ::link((staging_ / source).c_str(), target.c_str()) != 0)
      write_file(target, content);
  }
  const std::lock_guard lock(mutex_);
  new_[path] = file;
}

bool OutputStage::unchanged(const std::string& path, const File& file) const {
  if (!known_) return false;
  const auto old = old_.find(path);  // old_ is not written once the stage is open
  return old != old_.end() && old->second.digest == file.digest && old->second.size == file.size;
}

bool OutputStage::has(const std::string& path) const {
  const std::lock_guard lock(mutex_);
  return new_.count(path) > 0;
}

std::size_t OutputStage::size() const {
  const std::lock_guard lock(mutex_);
  return new_.size();
}

OutputStage::Summary OutputStage::commit(Progress* progress) {
  index_manifest();
  Journal journal;
  for (const auto& [path, file] : new_) {
    if (file.changed) journal.move.push_back(path);
  }
  std::sort(journal.move.begin(), journal.move.end());
  std::error_code error;
  if (verify_ && fs::exists(out_dir_, error)) {
    std::set<std::string> folders;
    for (const auto& [path, file] : new_) {
      for (std::string folder = parent_of(path); !folder.empty(); folder = parent_of(folder))
        if (!folders.insert(folder).second) break;
    }
    journal.remove = find_stale(
        out_dir_, [&](const std::string& path) { return new_.count(path) > 0; }, folders);
  } else {
    for (const auto& [path, file] : old_) {
      if (!new_.count(path)) journal.remove.push_back(path);
    }
  }
  std::sort(journal.remove.begin(), journal.remove.end());
  const Summary summary{journal.move.size(), journal.remove.size()};
  if (summary.written == 0 && summary.removed == 0 && known_ && inputs_ == built_from_)
    return summary;  // the manifest lists exactly these files: nothing to write
  // With a manifest read, one with other inputs differs from it; without, the files may still
  // be those it lists (an output checked byte for byte).
  if (summary.written == 0 && summary.removed == 0 && !known_) {
    std::string text;
    write_manifest([&](std::string_view piece) { text.append(piece); });
    if (read_file(out_dir_ / kOutputMarker) == text) return summary;
  }
  staging_made_ = true;
  fs::create_directories(staging_);
  // Written a piece at a time: whole, the text of 730,000 files is 89 MB more at the peak.
  const fs::path manifest = staging_ / kOutputMarker;
  const int fd = open_for_writing(manifest);
  write_manifest([&](std::string_view piece) { write_all(fd, piece, manifest); });
  if (::close(fd) != 0) fail("write", manifest);
  journal.move.push_back(std::string(kOutputMarker));  // last: the output is complete
  if (!fs::exists(out_dir_, error) || fs::is_empty(out_dir_, error)) {
    fs::remove(out_dir_, error);
    if (::rename(staging_.c_str(), out_dir_.c_str()) != 0) fail("write", out_dir_);
    return summary;
  }
  write_file(staging_ / ".kbc-journal.tmp", journal_text(journal));
  if (::rename((staging_ / ".kbc-journal.tmp").c_str(), (staging_ / kJournal).c_str()) != 0)
    fail("write", staging_ / kJournal);
  apply_journal(out_dir_, staging_, progress);
  return summary;
}

}  // namespace kbc
