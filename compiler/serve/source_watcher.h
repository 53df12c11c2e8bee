// What `kbc serve` watches: the files a build reads, so it can tell when to build again.
//
// A snapshot stamps each source file (kbc.yaml, every *.yaml under entries/, every file under
// templates/ whose name does not start with '.') with its size, times and inode; two snapshots
// differ when a file was added, removed, written or replaced (short of a rewrite that keeps the
// size within one tick of the kernel's file clock, a few milliseconds). The server takes one every
// few hundred milliseconds. Polling rather than inotify works the same with every editor (those
// that save by renaming a new file over the old one included), on network and container mounts
// where inotify sees nothing, and without a watch per folder to keep up to date; stat-ing a few
// thousand files costs a few milliseconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/file_system.h"

namespace kbc {

// Stamps by path relative to the root, '/'-separated.
using SourceSnapshot = std::map<std::string, FileStamp>;

// The stamps of the sources under `root` now. Files that vanish while it looks are left out.
SourceSnapshot take_snapshot(const std::string& root);

// The paths added, removed or changed from `before` to `after`, sorted.
std::vector<std::string> changed_paths(const SourceSnapshot& before, const SourceSnapshot& after);

// Snapshots of one root, each compared with the one the latest build saw.
class SourceWatcher {
 public:
  explicit SourceWatcher(std::string root);
  // The paths changed since the previous call (or construction), sorted; empty when none. When
  // something changed, it first waits until the sources have stayed the same for `settle`
  // (editors write in several steps), for at most 30 of those.
  std::vector<std::string> changes(std::chrono::milliseconds settle);

 private:
  std::string root_;
  SourceSnapshot seen_;
};

}  // namespace kbc
