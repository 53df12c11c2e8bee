#include "serve/source_watcher.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>
#include <thread>

#include "base/file_system.h"
#include "model/evidence.h"

namespace kbc {
namespace {

namespace fs = std::filesystem;

std::optional<FileStamp> stamp(const fs::path& path) {
  return stamp_of(path.string(), /*follow_link=*/true);
}

// The entries are the *.yaml files the build lists (RealFileSystem::list), with the recipe files
// they may name (.py, .sh); templates are looked up by name, so every file there counts except
// editors' hidden swap and lock files.
bool is_source(std::string_view folder, std::string_view name) {
  if (name.starts_with(".")) return false;
  return folder != "entries" || name.ends_with(".yaml") || name.ends_with(".py") ||
         name.ends_with(".sh");
}

void stamp_folder(const std::string& root, std::string_view folder, SourceSnapshot& out) {
  std::error_code error;
  const fs::path dir = fs::path(root) / folder;
  for (auto it = fs::recursive_directory_iterator(dir, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!is_source(folder, it->path().filename().string())) continue;
    if (const auto found = stamp(it->path())) {
      const std::string relative = it->path().lexically_relative(dir).generic_string();
      out[join_path(folder, relative)] = *found;
    }
  }
}

}  // namespace

SourceSnapshot take_snapshot(const std::string& root) {
  SourceSnapshot snapshot;
  if (const auto config = stamp(fs::path(root) / "kbc.yaml")) snapshot["kbc.yaml"] = *config;
  if (const auto lock = stamp(fs::path(root) / kEvidenceFile)) snapshot[kEvidenceFile] = *lock;
  stamp_folder(root, "entries", snapshot);
  stamp_folder(root, "templates", snapshot);
  return snapshot;
}

std::vector<std::string> changed_paths(const SourceSnapshot& before, const SourceSnapshot& after) {
  std::vector<std::string> changed;
  for (const auto& [path, stamp] : before) {
    const auto it = after.find(path);
    if (it == after.end() || !(it->second == stamp)) changed.push_back(path);
  }
  for (const auto& [path, stamp] : after) {
    if (!before.count(path)) changed.push_back(path);
  }
  std::sort(changed.begin(), changed.end());
  return changed;
}

SourceWatcher::SourceWatcher(std::string root)
    : root_(std::move(root)), seen_(take_snapshot(root_)) {}

std::vector<std::string> SourceWatcher::changes(std::chrono::milliseconds settle) {
  SourceSnapshot now = take_snapshot(root_);
  if (now == seen_) return {};
  for (int round = 0; round < 30; ++round) {
    std::this_thread::sleep_for(settle);
    SourceSnapshot later = take_snapshot(root_);
    if (later == now) break;
    now = std::move(later);
  }
  std::vector<std::string> changed = changed_paths(seen_, now);
  seen_ = std::move(now);  // what the next build reads, or older: a later change is seen next
  return changed;
}

}  // namespace kbc
