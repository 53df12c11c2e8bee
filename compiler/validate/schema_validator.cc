#include "validate/schema_validator.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "base/json_pointer.h"
#include "base/text.h"
#include "base/utf8.h"

namespace kbc {
namespace {

using nlohmann::json;

std::string describe_type(std::string_view type) {
  if (type == "string") return "text";
  if (type == "number") return "a number";
  if (type == "integer") return "a whole number";
  if (type == "array") return "a list";
  if (type == "object") return "a mapping";
  if (type == "boolean") return "true or false";
  if (type == "null") return "null";
  return std::string(type);
}

// A text longer than this is described by its length in a message, not quoted.
constexpr std::size_t kShownTextBytes = 200;
// valijson checks a `pattern` with std::regex, which recurses once per character: a text of
// 30,000 characters overflows the stack. A longer text is checked with RE2 instead.
constexpr std::size_t kMostStdRegexBytes = 1024;

// The characters (code points) of the text `value`.
std::size_t characters(const json& value) {
  return code_points(value.get_ref<const std::string&>());
}

// The message for the text `value`, named `name`, past its schema's maxLength.
std::string too_long(const std::string& name, const json& value, const json& schema) {
  return name + " is " + std::to_string(characters(value)) + " characters long; the most is " +
         schema.at("maxLength").dump();
}

std::string describe_value(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      if (value.get_ref<const std::string&>().size() > kShownTextBytes)
        return "text of " + std::to_string(characters(value)) + " characters";
      return "text '" + value.get<std::string>() + "'";
    case json::value_t::array:
      return "a list";
    case json::value_t::object:
      return "a mapping";
    case json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case json::value_t::null:
      return "null";
    default:
      return value.dump();
  }
}

std::string expected_types(const json& subschema) {
  const json& type = subschema.at("type");
  if (type.is_string()) return describe_type(type.get<std::string>());
  std::string out;
  for (std::size_t i = 0; i < type.size(); ++i) {
    if (i > 0) out += i + 1 == type.size() ? " or " : ", ";
    out += describe_type(type[i].get<std::string>());
  }
  return out;
}

std::string pointer_of(const std::vector<std::string>& context) {
  std::string pointer;
  for (std::size_t i = 1; i < context.size(); ++i) {  // context[0] is "<root>"
    const std::string& part = context[i];
    pointer = pointer_append(pointer, part.size() >= 2 ? part.substr(1, part.size() - 2) : part);
  }
  return pointer;
}

bool is_summary(const std::string& description) {
  return description.starts_with("Failed to validate against") ||
         description.starts_with("Failed to validate item") ||
         description.starts_with("Object contains a property");  // reported as unknown-key
}

std::string format_number(double value) {
  json number = value;
  if (value == std::floor(value) && std::abs(value) < 1e15)
    number = static_cast<std::int64_t>(value);
  return number.dump();
}

}  // namespace

struct SchemaValidator::Compiled {
  valijson::Schema schema;
};

namespace {
// valijson caches compiled `pattern` regexes in its Validator; one per thread keeps that cache.
valijson::Validator& thread_validator() {
  thread_local valijson::Validator validator;
  return validator;
}
}  // namespace

SchemaValidator::SchemaValidator(json schema)
    : schema_(std::move(schema)), compiled_(std::make_unique<Compiled>()) {
  try {
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(schema_);
    parser.populateSchema(adapter, compiled_->schema);
  } catch (const std::exception& e) {
    throw ToolError(std::string("invalid entry schema: ") + e.what());
  }
}

SchemaValidator::~SchemaValidator() = default;

const json* SchemaValidator::resolved(const json* node) const {
  while (node && node->is_object() && node->contains("$ref")) {
    const std::string& ref = node->at("$ref").get_ref<const std::string&>();
    if (!ref.starts_with("#")) return nullptr;
    const json::json_pointer target(ref.substr(1));
    node = schema_.contains(target) ? &schema_.at(target) : nullptr;
  }
  return node;
}

const json* SchemaValidator::subschema_below(const json* node, const std::string& segment) const {
  if (!node || !node->is_object()) return nullptr;
  if (const auto properties = node->find("properties");
      properties != node->end() && properties->contains(segment)) {
    node = &properties->at(segment);
  } else if (const auto items = node->find("items"); items != node->end()) {
    node = &*items;
  } else if (const auto more = node->find("additionalProperties");
             more != node->end() && more->is_object()) {
    node = &*more;
  } else {
    return nullptr;
  }
  return resolved(node);
}

const json* SchemaValidator::subschema_at(std::string_view pointer) const {
  const json* node = resolved(&schema_);
  for (const std::string& segment : split_pointer(pointer)) node = subschema_below(node, segment);
  return node;
}

std::string display_name(std::string_view pointer) {
  std::string out;
  for (const std::string& segment : split_pointer(pointer)) {
    const bool index =
        !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
    if (index) {
      out += "[" + segment + "]";
    } else {
      out += (out.empty() ? "" : ".") + segment;
    }
  }
  return out.empty() ? "the entry" : out;
}

namespace {

// Walks the instance beside its schema and reports every key the schema does not allow.
class UnknownKeyWalker {
 public:
  UnknownKeyWalker(const SchemaValidator& validator, const std::string& path,
                   const SourceMap& sources, Diagnostics& out)
      : validator_(validator), path_(path), sources_(sources), out_(out) {}

  // `schema`: the subschema of the node at `pointer` (SchemaValidator::subschema_at), carried
  // down the walk rather than found again from the root for every node.
  void walk(const json& value, const std::string& pointer, const json* schema) {
    if (!schema || !schema->is_object()) return;
    if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string index = std::to_string(i);
        walk(value[i], pointer_append(pointer, index), validator_.subschema_below(schema, index));
      }
    }
    if (!value.is_object()) return;
    static const json empty = json::object();
    const auto properties_at = schema->find("properties");
    const json& properties = properties_at != schema->end() ? *properties_at : empty;
    const auto more = schema->find("additionalProperties");
    const bool closed = more != schema->end() && *more == false;
    for (const auto& [key, child] : value.items()) {
      const std::string child_pointer = pointer_append(pointer, key);
      if (closed && !properties.contains(key)) {
        report(key, properties, child_pointer);
      } else {
        walk(child, child_pointer, validator_.subschema_below(schema, key));
      }
    }
  }

 private:
  void report(const std::string& key, const json& properties, const std::string& pointer) {
    std::vector<std::string> known;
    for (const auto& [name, ignored] : properties.items()) known.push_back(name);
    std::string message = "unknown key '" + key + "'";
    if (const auto suggestion = closest_match(key, known))
      message += "; did you mean '" + *suggestion + "'?";
    out_.push_back({path_, sources_.find(pointer).key, Severity::kError, message,
                    "schema-unknown-key", "", pointer});
  }

  const SchemaValidator& validator_;
  const std::string& path_;
  const SourceMap& sources_;
  Diagnostics& out_;
};

// The long texts that a pattern applies to (over kMostStdRegexBytes, which valijson's
// std::regex would take too long on): `value` with them blank, for valijson, and their
// pointers, whose length and pattern are checked here instead.
struct LongTexts {
  std::set<std::string> pointers;
  std::optional<json> shortened;  // nullopt when there is none
};

LongTexts check_long_texts(const SchemaValidator& validator, const std::string& path,
                           const json& value, const SourceMap& sources, Diagnostics& out) {
  LongTexts found;
  const auto walk = [&](const auto& self, const json& node, const std::string& pointer) -> void {
    if (node.is_string() && node.get_ref<const std::string&>().size() > kMostStdRegexBytes) {
      const json* schema = validator.subschema_at(pointer);
      if (!schema || !schema->contains("pattern") || !schema->at("pattern").is_string()) return;
      if (!found.shortened) found.shortened = value;
      found.shortened->at(json::json_pointer(pointer)) = "";
      found.pointers.insert(pointer);
      if (const json* most = schema->contains("maxLength") ? &schema->at("maxLength") : nullptr;
          most && most->is_number_unsigned() && characters(node) > most->get<std::size_t>()) {
        out.push_back({path, sources.find(pointer).value, Severity::kError,
                       too_long(display_name(pointer), node, *schema), "schema", "", pointer});
      }
      const std::string& pattern = schema->at("pattern").get_ref<const std::string&>();
      const RE2 regex(pattern, RE2::Quiet);
      if (!regex.ok() || !RE2::PartialMatch(node.get_ref<const std::string&>(), regex)) {
        out.push_back({path, sources.find(pointer).value, Severity::kError,
                       display_name(pointer) + " " + describe_value(node) +
                           " does not match the pattern " + pattern,
                       "schema", "", pointer});
      }
    } else if (node.is_object()) {
      for (const auto& [key, item] : node.items()) self(self, item, pointer_append(pointer, key));
    } else if (node.is_array()) {
      for (std::size_t i = 0; i < node.size(); ++i)
        self(self, node[i], pointer + "/" + std::to_string(i));
    }
  };
  walk(walk, value, "");
  return found;
}

// What valijson said of the node at `pointer`, in the words of kbc's diagnostics: the message
// and the pointer at fault (for a missing key, the key's own). nullopt for what another check
// reports (a rate that is not finite: entry-rate-finite).
std::optional<std::pair<std::string, std::string>> schema_message(const SchemaValidator& validator,
                                                                  const std::string& description,
                                                                  const std::string& pointer,
                                                                  const json& value) {
  const json::json_pointer json_pointer(pointer);
  const json* node = value.contains(json_pointer) ? &value.at(json_pointer) : nullptr;
  const json* schema = validator.subschema_at(pointer);
  const std::string name = display_name(pointer);
  if (description.starts_with("Value type not permitted") && schema && node)
    return std::pair{
        name + " must be " + expected_types(*schema) + ", not " + describe_value(*node), pointer};
  if (description.starts_with("Failed to match against any enum") && schema && node) {
    std::string options;
    for (const json& option : schema->at("enum"))
      options += (options.empty() ? "" : ", ") + option.dump();
    return std::pair{name + " must be one of " + options + ", not " + describe_value(*node),
                     pointer};
  }
  if (description.starts_with("Missing required property")) {
    const std::size_t quote = description.find('\'');
    const std::string key = description.substr(quote + 1, description.rfind('\'') - quote - 1);
    return std::pair{"missing required key '" + key + "'" + (pointer.empty() ? "" : " in " + name),
                     pointer_append(pointer, key)};
  }
  if (description.starts_with("String should be no more than") && schema && node)
    return std::pair{too_long(name, *node, *schema), pointer};
  if (description.starts_with("Failed to match regex") && schema && node)
    return std::pair{name + " " + describe_value(*node) + " does not match the pattern " +
                         schema->at("pattern").get<std::string>(),
                     pointer};
  if (description.starts_with("Expected number") && schema && node) {
    if (node->is_number() && !std::isfinite(node->get<double>())) return std::nullopt;
    if (!schema->contains("maximum"))
      return std::pair{name + " must be at least " + format_number(schema->value("minimum", 0.0)) +
                           ", not " + describe_value(*node),
                       pointer};
    return std::pair{name + " must be between " + format_number(schema->value("minimum", 0.0)) +
                         " and " + format_number(schema->value("maximum", 0.0)) + ", not " +
                         describe_value(*node),
                     pointer};
  }
  return std::pair{name + ": " + description, pointer};
}

}  // namespace

bool SchemaValidator::validate(const std::string& path, const json& value, const SourceMap& sources,
                               Diagnostics& out) const {
  const std::size_t before = out.size();
  UnknownKeyWalker(*this, path, sources, out).walk(value, "", subschema_at(""));
  const LongTexts long_texts = check_long_texts(*this, path, value, sources, out);
  valijson::Validator& validator = thread_validator();
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(long_texts.shortened ? *long_texts.shortened
                                                                      : value);
  validator.validate(compiled_->schema, target, &results);
  for (const auto& error : results) {
    if (is_summary(error.description)) continue;
    const std::string pointer = pointer_of(error.context);
    if (long_texts.pointers.count(pointer)) continue;
    if (auto message = schema_message(*this, error.description, pointer, value)) {
      out.push_back({path, sources.find(pointer).value, Severity::kError, std::move(message->first),
                     "schema", "", std::move(message->second)});
    }
  }
  return out.size() == before;
}

}  // namespace kbc
