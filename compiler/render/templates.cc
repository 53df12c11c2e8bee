#include "render/templates.h"

#include "base/diagnostic.h"
#include "model/config.h"

namespace kbc {

const std::string& TemplateSet::text(const std::string& name) const {
  if (const auto it = texts_.find(name); it != texts_.end()) return it->second;
  std::optional<std::string> content = template_file(fs_, root_, name);
  if (!content) throw ToolError("no template templates/" + name);
  return texts_.emplace(name, std::move(*content)).first->second;
}

const nlohmann::json& TemplateSet::strings(const std::string& language) const {
  if (const auto it = strings_.find(language); it != strings_.end()) return it->second;
  const std::string name = "strings/" + language + ".json";
  nlohmann::json parsed = nlohmann::json::parse(text(name), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object())
    throw ToolError("templates/" + name + " is not a JSON object of strings");
  return strings_.emplace(language, std::move(parsed)).first->second;
}

}  // namespace kbc
