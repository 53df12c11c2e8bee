#include "model/file_stamps.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "base/text.h"

namespace kbc {
namespace {

using nlohmann::json;

constexpr std::string_view kHeader = "kbc file stamps 1 ";

json name_to_json(const SuppressionComment::Name& name) {
  return {name.text, name.at.line, name.at.column};
}

SuppressionComment::Name name_from_json(const json& stored) {
  return {stored.at(0).get<std::string>(), {stored.at(1).get<int>(), stored.at(2).get<int>()}};
}

json suppressions_to_json(const std::vector<SuppressionComment>& comments) {
  json out = json::array();
  for (const SuppressionComment& comment : comments) {
    json rules = json::array();
    for (const SuppressionComment::Name& rule : comment.rules) rules.push_back(name_to_json(rule));
    out.push_back({static_cast<int>(comment.kind), name_to_json(comment.directive),
                   std::move(rules), comment.target_line});
  }
  return out;
}

std::vector<SuppressionComment> suppressions_from_json(const json& stored) {
  std::vector<SuppressionComment> out;
  for (const json& comment : stored) {
    const int kind = comment.at(0).get<int>();
    if (kind < 0 || kind > static_cast<int>(SuppressionComment::Kind::kUnknown))
      throw std::out_of_range("kind");
    SuppressionComment& read = out.emplace_back();
    read.kind = static_cast<SuppressionComment::Kind>(kind);
    read.directive = name_from_json(comment.at(1));
    for (const json& rule : comment.at(2)) read.rules.push_back(name_from_json(rule));
    read.target_line = comment.at(3).get<int>();
  }
  return out;
}

}  // namespace

std::int64_t wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

FileStamps FileStamps::parse(std::string_view text) {
  try {
    if (!text.starts_with(kHeader)) return FileStamps();
    text.remove_prefix(kHeader.size());
    std::string_view header = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), header.size() + 1));
    FileStamps table(number_tab_field<std::int64_t>(header));
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      if (end == std::string_view::npos) return FileStamps();  // a line cut short
      std::string_view line = text.substr(0, end);
      text.remove_prefix(end + 1);
      Known known;
      known.digest = std::string(next_tab_field(line));
      known.stamp = take_stamp_fields(line);
      const std::string path(next_tab_field(line));
      if (!line.empty()) known.suppressions = suppressions_from_json(json::parse(line));
      if (known.digest.empty() || path.empty()) return FileStamps();
      table.files_.emplace(path, std::move(known));
    }
    return table;
  } catch (const std::exception&) {
    return FileStamps();
  }
}

std::string FileStamps::text() const {
  std::vector<const std::pair<const std::string, Known>*> sorted;
  for (const auto& file : files_) sorted.push_back(&file);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string out = std::string(kHeader) + std::to_string(listed_at_ns_) + "\n";
  for (const auto* file : sorted) {
    const Known& known = file->second;
    out.append(known.digest).push_back('\t');
    append_stamp_fields(out, known.stamp);
    out += file->first;
    if (!known.suppressions.empty()) out += "\t" + suppressions_to_json(known.suppressions).dump();
    out.push_back('\n');
  }
  return out;
}

const FileStamps::Known* FileStamps::find(const std::string& path) const {
  const auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

bool FileStamps::settled(const FileStamp& stamp) const {
  return settled_before(stamp, listed_at_ns_);
}

const FileStamps::Known* FileStamps::trusted(const std::string& path, const FileStamp& now) const {
  const Known* known = find(path);
  return known && known->stamp == now && settled(now) ? known : nullptr;
}

bool FileStamps::recordable(const std::string& path) {
  return path.find_first_of("\t\n") == std::string::npos;
}

void FileStamps::record(const std::string& path, Known known) {
  if (!recordable(path)) return;
  try {  // text() can write them (a comment's text that is not UTF-8 cannot be)
    if (!known.suppressions.empty()) (void)suppressions_to_json(known.suppressions).dump();
  } catch (const std::exception&) {
    return;
  }
  files_.insert_or_assign(path, std::move(known));
}

}  // namespace kbc
