#include "base/folder_memo.h"

#include <algorithm>

#include "base/text.h"

namespace kbc {
namespace {

constexpr std::string_view kHeader = "kbc folders 1 ";

}  // namespace

// A line a folder: its stamp's five numbers, its path, then each name in it after its kind (f,
// l or d: a file, a link, a folder), separated by tabs. A line is whole or the memo is empty.
FolderMemo FolderMemo::parse(std::string_view text) {
  FolderMemo memo;
  const std::optional<std::int64_t> listed_at =
      read_table_lines(text, kHeader, [&memo](std::string_view line) {
        Folder folder;
        folder.stamp = take_stamp_fields(line);
        const std::string path(next_tab_field(line));
        while (!line.empty()) {
          const std::string_view name = next_tab_field(line);
          if (name.size() < 2) return false;
          const char kind = name.front();
          if (kind != 'f' && kind != 'l' && kind != 'd') return false;
          (kind == 'f'   ? folder.files
           : kind == 'l' ? folder.links
                         : folder.folders)
              .emplace_back(name.substr(1));
        }
        return memo.folders_.emplace(path, std::move(folder)).second;
      });
  if (!listed_at) return FolderMemo();
  memo.listed_at_ns_ = *listed_at;
  return memo;
}

std::string FolderMemo::text() const {
  return table_text(
      kHeader, listed_at_ns_, folders_,
      [](std::string& out, const std::string& path, const Folder& folder) {
        append_stamp_fields(out, folder.stamp);
        out.append(path);
        for (const auto& [kind, names] :
             {std::pair{'f', &folder.files}, {'l', &folder.links}, {'d', &folder.folders}}) {
          for (const std::string& name : *names) out.append("\t").append(1, kind).append(name);
        }
      });
}

const FolderMemo::Folder* FolderMemo::trusted(const std::string& path, const FileStamp& now) const {
  const auto known = folders_.find(path);
  const bool same = known != folders_.end() && known->second.stamp == now;
  return same && settled_before(now, listed_at_ns_) ? &known->second : nullptr;
}

void FolderMemo::record(const std::string& path, Folder folder, bool listed) {
  listed_ += listed ? 1 : 0;
  if (!is_tab_field(path)) return;
  for (const auto* names : {&folder.files, &folder.links, &folder.folders}) {
    if (!std::ranges::all_of(*names, is_tab_field)) return;
  }
  folders_.insert_or_assign(path, std::move(folder));
}

}  // namespace kbc
