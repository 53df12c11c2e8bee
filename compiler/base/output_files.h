// What OutputStage does to the folders on disk, none of it through a symbolic link: the journal
// a commit writes and carries out (again, after a kill), the search for what an output holds
// that a build does not want, and the removal of whole trees.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/progress.h"

namespace kbc {

// The journal's name in the staging folder: present, it is valid and the commit must be finished.
inline constexpr std::string_view kJournal = ".kbc-journal";

// Throws a ToolError "cannot <what> <path>: <errno's text>".
[[noreturn]] void fail_on(const std::string& what, const std::filesystem::path& path);

// The file at `path` (never through a symbolic link) created or truncated, for writing; throws
// on a failure.
int open_for_writing(const std::filesystem::path& path);
// Writes `content` to `fd`, opened by open_for_writing(path); closes it and throws on a failure.
void write_all(int fd, std::string_view content, const std::filesystem::path& path);
// Writes the file at `path` (open_for_writing) with `pieces` one after the other, or `content`.
void write_file(const std::filesystem::path& path, std::span<const std::string_view> pieces);
void write_file(const std::filesystem::path& path, std::string_view content);
// The file's bytes, "" when it cannot be read (or is a link).
std::string read_file(const std::filesystem::path& path);
// True when `path` is a regular file (not a link to one) holding exactly the bytes of `pieces`,
// one after the other, compared a piece at a time.
bool holds(const std::filesystem::path& path, std::span<const std::string_view> pieces);

// Removes a whole tree, its top-level parts on every core; never follows a link.
void remove_tree(const std::filesystem::path& dir);

// The folder part of a relative path ("" at the top).
std::string parent_of(const std::string& path);

// The files a commit removes from the output and moves into it from the staging folder.
struct Journal {
  std::vector<std::string> remove, move;
};
std::string journal_text(const Journal& journal);
Journal parse_journal(const std::string& text);

// Carries out the valid journal of `staging`: removes, then moves each staged file over its
// target in `out_dir` (a file already moved is skipped, so a journal can be carried out again
// after a kill), the manifest last; then drops the journal and the staging folder.
void apply_journal(const std::filesystem::path& out_dir, const std::filesystem::path& staging,
                   Progress* progress);

// Everything in the output at `dir` that is not a file `wanted_file` accepts (or the manifest)
// or one of `folders`: stale files, and anything that is not a regular file or folder where one
// is wanted; listed one depth at a time, the folders of each depth on every core.
std::vector<std::string> find_stale(const std::filesystem::path& dir,
                                    const std::function<bool(const std::string&)>& wanted_file,
                                    const std::set<std::string>& folders);

}  // namespace kbc
