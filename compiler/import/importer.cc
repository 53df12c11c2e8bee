#include "import/importer.h"

#include <yaml-cpp/emitter.h>

#include <set>

#include "load/yaml_loader.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

// Keys the build fills in with null, [] or {} when an entry leaves them out, besides each
// language's copy of signature, root_cause and workarounds (defaulted_keys).
const std::set<std::string> kDefaultedKeys = {
    "subcategory", "root_cause_type", "versions", "os_specific", "transition_graph",
    "official_doc_url", "official_doc_section", "error_code", "tags", "aliases",
    // Keys of list items and of the transition graph.
    "condition", "sources", "how", "introduced", "deprecated", "removed", "behavior_change",
    "status", "leads_to", "preceded_by", "frequently_confused_with"};

std::set<std::string> defaulted_keys(const std::vector<Language>& languages) {
  std::set<std::string> keys = kDefaultedKeys;
  for (const Language& language : languages) {
    if (language.base) continue;
    // Not dead_ends: a record has its translations only where the entry has them.
    for (const char* key : {"signature", "root_cause", "workarounds"})
      keys.insert(language.key(key));
  }
  return keys;
}

bool is_default(const std::set<std::string>& defaulted, const std::string& key,
                const ordered_json& value) {
  if (!defaulted.count(key)) return false;
  if (value.is_null() || (value.is_structured() && value.empty())) return true;
  if (value.is_string() && value.get_ref<const std::string&>().empty()) {
    return key == "condition" || key == "how";
  }
  if (key == "transition_graph" && value.is_object()) {
    for (const auto& [name, list] : value.items()) {
      if (!list.empty()) return false;
    }
    return true;
  }
  return false;
}

void emit(YAML::Emitter& out, const ordered_json& value, const std::set<std::string>& defaulted);

// YAML 1.1 tools read an unquoted 2024-06-01 as a date; quoting keeps it text everywhere.
bool looks_like_date(const std::string& text) {
  return text.size() == 10 && text[4] == '-' && text[7] == '-' &&
         std::isdigit(static_cast<unsigned char>(text[0]));
}

void emit_string(YAML::Emitter& out, const std::string& text) {
  if (text.find('\n') != std::string::npos) {
    out << YAML::Literal << text;
  } else if (!plain_scalar_is_text(text) || looks_like_date(text)) {
    out << YAML::SingleQuoted << text;
  } else {
    out << text;
  }
}

void emit(YAML::Emitter& out, const ordered_json& value, const std::set<std::string>& defaulted) {
  switch (value.type()) {
    case ordered_json::value_t::object:
      out << YAML::BeginMap;
      for (const auto& [key, child] : value.items()) {
        if (is_default(defaulted, key, child)) continue;
        out << YAML::Key << key << YAML::Value;
        emit(out, child, defaulted);
      }
      out << YAML::EndMap;
      break;
    case ordered_json::value_t::array:
      if (value.empty()) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        break;
      }
      out << YAML::BeginSeq;
      for (const auto& child : value) emit(out, child, defaulted);
      out << YAML::EndSeq;
      break;
    case ordered_json::value_t::string:
      emit_string(out, value.get<std::string>());
      break;
    case ordered_json::value_t::null:
      out << YAML::Null;
      break;
    default:  // numbers and booleans: JSON's spelling is valid plain YAML (0.84, 1.0, true)
      out << value.dump();
  }
}

}  // namespace

std::string record_to_yaml(const ordered_json& record, const std::vector<Language>& languages) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetSeqFormat(YAML::Block);
  emit(out, record, defaulted_keys(languages));
  return std::string(out.c_str()) + "\n";
}

}  // namespace kbc
