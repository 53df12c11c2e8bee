// An output folder being brought up to date by a build, file by file, so that a build writes only
// the files whose bytes change and removes only the files that disappeared, and an unchanged
// build writes nothing at all.
//
// The folder's manifest (`.kbc-output`: the digest, size and path of every file kbc wrote there)
// tells which files differ without reading them. A build streams each file to `put` as soon as it
// is rendered; a file whose digest differs from the manifest's is written into the staging folder
// (`.<name>.kbc-stage`, beside the output, on the same file system), and its bytes are not kept.
// Nothing in the output changes until `commit`, so a build that fails leaves it as it was.
//
// `commit` writes a journal into the staging folder (the files to move in and the files to
// remove) and makes it valid with one rename; then it removes the files that disappeared, renames
// each staged file over its target, and writes the new manifest last. A build killed after the
// journal was made valid leaves it behind, and the next build (OutputStage's constructor) carries
// it out before anything else; one killed before leaves a staging folder without a journal, which
// the next build removes. So a killed build's output is finished or rolled back by the next one,
// and every file in it is always whole: files are only ever replaced by rename. While a commit
// runs, a reader may see some files new and others old; the first build into a folder that does
// not exist yet renames the whole staging folder into place at once.
//
// The manifest is trusted, as make trusts timestamps: a file changed by hand in the output is not
// noticed. It also records a digest of what the output was built from, so that a build whose
// inputs are the same can skip rendering altogether, as ninja skips a target whose inputs are
// unchanged. With `verify`, the manifest is not read: each file is compared with the output's
// bytes, and anything in the output that kbc would not write (stray files, links) is removed.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/file_system.h"
#include "base/progress.h"

namespace kbc {

// The marker that tells a folder was written by kbc, so a later build may replace it; it holds
// the folder's manifest.
inline constexpr std::string_view kOutputMarker = ".kbc-output";

class OutputStage {
 public:
  // Opens `out_dir` for a build: refuses (ToolError) a non-empty folder kbc did not write, waits
  // while another build writes it, and finishes or rolls back what a killed build left.
  OutputStage(const std::string& out_dir, bool verify);
  // Removes the staging folder unless it holds a valid journal.
  ~OutputStage();
  OutputStage(const OutputStage&) = delete;
  OutputStage& operator=(const OutputStage&) = delete;

  // A file of the new output; from any thread. Its bytes are written to the staging folder only
  // when the output does not hold them already. `key`, when not empty, is a digest of what the
  // file was made from, recorded in the manifest for `reuse`.
  void put(const std::string& path, std::string_view content, std::string_view key = {});
  // The same for a file whose bytes are `pieces`, one after the other, never held whole. A large
  // one (4 MB or more) with a key is not digested: the key, which names its bytes for `reuse`,
  // stands for their digest.
  void put_pieces(const std::string& path, std::span<const std::string_view> pieces,
                  std::string_view key = {});
  // Puts the output's file at `path` again, unread, when the manifest records it as made from
  // `key` (not empty): the file a build would make from the same inputs. False (nothing put)
  // otherwise, and always with verify.
  bool reuse(const std::string& path, std::string_view key);
  // Whether a file of the output is not (yet) in the new one: the commit would remove it.
  bool drops_files();
  // A file with the bytes of `source`, put before: committed as a hard link to it where the file
  // system allows.
  void put_copy(const std::string& path, const std::string& source, std::string_view content,
                std::string_view key = {});
  bool has(const std::string& path) const;
  std::size_t size() const;

  // What the output was built from, as the last commit recorded it (a digest of the build's
  // inputs; "" when unknown or with verify): a build from the same inputs can stop here.
  const std::string& built_from() const { return built_from_; }
  std::size_t files_held() const { return held_; }
  // What this build is built from, recorded in the manifest by commit.
  void set_inputs(std::string digest) { inputs_ = std::move(digest); }

  struct Summary {
    std::size_t written = 0;  // files created or replaced
    std::size_t removed = 0;  // files (or, with verify, other things) removed
  };
  // Makes the output hold exactly the files put; writes nothing when it already does.
  Summary commit(Progress* progress = nullptr);

  const std::filesystem::path& folder() const { return out_dir_; }
  // A scratch file beside the output, on its file system, for what the build reads back; nullopt
  // where none can be made.
  std::optional<ScratchFile> scratch_file() const;
  // The file staged for `path`, put by this build with bytes that changed, to read back until
  // the commit; nullopt when none is (the output holds its bytes already, or it was not put).
  std::optional<ScratchFile> staged_file(const std::string& path) const;
  // The bytes this build put at `path`, to read back until the commit: the staged file when they
  // changed, else the output's own, which the commit keeps; nullopt when it was not put, or the
  // output's file is not of the size the manifest records.
  std::optional<ScratchFile> put_file(const std::string& path) const;

  // Hands over the memory of the manifests (the old and the new: 730,000 files each at 100,000
  // entries, a second to take apart), for a caller that leaves it to the process's exit. The
  // stage holds no files after it; call it after commit, or instead of it.
  std::shared_ptr<void> release_manifests() {
    const std::lock_guard<std::mutex> lock(mutex_);
    struct Manifests {
      decltype(old_) old;
      decltype(old_paths_) old_paths;
      decltype(new_) made;
    };
    return std::make_shared<Manifests>(
        Manifests{std::exchange(old_, {}), std::move(old_paths_), std::exchange(new_, {})});
  }

 private:
  // Half a SHA-256 (32 hex digits) as bytes: a manifest of 730,000 files (100,000 entries) held
  // them as strings, 130 bytes more a file, and a rebuild holds two manifests.
  using Hash = std::array<std::uint8_t, 16>;
  struct File {
    Hash digest{};  // of the bytes
    std::uint64_t size = 0;
    bool changed = false;
    bool keyed = false;   // what it was made from is known:
    Hash key{};           // its 32 hex digits (any other key: its digest's)
    bool reused = false;  // in old_: put again by reuse() (set under mutex_)
  };
  // A file the manifest lists, its path in old_paths_.
  struct OldFile {
    std::string_view path;
    File file;
  };
  // The new output's paths: looked up by view too.
  struct PathHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view path) const {
      return std::hash<std::string_view>()(path);
    }
  };
  // A file of `size` bytes with `digest`, made from `key` (not known when empty).
  static File made(const Hash& digest, std::uint64_t size, std::string_view key);
  // Reads the manifest's first line (built_from) and counts its files; the rest is indexed by
  // index_manifest (read again) when the first file is put (a build from the same inputs never
  // does: the index of 730,000 files at 100,000 entries took two seconds).
  void read_manifest();
  void index_manifest();
  // Forgets the manifest: the output's files are compared byte for byte.
  void distrust_manifest();
  // Whether `old`, the manifest's record of a file (or nullptr), has the bytes of `file`.
  static bool same(const File* old, const File& file) {
    return old && old->digest == file.digest && old->size == file.size;
  }
  // The manifest's record of `path`, or nullptr.
  const File* old_file(std::string_view path) const;
  OldFile* find_old(std::string_view path);
  // Adds `file` to the new output.
  void hold(const std::string& path, const File& file);
  // Whether the new output has `path`: put, or reused from the old. Under mutex_.
  bool holds_path(const std::string& path) const;
  // The new output's files: new_'s, and old_'s reused ones that new_ has not; and how many.
  // Under mutex_.
  std::vector<std::pair<std::string_view, const File*>> new_files() const;
  std::size_t new_count() const;
  // Of a file of old_, under mutex_: whether the new output has it as reused only, and whether
  // it has it not at all (the commit removes it).
  bool reused_only(const OldFile& old) const { return old.file.reused && !new_.contains(old.path); }
  bool dropped(const OldFile& old) const { return !old.file.reused && !new_.contains(old.path); }
  // The manifest's text, handed to `out` in pieces. When the old manifest is sorted (kbc writes
  // it so), its lines are copied with the changed files' merged in and `removed` (sorted) left
  // out: at 100,000 entries, sorting and formatting the lines of 730,000 files was most of the
  // commit after an edit.
  void write_manifest(const std::function<void(std::string_view)>& out,
                      const std::vector<std::string>& removed) const;
  // Where `path` is staged, its folders made.
  std::filesystem::path staged_path(const std::string& path);

  std::filesystem::path out_dir_, staging_;
  bool verify_;
  bool known_ = false;  // the manifest was read
  // Its paths are in byte order, each once (what index_manifest read): write_manifest merges.
  bool old_sorted_ = false;
  bool staging_made_ = false;
  std::once_flag staging_once_;
  int lock_ = -1;
  std::once_flag indexed_;
  std::size_t held_ = 0;  // the files it lists
  // The manifest of the output as it is, sorted by path, each path once. A file reused is
  // marked here, not copied into new_: at 100,000 entries, copying 730,000 paths into a second
  // table was a tenth of a build's CPU after an edit. A sorted list whose paths lie in blocks
  // (old_paths_), not a hash table of strings: indexing the manifest put a node and a string on
  // the heap for each file, on one core while the others waited (a tenth of a build's CPU after
  // an edit at 25,000 entries).
  std::vector<OldFile> old_;
  std::unique_ptr<std::pmr::monotonic_buffer_resource> old_paths_;
  std::string built_from_, inputs_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, File, PathHash, std::equal_to<>> new_;  // the files put
  std::set<std::string> staged_folders_;
};

}  // namespace kbc
