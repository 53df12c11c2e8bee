#include "base/output_tree.h"

#include "base/diagnostic.h"

namespace kbc {
namespace {

bool is_safe_relative(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/') return false;
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

OutputTree::OutputTree() : mutex_(std::make_unique<std::mutex>()) {}
OutputTree::OutputTree(OutputStage& stage)
    : stage_(&stage), mutex_(std::make_unique<std::mutex>()) {}
OutputTree::OutputTree(OutputTree&& other) noexcept = default;
OutputTree& OutputTree::operator=(OutputTree&& other) noexcept = default;
OutputTree::~OutputTree() = default;

std::string OutputTree::checked_path(std::string_view path) const {
  if (!is_safe_relative(path)) {
    throw ToolError("refusing to write outside the output folder: '" + std::string(path) + "'");
  }
  return std::string(path);
}

void OutputTree::keep(std::string path, std::string content) {
  const std::lock_guard lock(*mutex_);
  files_[std::move(path)] = std::move(content);
}

void OutputTree::add(std::string_view path, std::string content) {
  add(path, std::move(content), {});
}

void OutputTree::add(std::string_view path, std::string content, std::string_view key) {
  std::string checked = checked_path(path);
  if (observer_) observer_(checked, content);
  if (stage_)
    stage_->put(checked, content, key);
  else
    keep(std::move(checked), std::move(content));
}

void OutputTree::add_pieces(std::string_view path, const std::vector<std::string_view>& pieces,
                            std::string_view key) {
  std::string checked = checked_path(path);
  if (stage_) return stage_->put_pieces(checked, pieces, key);
  std::string content;
  for (const std::string_view piece : pieces) content += piece;
  keep(std::move(checked), std::move(content));
}

bool OutputTree::reuse(std::string_view path, const std::string& key) {
  return stage_ && stage_->reuse(checked_path(path), key);
}

bool OutputTree::reuse_with_copy(std::string_view path, std::string_view copy,
                                 const std::string& key) {
  // When only the copy could be, the caller adds both anew, which replaces it.
  return stage_ && stage_->reuse(checked_path(copy), key) && stage_->reuse(checked_path(path), key);
}

void OutputTree::add_with_copy(std::string_view path, std::string_view copy, std::string content,
                               std::string_view key) {
  std::string checked = checked_path(path), checked_copy = checked_path(copy);
  if (observer_) {
    observer_(checked, content);
    observer_(checked_copy, content);
  }
  if (stage_) {
    stage_->put(checked, content, key);
    stage_->put_copy(checked_copy, checked, content, key);
  } else {
    keep(std::move(checked_copy), content);
    keep(std::move(checked), std::move(content));
  }
}

bool OutputTree::contains(const std::string& path) const {
  if (stage_) return stage_->has(path);
  const std::lock_guard lock(*mutex_);
  return files_.count(path) > 0;
}

std::size_t OutputTree::size() const {
  if (stage_) return stage_->size();
  const std::lock_guard lock(*mutex_);
  return files_.size();
}

const std::map<std::string, std::string>& OutputTree::files() const {
  if (stage_) throw ToolError("internal error: the files of a streamed output tree were asked for");
  return files_;
}

}  // namespace kbc
