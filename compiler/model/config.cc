#include "model/config.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <optional>

#include "base/json_pointer.h"
#include "base/text.h"
#include "load/yaml_loader.h"
#include "resources.h"
#include "validate/schema_validator.h"

namespace kbc {

std::optional<std::string> template_file(const FileSystem& fs, const std::string& root,
                                         const std::string& name) {
  const std::string own = join_path(root, "templates/" + name);
  if (fs.size(own)) return fs.read(own);
  if (const auto embedded = embedded_resource("templates/" + name)) return std::string(*embedded);
  return std::nullopt;
}

bool is_valid_base_url(const std::string& url) {
  static const RE2 pattern(
      nlohmann::json::parse(embedded_resource("schema/kbc.schema.json").value())
          .at("/properties/base_url/pattern"_json_pointer)
          .get<std::string>(),
      RE2::Quiet);
  return RE2::PartialMatch(url, pattern);
}

std::string normalized_base_url(std::string url) {
  while (url.ends_with('/')) url.pop_back();
  return url.empty() ? url : url + "/";
}

namespace {

std::optional<RuleLevel> rule_level(const nlohmann::json& value) {
  if (value == "off") return RuleLevel::kOff;
  if (value == "warning") return RuleLevel::kWarning;
  if (value == "error") return RuleLevel::kError;
  return std::nullopt;
}

// The texts of the list at `pointer`, with their positions; what is not text is left out (the
// schema reports it).
std::vector<ConfigName> names_at(const YamlDocument& document, const std::string& pointer) {
  std::vector<ConfigName> names;
  const nlohmann::json::json_pointer at(pointer);
  if (!document.value.contains(at) || !document.value.at(at).is_array()) return names;
  const nlohmann::json& list = document.value.at(at);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = pointer_append(pointer, std::to_string(i));
    if (list[i].is_string())
      names.push_back({list[i].get<std::string>(), document.sources.find(item).value, item});
  }
  return names;
}

// `rules` and `exclude`, leniently: whatever has the right shape, even when the schema failed.
LintConfig lint_config(const YamlDocument& document) {
  LintConfig lint;
  const nlohmann::json& value = document.value;
  if (value.contains("rules") && value["rules"].is_object()) {
    for (const auto& [id, level] : value["rules"].items()) {
      const std::string pointer = pointer_append("/rules", id);
      const NodeSource source = document.sources.find(pointer);
      if (const auto parsed = rule_level(level))
        lint.rules.push_back({{id, source.key, pointer}, *parsed, source.value});
    }
  }
  if (value.contains("exclude") && value["exclude"].is_array()) {
    for (std::size_t i = 0; i < value["exclude"].size(); ++i) {
      const std::string item = "/exclude/" + std::to_string(i);
      lint.exclusions.push_back(
          {names_at(document, item + "/entries"), names_at(document, item + "/rules")});
    }
  }
  return lint;
}

// The UI strings the site shows in language `code`; nullopt when there are none. A file that is
// not JSON gives a value that is not an object: the build reports it.
std::optional<nlohmann::json> ui_strings(const FileSystem& fs, const std::string& root,
                                         const std::string& code) {
  const auto text = template_file(fs, root, "strings/" + code + ".json");
  if (!text) return std::nullopt;
  return nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
}

StringsLookup strings_of(const FileSystem& fs, const std::string& root) {
  return [&fs, root](const std::string& code) { return ui_strings(fs, root, code); };
}

// Why a language of kbc.yaml cannot be used, or "": its code is listed on an earlier line
// (`first_lines`), or it has no UI strings.
std::string language_problem(const std::string& code, const std::map<std::string, int>& first_lines,
                             const FileSystem& fs, const std::string& root) {
  if (const auto it = first_lines.find(code); it != first_lines.end()) {
    return "the language '" + code + "' is listed twice (first on line " +
           std::to_string(it->second) + ")";
  }
  if (template_file(fs, root, "strings/" + code + ".json")) return "";
  return "the language '" + code +
         "' has no UI strings: add them to the knowledge base as templates/strings/" + code +
         ".json, with the keys of kbc's templates/strings/en.json";
}

// The schema-valid `languages` of kbc.yaml, or nullopt when one of them cannot be used (each a
// config-language error).
std::optional<std::vector<Language>> configured_languages(const YamlDocument& document,
                                                          const FileSystem& fs,
                                                          const std::string& root,
                                                          Diagnostics& out) {
  const nlohmann::json& list = document.value["languages"];
  std::map<std::string, int> first_lines;  // code -> the line it is first listed on
  bool usable = true;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string code = list[i]["code"];
    const std::string pointer = "/languages/" + std::to_string(i) + "/code";
    const Location at = document.sources.find(pointer).value;
    if (std::string problem = language_problem(code, first_lines, fs, root); !problem.empty()) {
      out.push_back(
          {kConfigFile, at, Severity::kError, std::move(problem), "config-language", "", pointer});
      usable = false;
    }
    first_lines.emplace(code, at.line);
  }
  if (!usable) return std::nullopt;
  return languages_from(list, strings_of(fs, root));
}

// The files of `benign`, read; one that is missing, too large or not UTF-8 is a config-benign
// error at its item.
bool is_outside(const std::string& path) {
  return path.find("..") != std::string::npos || path.starts_with("/");
}

// What keeps kbc from reading the file kbc.yaml names at `path` (relative to the root), as the
// end of a sentence ("does not exist"), or nothing.
std::optional<std::string> file_problem(const FileSystem& fs, const std::string& root,
                                        const std::string& path) {
  if (is_outside(path)) return "is outside the knowledge base";
  const std::string file = join_path(root, path);
  const auto bytes = fs.size(file);
  if (!bytes || fs.is_directory(file)) return "does not exist";
  if (*bytes > kMaxFileBytes)
    return "is " + std::to_string(*bytes) + " bytes; the limit is " + std::to_string(kMaxFileBytes);
  return std::nullopt;
}

std::vector<BenignFile> benign_files(const YamlDocument& document, const FileSystem& fs,
                                     const std::string& root, Diagnostics& out) {
  std::vector<BenignFile> files;
  const nlohmann::json& list = document.value["benign"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = list[i].get<std::string>();
    const std::string pointer = "/benign/" + std::to_string(i);
    const auto problem = [&](std::string message) {
      out.push_back({kConfigFile, document.sources.find(pointer).value, Severity::kError,
                     std::move(message), "config-benign", "", pointer});
    };
    const std::string file = join_path(root, path);
    if (const auto what = file_problem(fs, root, path)) {
      problem("benign file '" + path + "' " + *what);
    } else {
      std::string text = fs.read(file);
      if (find_invalid_utf8(text)) {
        problem("benign file '" + path + "' is not UTF-8");
      } else {
        files.push_back({path, std::move(text)});
      }
    }
  }
  return files;
}

// kbc.yaml's `key` (logo or favicon): the image file it names, read, as assets/<key>.<ext>.
// `extensions`: those the key accepts.
SiteConfig::Image site_image(const YamlDocument& document, const FileSystem& fs,
                             const std::string& root, const char* key,
                             const std::vector<std::string>& extensions, Diagnostics& out) {
  const std::string path = document.value[key].get<std::string>();
  const std::string pointer = std::string("/") + key;
  const auto problem = [&](std::string message) {
    out.push_back({kConfigFile, document.sources.find(pointer).value, Severity::kError,
                   std::move(message), "config-image", "", pointer});
    return SiteConfig::Image{};
  };
  const std::size_t dot = path.rfind('.');
  const std::string extension = dot == std::string::npos ? "" : ascii_lower(path.substr(dot + 1));
  const std::string named = std::string(key) + " '" + path + "' ";
  if (!is_outside(path) &&
      std::find(extensions.begin(), extensions.end(), extension) == extensions.end())
    return problem(named + "is not " + joined_list(extensions, "or") + " (by its name)");
  if (const auto what = file_problem(fs, root, path)) return problem(named + *what);
  return {std::string(key) + "." + extension, fs.read(join_path(root, path))};
}

}  // namespace

KbConfig load_kb_config(const FileSystem& fs, const std::string& root, Diagnostics& out) {
  KbConfig config;
  config.languages = languages_from(default_language_list(), strings_of(fs, root));
  const std::string file = join_path(root, kConfigFile);
  const auto bytes = fs.size(file);
  if (!bytes || fs.is_directory(file)) return config;
  if (*bytes > kMaxFileBytes) {
    out.push_back({kConfigFile,
                   {},
                   Severity::kError,
                   "file is " + std::to_string(*bytes) + " bytes; the limit is " +
                       std::to_string(kMaxFileBytes),
                   "yaml-structure",
                   ""});
    return config;
  }
  const auto schema_text = embedded_resource("schema/kbc.schema.json");
  if (!schema_text) throw ToolError("the kbc.yaml schema is missing from this build");
  const SchemaValidator schema(nlohmann::json::parse(*schema_text));
  const auto document = load_yaml(kConfigFile, fs.read(file), out);
  if (!document) return config;
  if (document->value.is_object()) config.lint = lint_config(*document);
  if (!schema.validate(kConfigFile, document->value, document->sources, out)) return config;
  const nlohmann::json& value = document->value;
  if (value.contains("title")) config.site.title = value["title"].get<std::string>();
  if (value.contains("base_url"))
    config.site.base_url = normalized_base_url(value["base_url"].get<std::string>());
  if (value.contains("description"))
    config.site.description = value["description"].get<std::string>();
  if (value.contains("edit_url")) config.site.edit_url = value["edit_url"].get<std::string>();
  if (value.contains("logo"))
    config.site.logo = site_image(*document, fs, root, "logo", {"svg", "png", "jpg", "webp"}, out);
  if (value.contains("favicon"))
    config.site.favicon = site_image(*document, fs, root, "favicon", {"svg", "png", "ico"}, out);
  if (value.contains("languages")) {
    if (auto languages = configured_languages(*document, fs, root, out))
      config.languages = std::move(*languages);
  }
  if (value.contains("benign")) config.benign = benign_files(*document, fs, root, out);
  return config;
}

}  // namespace kbc
