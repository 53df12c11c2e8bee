#include "model/config.h"

#include <optional>

#include "load/yaml_loader.h"
#include "resources.h"
#include "validate/schema_validator.h"

namespace kbc {

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

}  // namespace

KbConfig load_kb_config(const FileSystem& fs, const std::string& root, Diagnostics& out) {
  KbConfig config;
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
  return config;
}

SiteConfig load_config(const FileSystem& fs, const std::string& root, Diagnostics& out) {
  return load_kb_config(fs, root, out).site;
}

}  // namespace kbc
