#include "base/output_tree.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

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
    if (segment.empty() || segment == "." || segment == ".." || segment.find('\0') != segment.npos) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw ToolError("cannot write " + path.string());
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
  fs::remove_all(staging, error);
}

}  // namespace

void OutputTree::add(std::string_view path, std::string content) {
  if (!is_safe_relative(path)) {
    throw ToolError("refusing to write outside the output folder: '" + std::string(path) + "'");
  }
  files_[std::string(path)] = std::move(content);
}

void commit_output(const OutputTree& tree, const std::string& out_dir_name) {
  const fs::path out_dir = fs::absolute(out_dir_name).lexically_normal();
  check_replaceable(out_dir);
  const fs::path staging = staging_path(out_dir);
  try {
    fs::create_directories(staging);
    write_file(staging / kOutputMarker, "");
    for (const auto& [path, content] : tree.files()) write_file(staging / path, content);
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
