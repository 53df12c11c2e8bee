#include "model/config.h"

#include "load/yaml_loader.h"
#include "resources.h"
#include "validate/schema_validator.h"

namespace kbc {

std::string normalized_base_url(std::string url) {
  while (url.ends_with('/')) url.pop_back();
  return url.empty() ? url : url + "/";
}

SiteConfig load_config(const FileSystem& fs, const std::string& root, Diagnostics& out) {
  SiteConfig config;
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
  if (!document || !schema.validate(kConfigFile, document->value, document->sources, out))
    return config;
  const nlohmann::json& value = document->value;
  if (value.contains("title")) config.title = value["title"].get<std::string>();
  if (value.contains("base_url"))
    config.base_url = normalized_base_url(value["base_url"].get<std::string>());
  return config;
}

}  // namespace kbc
