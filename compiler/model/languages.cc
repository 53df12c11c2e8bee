#include "model/languages.h"

#include "base/diagnostic.h"
#include "resources.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// schema/entry.schema.json writes the translated keys of this language, as the template of all.
constexpr std::string_view kTemplateSuffix = "_zh";
constexpr std::string_view kTemplateName = "Chinese";

std::string_view resource(std::string_view name) {
  const auto text = embedded_resource(name);
  if (!text) throw ToolError(std::string(name) + " is missing from this build");
  return *text;
}

std::string text_at(const std::optional<json>& table, const char* key) {
  if (!table || !table->is_object()) return "";
  const auto it = table->find(key);
  return it != table->end() && it->is_string() ? it->get<std::string>() : "";
}

// The string `key` of a language's UI strings, else of kbc's own.
std::string string_of(const std::optional<json>& strings, const std::string& code,
                      const char* key) {
  const std::string own = text_at(strings, key);
  return own.empty() ? text_at(built_in_strings(code), key) : own;
}

Language named_language(const json& item, const StringsLookup& strings) {
  Language language;
  language.code = item.value("code", "");
  language.html_lang = item.value("html_lang", language.code);
  const std::optional<json> table = strings(language.code);
  language.name = item.value("name", string_of(table, language.code, "language_name"));
  if (language.name.empty()) language.name = language.code;
  language.english_name = string_of(table, language.code, "english_name");
  if (language.english_name.empty()) language.english_name = language.name;
  return language;
}

// The key whose template `key` is ("signature" for "signature_zh"), or "" when it is none.
std::string template_of(const ordered_json& properties, const std::string& key) {
  if (!key.ends_with(kTemplateSuffix)) return "";
  const std::string base = key.substr(0, key.size() - kTemplateSuffix.size());
  return properties.contains(base) ? base : "";
}

std::string replaced(std::string text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// A template key's property for `language`: its description names that language.
ordered_json translated_property(ordered_json property, const Language& language) {
  const auto description = property.find("description");
  if (description != property.end() && description->is_string())
    *description = replaced(description->get<std::string>(), kTemplateName, language.english_name);
  return property;
}

}  // namespace

std::string Language::key(std::string_view base_key) const {
  return base ? std::string(base_key) : std::string(base_key) + "_" + code;
}

std::optional<json> built_in_strings(const std::string& code) {
  const auto text = embedded_resource("templates/strings/" + code + ".json");
  if (!text) return std::nullopt;
  return json::parse(*text, nullptr, /*allow_exceptions=*/false);
}

std::vector<Language> languages_from(const json& list, const StringsLookup& strings) {
  std::vector<Language> languages;
  for (const json& item : list) languages.push_back(named_language(item, strings));
  if (!languages.empty()) languages.front().base = true;
  return languages;
}

const json& default_language_list() {
  static const json list = json::parse(resource("schema/kbc.schema.json"))
                               .at("/properties/languages/default"_json_pointer);
  return list;
}

const std::vector<Language>& default_languages() {
  static const std::vector<Language> languages =
      languages_from(default_language_list(), built_in_strings);
  return languages;
}

const std::vector<TranslatedKey>& translated_keys() {
  static const std::vector<TranslatedKey> keys = [] {
    std::vector<TranslatedKey> out;
    const ordered_json& properties = builtin_entry_schema().at("properties");
    for (const auto& [key, value] : properties.items()) {
      if (const std::string base = template_of(properties, key); !base.empty())
        out.push_back({base, properties.at(base).value("type", ordered_json()) == "array"});
    }
    return out;
  }();
  return keys;
}

const ordered_json& builtin_entry_schema() {
  static const ordered_json schema = ordered_json::parse(resource("schema/entry.schema.json"));
  return schema;
}

ordered_json entry_schema(const std::vector<Language>& languages) {
  ordered_json schema = builtin_entry_schema();
  const ordered_json& source = builtin_entry_schema().at("properties");
  ordered_json properties = ordered_json::object();
  for (const auto& [key, value] : source.items()) {
    const std::string base = template_of(source, key);
    if (base.empty()) {
      properties[key] = value;
      continue;
    }
    for (const Language& language : languages) {
      if (!language.base) properties[language.key(base)] = translated_property(value, language);
    }
  }
  schema["properties"] = std::move(properties);
  return schema;
}

std::string entry_schema_text(const std::vector<Language>& languages) {
  const ordered_json schema = entry_schema(languages);
  if (schema == builtin_entry_schema()) return std::string(resource("schema/entry.schema.json"));
  return schema.dump(2) + "\n";
}

}  // namespace kbc
