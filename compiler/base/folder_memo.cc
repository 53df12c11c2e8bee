#include "base/folder_memo.h"

#include <algorithm>

#include "base/text.h"

namespace kbc {
namespace {

constexpr std::string_view kHeader = "kbc folders 1 ";

// Whether `names` has folder_names' form.
bool well_formed(std::string_view names) {
  if (names.empty()) return true;
  if (names.front() != '\t' || names.back() == '\t') return false;
  names.remove_prefix(1);
  while (!names.empty()) {
    const std::string_view field = next_tab_field(names);
    if (field.size() < 2 || (field[0] != 'f' && field[0] != 'l' && field[0] != 'd')) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> folder_names(const std::vector<std::string>& files,
                                        const std::vector<std::string>& links,
                                        const std::vector<std::string>& folders) {
  std::string out;
  for (const auto& [kind, names] : {std::pair{'f', &files}, {'l', &links}, {'d', &folders}}) {
    for (const std::string& name : *names) {
      if (!is_tab_field(name)) return std::nullopt;
      out.append("\t").append(1, kind).append(name);
    }
  }
  return out;
}

// A line a folder: its stamp's five numbers, its path, then its names (folder_names' form). A
// line is whole or the memo is empty.
FolderMemo FolderMemo::parse(std::string text) {
  FolderMemo memo;
  memo.text_ = std::make_unique<const std::string>(std::move(text));
  const std::optional<std::int64_t> listed_at =
      read_table_lines(*memo.text_, kHeader, [&memo](std::string_view line) {
        Line folder;
        folder.stamp = take_stamp_fields(line);
        const std::size_t end = std::min(line.find('\t'), line.size());
        const std::string_view path = line.substr(0, end);
        folder.names = line.substr(end);
        return well_formed(folder.names) && memo.lines_.emplace(path, folder).second;
      });
  if (!listed_at) return FolderMemo();
  memo.listed_at_ns_ = *listed_at;
  return memo;
}

std::optional<std::string_view> FolderMemo::trusted(std::string_view path,
                                                    const FileStamp& now) const {
  const auto known = lines_.find(path);
  const bool same = known != lines_.end() && known->second.stamp == now;
  if (!same || !settled_before(now, listed_at_ns_)) return std::nullopt;
  return known->second.names;
}

void FolderRecord::record(std::string path, const FileStamp& stamp,
                          std::optional<std::string> names, bool listed) {
  listed_ += listed ? 1 : 0;
  if (!names || !is_tab_field(path)) return;
  folders_.emplace_back(std::move(path), Folder{stamp, std::move(*names)});
}

void FolderRecord::take(FolderRecord other) {
  listed_ += other.listed_;
  folders_.insert(folders_.end(), std::make_move_iterator(other.folders_.begin()),
                  std::make_move_iterator(other.folders_.end()));
}

std::string FolderRecord::text() const {
  return table_text(kHeader, listed_at_ns_, folders_,
                    [](std::string& out, const std::string& path, const Folder& folder) {
                      append_stamp_fields(out, folder.stamp);
                      out.append(path).append(folder.names);
                    });
}

}  // namespace kbc
