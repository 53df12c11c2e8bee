// Render: the Markdown page of one entry (the layout of seeds/000), in English or Chinese.
//
// The page is drawn from the published record, so the page and the JSON never disagree. The
// Chinese page uses the _zh texts where the entry has them and the English text where not.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "render/templates.h"

namespace kbc {

// `language` is "en" or "zh". Throws ToolError when the template is not valid mustache.
std::string markdown_page(const nlohmann::ordered_json& record, const std::string& language,
                          const TemplateSet& templates);

}  // namespace kbc
