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

FileStamps FileStamps::parse(std::string text) {
  FileStamps table;
  table.text_ = std::make_unique<const std::string>(std::move(text));
  const std::optional<std::int64_t> listed_at =
      read_table_lines(*table.text_, kHeader, [&table](std::string_view line) {
        Row row;
        row.digest = next_tab_field(line);
        row.stamp = take_stamp_fields(line);
        const std::string_view path = next_tab_field(line);
        if (!line.empty()) row.suppressions = suppressions_from_json(json::parse(line));
        if (row.digest.empty() || path.empty()) return false;
        table.files_.emplace(path, std::move(row));
        return true;
      });
  if (!listed_at) return FileStamps();
  table.listed_at_ns_ = *listed_at;
  return table;
}

std::string FileStamps::text() const {
  return table_text(kHeader, listed_at_ns_, files_,
                    [](std::string& out, std::string_view path, const Row& row) {
                      out.append(row.digest).push_back('\t');
                      append_stamp_fields(out, row.stamp);
                      out += path;
                      if (!row.suppressions.empty())
                        out += "\t" + suppressions_to_json(row.suppressions).dump();
                    });
}

std::optional<FileStamps::Known> FileStamps::find(std::string_view path) const {
  const auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  const Row& row = it->second;
  return Known{row.stamp, std::string(row.digest), row.suppressions};
}

bool FileStamps::settled(const FileStamp& stamp) const {
  return settled_before(stamp, listed_at_ns_);
}

std::optional<FileStamps::Known> FileStamps::trusted(std::string_view path,
                                                     const FileStamp& now) const {
  std::optional<Known> known = find(path);
  if (!known || !(known->stamp == now) || !settled(now)) return std::nullopt;
  return known;
}

bool FileStamps::recordable(const std::string& path) { return is_tab_field(path); }

void FileStamps::record(const std::string& path, Known known) {
  if (!recordable(path)) return;
  try {  // text() can write them (a comment's text that is not UTF-8 cannot be)
    if (!known.suppressions.empty()) (void)suppressions_to_json(known.suppressions).dump();
  } catch (const std::exception&) {
    return;
  }
  const std::string_view digest = recorded_.emplace_back(std::move(known.digest));
  Row row{known.stamp, digest, std::move(known.suppressions)};
  const auto it = files_.find(path);
  if (it != files_.end()) {
    it->second = std::move(row);
  } else {
    files_.emplace(recorded_.emplace_back(path), std::move(row));
  }
}

}  // namespace kbc
