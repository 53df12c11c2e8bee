// `kbc import FILE.json... [--root DIR] [--force]`
#include <filesystem>
#include <fstream>
#include <iostream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "cli/command.h"
#include "import/importer.h"
#include "model/config.h"
#include "model/entry.h"
#include "resources.h"

namespace kbc {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

void report(const std::string& path, LineColumn at, const std::string& message) {
  std::cout << path << ":" << at.line << ":" << at.column << ": error: " << message
            << " [import]\n";
}

// The records in a file: one record, or a bundle (a list of records).
std::optional<ordered_json> read_records(const std::string& path, const std::string& text) {
  try {
    ordered_json parsed = ordered_json::parse(text);
    if (parsed.is_object()) return ordered_json::array({std::move(parsed)});
    if (parsed.is_array()) return parsed;
    report(path, {1, 1}, "expected a record (an object) or a bundle (a list of records)");
  } catch (const ordered_json::parse_error& e) {
    report(path, line_column_at(text, e.byte > 0 ? e.byte - 1 : 0),
           std::string("invalid JSON: ") + e.what());
  }
  return std::nullopt;
}

void write_atomically(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out) throw ToolError("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
}

// Imports one record; false when it was refused.
bool import_record(const std::string& file, std::size_t index, const ordered_json& record,
                   const std::string& root, const std::vector<Language>& languages, bool force) {
  const std::string where = "record " + std::to_string(index);
  if (!record.is_object() || !record.contains("id") || !record["id"].is_string()) {
    report(file, {1, 1}, where + " has no id");
    return false;
  }
  const std::string id = record["id"].get<std::string>();
  if (!is_valid_entry_id(id)) {
    report(file, {1, 1}, where + ": '" + id + "' is not a valid id");
    return false;
  }
  const fs::path target = fs::path(root) / "entries" / (id + ".yaml");
  if (fs::exists(target) && !force) {
    report(file, {1, 1}, where + ": " + target.string() + " exists (use --force to overwrite)");
    return false;
  }
  write_atomically(target, record_to_yaml(record, languages));
  std::cout << "imported " << id << " -> " << target.string() << "\n";
  return true;
}

}  // namespace

int run_import(const Arguments& arguments) {
  if (arguments.positional.empty()) throw ToolError("kbc import: give at least one FILE.json");
  const std::string root = arguments.value("--root");
  const RealFileSystem fs;
  Diagnostics ignored;  // kbc lint reports a faulty kbc.yaml
  const std::vector<Language> languages = load_kb_config(fs, root, ignored).languages;
  bool ok = true;
  for (const std::string& file : arguments.positional) {
    const auto records = read_records(file, fs.read(file));
    if (!records) {
      ok = false;
      continue;
    }
    for (std::size_t i = 0; i < records->size(); ++i) {
      ok = import_record(file, i, (*records)[i], root, languages, arguments.has("--force")) && ok;
    }
  }
  return ok ? 0 : 1;
}

}  // namespace kbc
