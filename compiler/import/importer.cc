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

// Whether each text written as a block scalar (`|`), in order, lacks a final line break.
thread_local std::vector<bool>* block_strips = nullptr;

// A text that a block scalar holds exactly: `|` keeps one final line break, `|-` none (set by
// with_chomping). Leading white space would need an indentation indicator, and more than one
// final line break `|+`: such texts are double-quoted.
bool fits_block(const std::string& text) {
  return text.find('\n') != std::string::npos && !text.ends_with("\n\n") && text[0] != ' ' &&
         text[0] != '\n' && text[0] != '\t';
}

void emit_string(YAML::Emitter& out, const std::string& text) {
  if (fits_block(text) && block_strips) {
    block_strips->push_back(!text.ends_with('\n'));
    out << YAML::Literal << text;
  } else if (text.find('\n') != std::string::npos) {
    out << YAML::DoubleQuoted << text;
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

std::size_t indent_of(std::string_view line) {
  return std::min(line.find_first_not_of(' '), line.size());
}

// yaml-cpp writes every block scalar with `|`: those whose text lacks a final line break get
// `|-`. The indicators are found in the order the texts were written, each block's own lines
// (blank, or indented deeper than the line that opens it) passed over.
std::string with_chomping(const std::string& yaml, const std::vector<bool>& strips) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < yaml.size();) {
    const std::size_t end = std::min(yaml.find('\n', at), yaml.size());
    lines.push_back(std::string_view(yaml).substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  std::size_t block = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    const bool opens = lines[i].ends_with(": |") || lines[i].ends_with("- |") || lines[i] == "|";
    if (opens && block < strips.size()) {
      if (strips[block++]) out += '-';
      // The block's lines are indented deeper than its key (after a sequence's "- "), or than
      // the "- " of a sequence item that is the block itself.
      std::size_t indent = indent_of(lines[i]);
      if (!lines[i].ends_with("- |")) {
        while (lines[i].substr(indent).starts_with("- ")) indent += 2;
      }
      for (; i + 1 < lines.size(); ++i) {
        std::size_t next = i + 1;
        while (next < lines.size() && lines[next].find_first_not_of(' ') == std::string::npos)
          ++next;
        if (next == lines.size() || indent_of(lines[next]) <= indent) break;
        out += '\n';
        out += lines[i + 1];
      }
    }
    if (i + 1 < lines.size() || yaml.ends_with('\n')) out += '\n';
  }
  return out;
}

}  // namespace

std::string record_to_yaml(const ordered_json& record, const std::vector<Language>& languages) {
  std::vector<bool> strips;
  block_strips = &strips;
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetSeqFormat(YAML::Block);
  emit(out, record, defaulted_keys(languages));
  block_strips = nullptr;
  return with_chomping(out.c_str(), strips) + "\n";
}

}  // namespace kbc
