// The output of a build: a complete tree of files held in memory, then committed in one step.
//
// Committing writes the tree into a hidden sibling of the output folder and swaps the two with
// one atomic rename, so readers see either the previous output or the new one, never a mix; a
// build that fails or is interrupted leaves the previous output exactly as it was.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/progress.h"

namespace kbc {

class OutputTree {
 public:
  // Adds a file; throws ToolError for a path that is absolute, empty or climbs out with "..".
  void add(std::string_view path, std::string content);
  // Adds a file with the content of `source`, already added. Committing writes it as a hard link
  // to `source` where the file system allows: the same bytes for a fraction of the cost.
  void add_copy(std::string_view path, const std::string& source);
  const std::map<std::string, std::string>& files() const { return files_; }
  // Copies, by path, with their source.
  const std::map<std::string, std::string>& copies() const { return copies_; }

 private:
  std::map<std::string, std::string> files_;
  std::map<std::string, std::string> copies_;
};

// The marker file that tells a folder was written by kbc, so a later build may replace it.
inline constexpr std::string_view kOutputMarker = ".kbc-output";

// Replaces `out_dir` with the tree. Refuses (ToolError) to replace a non-empty folder that kbc
// did not write.
void commit_output(const OutputTree& tree, const std::string& out_dir,
                   Progress* progress = nullptr);

}  // namespace kbc
