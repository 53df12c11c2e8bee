#include "base/file_system.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/diagnostic.h"

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

std::string RealFileSystem::read(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError("cannot read " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw ToolError("cannot read " + path);
  return std::move(buffer).str();
}

std::optional<std::uintmax_t> RealFileSystem::size(const std::string& path) const {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  const std::uintmax_t bytes = fs::file_size(path, error);
  if (error) return std::nullopt;
  return bytes;
}

bool RealFileSystem::is_directory(const std::string& path) const {
  std::error_code error;
  return fs::is_directory(path, error);
}

std::vector<std::string> RealFileSystem::list(const std::string& dir,
                                              std::string_view suffix) const {
  std::vector<std::string> out;
  std::error_code error;
  fs::recursive_directory_iterator it(dir, error), end;
  if (error) throw ToolError("cannot list " + dir + ": " + error.message());
  // The iterator's paths are `dir` joined with the relative path (fs::relative would resolve
  // links and stat every file to say the same).
  const std::size_t prefix = (fs::path(dir) / "").native().size();
  for (; it != end; it.increment(error)) {
    if (error) throw ToolError("cannot list " + dir + ": " + error.message());
    const std::string& path = it->path().native();
    if (!path.ends_with(suffix) || !it->is_regular_file(error)) continue;
    out.push_back(fs::path(path.substr(prefix)).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string MemoryFileSystem::read(const std::string& path) const {
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

}  // namespace kbc
