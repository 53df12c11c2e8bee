#include "base/folder_memo.h"

#include <algorithm>
#include <stdexcept>

#include "base/text.h"

namespace kbc {
namespace {

constexpr std::string_view kHeader = "kbc folders 1 ";

bool recordable(std::string_view text) { return text.find_first_of("\t\n") == std::string::npos; }

}  // namespace

// A line a folder: its stamp's five numbers, its path, then each name in it after its kind (f,
// l or d: a file, a link, a folder), separated by tabs. A line is whole or the memo is empty.
FolderMemo FolderMemo::parse(std::string_view text) {
  try {
    if (!text.starts_with(kHeader)) return FolderMemo();
    text.remove_prefix(kHeader.size());
    std::string_view header = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), header.size() + 1));
    FolderMemo memo(number_tab_field<std::int64_t>(header));
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      if (end == std::string_view::npos) return FolderMemo();  // a line cut short
      std::string_view line = text.substr(0, end);
      text.remove_prefix(end + 1);
      Folder folder;
      folder.stamp = take_stamp_fields(line);
      const std::string path(next_tab_field(line));
      while (!line.empty()) {
        const std::string_view name = next_tab_field(line);
        if (name.size() < 2) return FolderMemo();
        const char kind = name.front();
        if (kind != 'f' && kind != 'l' && kind != 'd') return FolderMemo();
        (kind == 'f'   ? folder.files
         : kind == 'l' ? folder.links
                       : folder.folders)
            .emplace_back(name.substr(1));
      }
      if (!memo.folders_.emplace(path, std::move(folder)).second) return FolderMemo();
    }
    return memo;
  } catch (const std::exception&) {
    return FolderMemo();
  }
}

std::string FolderMemo::text() const {
  std::vector<const std::pair<const std::string, Folder>*> sorted;
  for (const auto& folder : folders_) sorted.push_back(&folder);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string out = std::string(kHeader) + std::to_string(listed_at_ns_) + "\n";
  for (const auto* folder : sorted) {
    append_stamp_fields(out, folder->second.stamp);
    out.append(folder->first);
    for (const auto& [kind, names] : {std::pair{'f', &folder->second.files},
                                      {'l', &folder->second.links},
                                      {'d', &folder->second.folders}}) {
      for (const std::string& name : *names) out.append("\t").append(1, kind).append(name);
    }
    out += '\n';
  }
  return out;
}

const FolderMemo::Folder* FolderMemo::trusted(const std::string& path, const FileStamp& now) const {
  const auto known = folders_.find(path);
  const bool same = known != folders_.end() && known->second.stamp == now;
  return same && settled_before(now, listed_at_ns_) ? &known->second : nullptr;
}

void FolderMemo::record(const std::string& path, Folder folder, bool listed) {
  listed_any_ = listed_any_ || listed;
  if (!recordable(path)) return;
  for (const auto* names : {&folder.files, &folder.links, &folder.folders}) {
    if (!std::ranges::all_of(*names, recordable)) return;
  }
  folders_.insert_or_assign(path, std::move(folder));
}

}  // namespace kbc
