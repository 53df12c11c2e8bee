// Render: the Markdown page of one entry (the layout of seeds/000), in English or Chinese.
//
// The page is drawn from the published record, so the page and the JSON never disagree. The
// Chinese page uses the _zh texts where the entry has them and the English text where not.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "render/templates.h"

namespace kbc {

// Renders pages from one compiled template. Not thread-safe: one renderer per thread.
class MarkdownRenderer {
 public:
  // Reads the template and the strings of `language` ("en" or "zh"); throws ToolError when the
  // template is not valid mustache.
  MarkdownRenderer(const TemplateSet& templates, const std::string& language);
  ~MarkdownRenderer();
  MarkdownRenderer(MarkdownRenderer&&) noexcept;

  std::string render(const nlohmann::ordered_json& record);

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace kbc
