#include "base/output_stage.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <future>
#include <memory>
#include <memory_resource>
#include <vector>

#include "base/diagnostic.h"
#include "base/digest.h"
#include "base/file_system.h"
#include "base/output_files.h"
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
// A file of this size or more is written and digested at once (OutputStage::put_pieces).
constexpr std::uint64_t kLargeFile = std::uint64_t{4} << 20;

// Calls `line` with each line of the file at `path` (not a link), without its newline, reading
// a piece at a time, until it returns false. False when the file cannot be read.
template <typename Line>
bool read_lines(const fs::path& path, Line line) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  std::string text;
  std::vector<char> buffer(kManifestPiece);
  bool more = true, read = true;
  while (more) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) read = false;
    if (n <= 0) break;
    text.append(buffer.data(), n);
    std::size_t start = 0;
    for (std::size_t end; more && (end = text.find('\n', start)) != std::string::npos;
         start = end + 1)
      more = line(std::string_view(text).substr(start, end - start));
    text.erase(0, start);
  }
  if (more && read && !text.empty()) line(std::string_view(text));
  ::close(fd);
  return read;
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
  if (!fs::is_directory(out_dir, error))
    throw ToolError("output path " + out_dir.string() + " exists and is not a folder");
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
  while (::flock(lock_, LOCK_EX) != 0)
    if (errno != EINTR) fail_on("lock", lock);
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
  bool first = true;
  std::size_t lines = 0;
  read_lines(out_dir_ / kOutputMarker, [&](std::string_view line) {
    if (!std::exchange(first, false)) return ++lines, true;
    // None, or an older kbc's empty marker.
    if (!line.starts_with(kManifestHeader) && !line.starts_with(kManifestHeaderV1)) return false;
    built_from_ = line.substr(std::min(line.size(), kManifestHeader.size() + 1));
    known_ = true;
    return true;
  });
  held_ = known_ ? lines : 0;
}

void OutputStage::index_manifest() {
  std::call_once(indexed_, [this] {
    if (!known_) return;
    old_.reserve(held_);
    old_paths_ = std::make_unique<std::pmr::monotonic_buffer_resource>(1 << 20);
    bool header = true, damaged = false;
    std::string_view last;  // the path of the line before
    old_sorted_ = true;     // version 1's lines are version 2's without a key: merged the same
    // Read again, a piece at a time: the text is 89 MB at 100,000 entries.
    const bool read = read_lines(out_dir_ / kOutputMarker, [&](std::string_view line) {
      if (std::exchange(header, false)) return true;
      const std::size_t first = line.find('\t'), second = line.find('\t', first + 1);
      if (second == std::string_view::npos || !is_hex_digest(line.substr(0, first)))
        return damaged = true, false;
      const std::size_t third = line.find('\t', second + 1);
      const std::string_view read_path = line.substr(second + 1, third - second - 1);
      if (read_path <= last) old_sorted_ = false;
      char* const path = static_cast<char*>(old_paths_->allocate(read_path.size(), 1));
      std::memcpy(path, read_path.data(), read_path.size());
      last = std::string_view(path, read_path.size());
      File& file = old_.emplace_back(OldFile{last, {}}).file;
      file.digest = hash_of_hex(line.substr(0, first));
      std::from_chars(line.data() + first + 1, line.data() + second, file.size);
      file.keyed = third != std::string_view::npos;
      if (file.keyed) file.key = key_hash(line.substr(third + 1));
      // A key kbc did not write (not 32 hex digits) reads back as another's: not merged.
      if (file.keyed && !is_hex_digest(line.substr(third + 1))) old_sorted_ = false;
      return true;
    });
    if (damaged || !read) distrust_manifest();  // trusted no more than a missing one
    if (!known_) old_sorted_ = false;
    if (!old_sorted_) {  // by path, the last line of a path kept (as a map assigned in turn)
      std::stable_sort(old_.begin(), old_.end(),
                       [](const OldFile& a, const OldFile& b) { return a.path < b.path; });
      const auto last_of_each = std::unique(old_.rbegin(), old_.rend(),
                                            [](auto& a, auto& b) { return a.path == b.path; });
      old_.erase(old_.begin(), last_of_each.base());
    }
  });
}

namespace {

// A file's line of the manifest: digest, size, path and, when known, what it was made from.
template <typename File>
void append_manifest_line(std::string& text, std::string_view path, const File& file) {
  text.append(hex_of(file.digest)).append("\t");
  text.append(std::to_string(file.size)).append("\t").append(path);
  if (file.keyed) text.append("\t").append(hex_of(file.key));
  text += '\n';
}

// The path of a manifest line (its third field).
std::string_view manifest_line_path(std::string_view line) {
  const std::size_t second = line.find('\t', line.find('\t') + 1) + 1;
  return line.substr(second, line.find('\t', second) - second);
}

}  // namespace

void OutputStage::write_manifest(const std::function<void(std::string_view)>& out,
                                 const std::vector<std::string>& removed) const {
  std::string text(kManifestHeader);
  if (!inputs_.empty()) text.append(" ").append(inputs_);
  text += '\n';
  const auto flush = [&](bool always) {
    if (always || text.size() >= kManifestPiece) {
      out(text);
      text.clear();
    }
  };
  if (known_ && old_sorted_) {  // the old manifest's lines, with the changes merged in
    std::vector<const std::pair<const std::string, File>*> changes;
    for (const auto& file : new_) {
      const File* old = old_file(file.first);
      if (!same(old, file.second) || old->keyed != file.second.keyed ||
          (old->keyed && old->key != file.second.key))
        changes.push_back(&file);
    }
    std::sort(changes.begin(), changes.end(), [](auto* a, auto* b) { return a->first < b->first; });
    auto change = changes.begin();
    auto gone = removed.begin();
    std::size_t lines = 0;
    bool header = true;
    const bool read = read_lines(out_dir_ / kOutputMarker, [&](std::string_view line) {
      if (std::exchange(header, false)) return true;
      const std::string_view path = manifest_line_path(line);
      for (; change != changes.end() && (*change)->first < path; ++change, ++lines) {
        append_manifest_line(text, (*change)->first, (*change)->second);
        flush(false);
      }
      while (gone != removed.end() && *gone < path) ++gone;
      if (change != changes.end() && (*change)->first == path) return true;  // changed
      if (gone != removed.end() && *gone == path) return true;               // removed
      text.append(line) += '\n';
      ++lines;
      flush(false);
      return true;
    });
    for (; change != changes.end(); ++change, ++lines)
      append_manifest_line(text, (*change)->first, (*change)->second);
    // The lock is held and the manifest was indexed whole: it cannot differ now.
    if (!read || lines != new_count())
      throw ToolError("the output's manifest " + (out_dir_ / kOutputMarker).string() +
                      " changed during the build");
    flush(true);
    return;
  }
  std::vector<std::pair<std::string_view, const File*>> files = new_files();
  parallel_sort(files, [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [path, file] : files) {
    append_manifest_line(text, path, *file);
    flush(false);
  }
  flush(true);
}

fs::path OutputStage::staged_path(const std::string& path) {
  // The staging folder is kbc's own, made fresh: its folders are made without a check for links,
  // and outside the lock (two threads may make the same one: EEXIST is success).
  std::call_once(staging_once_, [this] {
    if (::mkdir(staging_.c_str(), 0755) != 0 && errno != EEXIST)
      fail_on("make the folder", staging_);
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
    if (::mkdir(made.c_str(), 0755) != 0 && errno != EEXIST) fail_on("make the folder", made);
  }
  const std::lock_guard lock(mutex_);
  for (std::string& folder : missing) staged_folders_.insert(std::move(folder));
  return staging_ / path;
}

OutputStage::File OutputStage::made(const Hash& digest, std::uint64_t size, std::string_view key) {
  return {digest, size, false, !key.empty(), key.empty() ? Hash{} : key_hash(key)};
}

void OutputStage::put(const std::string& path, std::string_view content, std::string_view key) {
  put_pieces(path, std::span<const std::string_view>(&content, 1), key);
}

void OutputStage::put_pieces(const std::string& path, std::span<const std::string_view> pieces,
                             std::string_view key) {
  index_manifest();
  std::uint64_t size = 0;
  for (const std::string_view piece : pieces) size += piece.size();
  // A large file (kb.json: 318 MB at 100,000 entries) is written while its digest is taken, on
  // two cores rather than one after the other, and removed if its bytes are the output's.
  const bool large = !verify_ && size >= kLargeFile;
  // One made from `key`, whose file reuse() puts again unread: the key names the bytes, so it
  // stands for their digest, and they are not digested (kb.json after one edit at 100,000
  // entries: 318 MB, 0.21 s of a core).
  const bool keyed = large && !key.empty();
  const auto digest_of_pieces = [pieces] {
    return hash_of_hex(std::string_view(Digest().add(pieces).hex()).substr(0, 32));
  };
  Hash digest{};
  bool written = false;
  if (keyed) {
    digest = key_hash(key);
  } else if (large) {
    std::future<Hash> taken = std::async(std::launch::async, digest_of_pieces);
    write_file(staged_path(path), pieces);
    written = true;
    digest = taken.get();
  } else {
    digest = digest_of_pieces();
  }
  File file = made(digest, size, key);
  file.changed = verify_ ? !holds(out_dir_ / path, pieces) : !same(old_file(path), file);
  if (file.changed && !written) write_file(staged_path(path), pieces);
  if (!file.changed && written) ::unlink(staged_path(path).c_str());
  hold(path, file);
}

bool OutputStage::reuse(const std::string& path, std::string_view key) {
  index_manifest();
  if (verify_ || !known_ || key.empty()) return false;
  OldFile* const old = find_old(path);  // see old_file
  if (!old || !old->file.keyed || old->file.key != key_hash(key)) return false;
  const std::lock_guard lock(mutex_);
  old->file.reused = true;
  return true;
}

bool OutputStage::drops_files() {
  index_manifest();
  const std::lock_guard lock(mutex_);
  return std::ranges::any_of(old_, [this](const auto& file) { return dropped(file); });
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
  const File* old = old_file(path);
  file.changed = verify_ ? !holds(out_dir_ / path, {&content, 1}) : !same(old, file);
  if (file.changed) {  // linked to its source where that is staged too, else written
    // Linked first, and only when that fails is a staged file of this path (put twice in a
    // build) removed: in a cold build there is none, and the unlinks that failed were 6,800
    // system calls at 2,500 entries. Never written over: it may be linked to another path.
    const fs::path target = staged_path(path);
    const fs::path staged_source = staging_ / source;
    const auto linked = [&] {
      return source_staged && ::link(staged_source.c_str(), target.c_str()) == 0;
    };
    if (!linked()) {
      ::unlink(target.c_str());
      if (!linked()) write_file(target, content);
    }
  }
  hold(path, file);
}

namespace {

// The file at `path` of `files`, sorted by path; nullptr when none.
template <typename Files>
auto* find_path(Files& files, std::string_view path) {
  const auto at =
      std::lower_bound(files.begin(), files.end(), path,
                       [](const auto& file, std::string_view p) { return file.path < p; });
  return at != files.end() && at->path == path ? &*at : nullptr;
}

}  // namespace

OutputStage::OldFile* OutputStage::find_old(std::string_view path) { return find_path(old_, path); }

const OutputStage::File* OutputStage::old_file(std::string_view path) const {
  if (!known_) return nullptr;
  // old_ is not written once the stage is open, but for its reused marks, under mutex_.
  const OldFile* old = find_path(old_, path);
  return old ? &old->file : nullptr;
}

void OutputStage::hold(const std::string& path, const File& file) {
  const std::lock_guard lock(mutex_);
  new_.insert_or_assign(path, file);
}

bool OutputStage::holds_path(const std::string& path) const {
  if (new_.contains(path)) return true;
  const File* old = old_file(path);
  return old && old->reused;
}

std::vector<std::pair<std::string_view, const OutputStage::File*>> OutputStage::new_files() const {
  std::vector<std::pair<std::string_view, const File*>> files;
  files.reserve(new_.size());
  for (const auto& [path, file] : new_) files.emplace_back(path, &file);
  for (const OldFile& old : old_)
    if (reused_only(old)) files.emplace_back(old.path, &old.file);
  return files;
}

std::size_t OutputStage::new_count() const {
  return new_.size() + static_cast<std::size_t>(std::ranges::count_if(
                           old_, [this](const auto& file) { return reused_only(file); }));
}

std::optional<ScratchFile> OutputStage::scratch_file() const {
  const fs::path beside = out_dir_.parent_path();  // made by the constructor
  return ScratchFile::in(beside.empty() ? "." : beside.string());
}

std::optional<ScratchFile> OutputStage::staged_file(const std::string& path) const {
  const std::lock_guard lock(mutex_);
  const auto file = new_.find(path);
  if (file == new_.end() || !file->second.changed) return std::nullopt;
  return ScratchFile::reading((staging_ / path).string());
}

std::optional<ScratchFile> OutputStage::put_file(const std::string& path) const {
  const std::lock_guard lock(mutex_);
  const auto file = new_.find(path);
  if (file == new_.end()) return std::nullopt;
  if (file->second.changed) return ScratchFile::reading((staging_ / path).string());
  std::optional<ScratchFile> kept = ScratchFile::reading((out_dir_ / path).string());
  if (!kept || kept->size() != file->second.size) return std::nullopt;
  return kept;
}

bool OutputStage::has(const std::string& path) const {
  const std::lock_guard lock(mutex_);
  return holds_path(path);
}

std::size_t OutputStage::size() const {
  const std::lock_guard lock(mutex_);
  return new_count();
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
    for (const OldFile& old : old_) {
      if (dropped(old)) journal.remove.emplace_back(old.path);
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
    write_manifest([&](std::string_view piece) { text.append(piece); }, journal.remove);
    if (read_file(out_dir_ / kOutputMarker) == text) return summary;
  }
  staging_made_ = true;
  fs::create_directories(staging_);
  // Written a piece at a time: whole, the text of 730,000 files is 89 MB more at the peak.
  const fs::path manifest = staging_ / kOutputMarker;
  const int fd = open_for_writing(manifest);
  write_manifest([&](std::string_view piece) { write_all(fd, piece, manifest); }, journal.remove);
  if (::close(fd) != 0) fail_on("write", manifest);
  journal.move.push_back(std::string(kOutputMarker));  // last: the output is complete
  if (!fs::exists(out_dir_, error) || fs::is_empty(out_dir_, error)) {
    fs::remove(out_dir_, error);
    if (::rename(staging_.c_str(), out_dir_.c_str()) != 0) fail_on("write", out_dir_);
    return summary;
  }
  write_file(staging_ / ".kbc-journal.tmp", journal_text(journal));
  if (::rename((staging_ / ".kbc-journal.tmp").c_str(), (staging_ / kJournal).c_str()) != 0)
    fail_on("write", staging_ / kJournal);
  apply_journal(out_dir_, staging_, progress);
  return summary;
}

}  // namespace kbc
