// Stage 3 of the pipeline: the shape of an entry, checked against schema/entry.schema.json.
//
// The JSON Schema is the single source of truth for keys, types, enums, ranges and patterns.
// valijson does the validation; this stage turns its results into Diagnostics that point at
// the YAML node at fault and say what was expected. Unknown keys are found by walking the
// schema's `properties` here, because valijson names only the first one and cannot suggest
// the key that was meant.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "base/diagnostic.h"
#include "load/yaml_loader.h"

namespace kbc {

class SchemaValidator {
 public:
  // Throws ToolError when `schema` is not a schema valijson understands.
  explicit SchemaValidator(nlohmann::json schema);
  ~SchemaValidator();
  SchemaValidator(const SchemaValidator&) = delete;
  SchemaValidator& operator=(const SchemaValidator&) = delete;

  // Appends a diagnostic for every way `document` departs from the schema; false when it does.
  bool validate(const std::string& path, const nlohmann::json& value, const SourceMap& sources,
                Diagnostics& out) const;

  // The subschema that describes the node at `pointer` ($refs resolved), or nullptr.
  const nlohmann::json* subschema_at(std::string_view pointer) const;
  // The subschema of the child `segment` (a key, or an array index in decimal) of a node that
  // `node` describes, $refs resolved; nullptr when none or when `node` is nullptr.
  const nlohmann::json* subschema_below(const nlohmann::json* node,
                                        const std::string& segment) const;

 private:
  const nlohmann::json* resolved(const nlohmann::json* node) const;  // its $refs followed

  struct Compiled;
  nlohmann::json schema_;
  std::unique_ptr<Compiled> compiled_;
};

// `dead_ends[0].action` for "/dead_ends/0/action": how diagnostics name a node.
std::string display_name(std::string_view pointer);

}  // namespace kbc
