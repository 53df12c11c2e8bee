// The page templates and UI strings: a knowledge base's own templates/ folder first, then the
// copies built into kbc.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "base/file_system.h"

namespace kbc {

class TemplateSet {
 public:
  TemplateSet(const FileSystem& fs, std::string root) : fs_(fs), root_(std::move(root)) {}

  // The text of templates/<name>; throws ToolError when neither copy exists.
  const std::string& text(const std::string& name) const;
  // templates/strings/<language>.json, parsed; throws ToolError when it is not valid JSON.
  const nlohmann::json& strings(const std::string& language) const;

 private:
  const FileSystem& fs_;
  std::string root_;
  mutable std::map<std::string, std::string> texts_;
  mutable std::map<std::string, nlohmann::json> strings_;
};

}  // namespace kbc
