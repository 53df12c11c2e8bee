// Render: the Markdown page of one entry (the layout of seeds/000), in one of its languages.
//
// The page is drawn from the published record, so the page and the JSON never disagree. The page
// of a language other than the base uses its texts (the _zh ones in Chinese) where the entry has
// them and the base language's where not.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "model/languages.h"
#include "render/templates.h"

namespace kbc {

// Renders pages from one compiled template. Not thread-safe: one renderer per thread.
class MarkdownRenderer {
 public:
  // Reads the template and the strings of `language`; throws ToolError when the template is not
  // valid mustache.
  MarkdownRenderer(const TemplateSet& templates, const Language& language);
  ~MarkdownRenderer();
  MarkdownRenderer(MarkdownRenderer&&) noexcept;

  std::string render(const nlohmann::ordered_json& record);

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace kbc
