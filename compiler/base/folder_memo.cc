#include "base/folder_memo.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace kbc {
namespace {

constexpr std::string_view kHeader = "kbc folders 1 ";

// The next field of `line` up to a tab (or its end), and the rest after it.
std::string_view next_field(std::string_view& line) {
  const std::size_t tab = line.find('\t');
  const std::string_view field = line.substr(0, tab);
  line.remove_prefix(tab == std::string_view::npos ? line.size() : tab + 1);
  return field;
}

template <typename Number>
Number number_field(std::string_view& line) {
  const std::string_view field = next_field(line);
  Number value{};
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty())
    throw std::invalid_argument("not a number");
  return value;
}

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
    FolderMemo memo(number_field<std::int64_t>(header));
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      if (end == std::string_view::npos) return FolderMemo();  // a line cut short
      std::string_view line = text.substr(0, end);
      text.remove_prefix(end + 1);
      Folder folder;
      folder.stamp.size = number_field<std::uint64_t>(line);
      folder.stamp.modified_ns = number_field<std::int64_t>(line);
      folder.stamp.changed_ns = number_field<std::int64_t>(line);
      folder.stamp.inode = number_field<std::uint64_t>(line);
      folder.stamp.device = number_field<std::uint64_t>(line);
      const std::string path(next_field(line));
      while (!line.empty()) {
        const std::string_view name = next_field(line);
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
    const FileStamp& s = folder->second.stamp;
    out += std::to_string(s.size);
    for (const std::int64_t time : {s.modified_ns, s.changed_ns})
      out.append("\t").append(std::to_string(time));
    for (const std::uint64_t number : {s.inode, s.device})
      out.append("\t").append(std::to_string(number));
    out.append("\t").append(folder->first);
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
  if (known == folders_.end() || !(known->second.stamp == now)) return nullptr;
  const std::int64_t before = listed_at_ns_ - kTrustAfterNs;
  return now.modified_ns < before && now.changed_ns < before ? &known->second : nullptr;
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
