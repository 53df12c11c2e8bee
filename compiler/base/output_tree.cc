#include "base/output_tree.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
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

void write_file(const fs::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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

// Writes every file of the tree under `dir`: folders first, then the files on every core, then
// the copies as hard links to their sources (written out where linking fails).
void write_tree(const OutputTree& tree, const fs::path& dir) {
  std::set<fs::path> folders;
  for (const auto& [path, content] : tree.files()) folders.insert((dir / path).parent_path());
  for (const fs::path& folder : folders) fs::create_directories(folder);
  std::vector<const std::pair<const std::string, std::string>*> files, copies;
  for (const auto& file : tree.files()) {
    if (!tree.copies().count(file.first)) files.push_back(&file);
  }
  for (const auto& copy : tree.copies()) copies.push_back(&copy);
  write_all(files, [&](const auto* file) { write_file(dir / file->first, file->second); });
  write_all(copies, [&](const auto* copy) {
    const fs::path target = dir / copy->first;
    if (::link((dir / copy->second).c_str(), target.c_str()) != 0)
      write_file(target, tree.files().at(copy->first));
  });
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

void swap_in(const fs::path& staging, const fs::path& out_dir) {
  std::error_code error;
  if (!fs::exists(out_dir, error)) {
    fs::rename(staging, out_dir);
    return;
  }
  // One atomic exchange: the old tree ends up under the staging name and is removed after.
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, out_dir.c_str(), RENAME_EXCHANGE) != 0) {
    throw ToolError("cannot replace " + out_dir.string() + ": " + std::strerror(errno));
  }
  remove_tree(staging);
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

void commit_output(const OutputTree& tree, const std::string& out_dir_name) {
  const fs::path out_dir = fs::absolute(out_dir_name).lexically_normal();
  check_replaceable(out_dir);
  const fs::path staging = staging_path(out_dir);
  try {
    fs::create_directories(staging);
    write_file(staging / kOutputMarker, "");
    write_tree(tree, staging);
    swap_in(staging, out_dir);
  } catch (const fs::filesystem_error& e) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    throw ToolError(std::string("cannot write output: ") + e.what());
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    throw;
  }
}

}  // namespace kbc
