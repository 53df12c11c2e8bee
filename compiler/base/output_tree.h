// The output of a build: every file it writes, by path. A tree either holds the files' bytes in
// memory (tests, `kbc serve`) or streams each file to an OutputStage as it is added (`kbc
// build`), which writes only what changed and keeps none of the bytes: the output of a large
// knowledge base is many times the memory it needs to build it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/output_stage.h"

namespace kbc {

class OutputTree {
 public:
  // A tree in memory.
  OutputTree();
  // A tree whose files go to `stage`, which must outlive it.
  explicit OutputTree(OutputStage& stage);
  OutputTree(OutputTree&& other) noexcept;
  OutputTree& operator=(OutputTree&& other) noexcept;
  ~OutputTree();

  // Adds a file; from any thread. Throws ToolError for a path that is absolute, empty, climbs
  // out with "..", or holds a control character.
  void add(std::string_view path, std::string content);
  // The same, for a streamed tree recording `key`, a digest of what the file was made from.
  void add(std::string_view path, std::string content, std::string_view key);
  // Adds a file whose bytes are `pieces`, one after the other: a streamed tree never holds them
  // whole. For a file that is not a page (kb.json): the observer is not called. `key`, when not
  // empty, is what the bytes are made from, as for add (OutputStage::put_pieces).
  void add_pieces(std::string_view path, const std::vector<std::string_view>& pieces,
                  std::string_view key = {});
  // Puts the output's file at `path` again, unread, when the last build made it from `key`: a
  // streamed tree only (else false), the observer not called. See OutputStage::reuse.
  bool reuse(std::string_view path, const std::string& key);
  // Whether the tree streams to an output that holds files it does not (yet): see
  // OutputStage::drops_files.
  bool drops_files() const { return stage_ && stage_->drops_files(); }
  // Adds a file at `path` and a copy of it at `copy`, written as a hard link where the file
  // system allows: the same bytes for a fraction of the cost.
  void add_with_copy(std::string_view path, std::string_view copy, std::string content,
                     std::string_view key = {});
  // reuse for a file and its copy, both or neither.
  bool reuse_with_copy(std::string_view path, std::string_view copy, const std::string& key);
  // Called with every file added, in the thread that adds it, before a streamed tree lets go of
  // its bytes (the site's link check reads each page so).
  using Observer = std::function<void(const std::string& path, std::string_view content)>;
  void observe(Observer observer) { observer_ = std::move(observer); }

  bool contains(const std::string& path) const;
  std::size_t size() const;
  // The files and their bytes; a tree in memory only (ToolError otherwise).
  const std::map<std::string, std::string>& files() const;

 private:
  std::string checked_path(std::string_view path) const;
  void keep(std::string path, std::string content);

  OutputStage* stage_ = nullptr;
  Observer observer_;
  std::unique_ptr<std::mutex> mutex_;
  std::map<std::string, std::string> files_;
};

}  // namespace kbc
