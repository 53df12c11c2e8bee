// `kbc new <id> [--root DIR] [--date YYYY-MM-DD]`
//
// Writes entries/<id>.yaml from templates/entry.yaml.mustache (the knowledge base's own copy, or
// the built-in one). The scaffold is deterministic: no date unless --date gives one, and every
// value only the author knows is a placeholder that `kbc lint` reports until it is filled in.
#include <kainjow/mustache.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "cli/command.h"
#include "model/config.h"
#include "model/entry.h"
#include "model/languages.h"
#include "render/templates.h"

namespace kbc {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSchemaPath = "schema/entry.schema.json";
constexpr const char* kDatePlaceholder = "YYYY-MM-DD";

std::string checked_id(const Arguments& arguments) {
  if (arguments.positional.size() != 1) throw ToolError("kbc new: give exactly one id");
  const std::string& id = arguments.positional[0];
  if (!is_valid_entry_id(id)) {
    throw ToolError("kbc new: '" + id +
                    "' is not a valid id: <domain>/<slug> or <domain>/<slug>/<variant>, each "
                    "segment [a-z0-9][a-z0-9._-]*");
  }
  return id;
}

bool is_calendar_date(const std::string& text) {
  const auto date = parse_date(text);
  return date && date->ok();
}

std::string checked_date(const Arguments& arguments) {
  std::string date = arguments.value_or("--date", kDatePlaceholder);
  if (date != kDatePlaceholder && !is_calendar_date(date))
    throw ToolError("kbc new: --date '" + date + "' is not a calendar date YYYY-MM-DD");
  return date;
}

// Where editors find the schema: the knowledge base's own copy, relative to the new file; else
// where the site publishes it; else the schema's $id.
std::string schema_reference(const FileSystem& fs, const std::string& root, const std::string& id,
                             const std::string& base_url) {
  if (fs.size(join_path(root, kSchemaPath))) {
    const fs::path folder = fs::path("entries/" + id).parent_path();
    return fs::path(kSchemaPath).lexically_relative(folder).generic_string();
  }
  if (!base_url.empty()) return base_url + kSchemaPath;
  return builtin_entry_schema().at("$id").get<std::string>();
}

// The languages but the base, whose keys the scaffold lists commented out: the code, the spaces
// that keep the comments after the key aligned for a code of two letters or three, the name.
kainjow::mustache::data translations(const std::vector<Language>& languages) {
  kainjow::mustache::data list{kainjow::mustache::data::type::list};
  for (const Language& language : languages) {
    if (language.base) continue;
    kainjow::mustache::data item;
    item.set("code", language.code);
    item.set("pad", std::string(language.code.size() < 3 ? 3 - language.code.size() : 0, ' '));
    item.set("english_name", language.english_name);
    list.push_back(item);
  }
  return list;
}

std::string scaffold(const FileSystem& fs, const std::string& root, const std::string& id,
                     const std::string& date) {
  const std::string name = "entry.yaml.mustache";
  kainjow::mustache::mustache scaffold_template(TemplateSet(fs, root).text(name));
  if (!scaffold_template.is_valid())
    throw ToolError("templates/" + name + ": " + scaffold_template.error_message());
  Diagnostics ignored;  // kbc lint reports a faulty kbc.yaml
  const KbConfig config = load_kb_config(fs, root, ignored);
  kainjow::mustache::data values;
  values.set("schema", schema_reference(fs, root, id, config.site.base_url));
  values.set("translations", translations(config.languages));
  values.set("id", id);
  values.set("domain", id.substr(0, id.find('/')));
  values.set("date", date);
  return scaffold_template.render(values);
}

// Creates `path` with `content`; false when it already exists, which is never replaced (even
// when another process creates it meanwhile: "x" opens with O_EXCL).
bool write_new_file(const fs::path& path, const std::string& content) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error)
    throw ToolError("cannot create " + path.parent_path().string() + ": " + error.message());
  std::FILE* file = std::fopen(path.c_str(), "wx");
  if (!file) {
    if (fs::exists(path)) return false;
    throw ToolError("cannot write " + path.string());
  }
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  if (std::fclose(file) != 0 || !written) {
    fs::remove(path, error);
    throw ToolError("cannot write " + path.string());
  }
  return true;
}

}  // namespace

int run_new(const Arguments& arguments) {
  const std::string id = checked_id(arguments);
  const std::string date = checked_date(arguments);
  const std::string root = arguments.value("--root");
  if (!fs::is_directory(root)) throw ToolError("kbc new: no such folder: " + root);
  const RealFileSystem fs;
  const std::string path = join_path(root, "entries/" + id + ".yaml");
  if (!write_new_file(path, scaffold(fs, root, id, date))) {
    std::cerr << path << ": error: the entry exists; kbc new never overwrites it [new]\n";
    return 1;
  }
  std::cout << path << "\n";
  return 0;
}

}  // namespace kbc
