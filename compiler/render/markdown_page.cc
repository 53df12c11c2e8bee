#include "render/markdown_page.h"

#include <kainjow/mustache.hpp>

#include <cmath>

#include "base/diagnostic.h"
#include "base/text.h"
#include "render/mustache_data.h"
#include "render/record.h"

namespace kbc {
namespace {

using kainjow::mustache::data;
using kainjow::mustache::mustache;
using nlohmann::ordered_json;

std::string percent(const ordered_json& rate) {
  return rate.is_number() ? std::to_string(whole_percent(rate.get<double>())) : "?";
}

// The action of the i-th item of `list` in `language`: from the translated list
// (workarounds_zh), falling back to the item's own.
std::string action(const ordered_json& record, const char* list, std::size_t i,
                   const Language& language) {
  const std::string translated = translated_action(record, list, i, language);
  return translated.empty() ? string_field(record[list][i], "action") : translated;
}

// A code fence longer than any run of backticks inside the code.
std::string fence_for(const std::string& code) {
  std::size_t longest = 0, run = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string indent_lines(const std::string& code, const std::string& indent) {
  std::string out;
  for (char c : code) {
    out += c;
    if (c == '\n') out += indent;
  }
  while (out.ends_with(indent) || out.ends_with('\n')) out.resize(out.find_last_not_of(" \n") + 1);
  return out;
}

data versions(const ordered_json& record) {
  data list{data::type::list};
  for (const auto& item : record["versions"]) {
    data row;
    put(row, "version", string_field(item, "version"));
    put(row, "status", item["status"].is_string() ? string_field(item, "status") : "—");
    put(row, "introduced", item["introduced"].is_string() ? string_field(item, "introduced") : "—");
    put(row, "deprecated", item["deprecated"].is_string() ? string_field(item, "deprecated") : "—");
    append(list, std::move(row));
  }
  return list;
}

data workarounds(const ordered_json& record, const Language& language) {
  data list{data::type::list};
  const auto& items = record["workarounds"];
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& item = items[i];
    data row;
    put(row, "number", std::to_string(i + 1));
    put(row, "action", action(record, "workarounds", i, language));
    put(row, "success", percent(item["success_rate"]));
    const std::string how = string_field(item, "how");
    put_text(row, "how", indent_lines(how, "   "));
    put(row, "fence", fence_for(how));
    put_text(row, "condition", string_field(item, "condition"));
    put_text(row, "tradeoff", string_field(item, "tradeoff"));
    append(list, std::move(row));
  }
  return list;
}

data dead_ends(const ordered_json& record, const Language& language) {
  data list{data::type::list};
  const auto& items = record["dead_ends"];
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& item = items[i];
    data row;
    put(row, "action", action(record, "dead_ends", i, language));
    put(row, "why_fails", string_field(item, "why_fails"));
    put(row, "fail", percent(item["fail_rate"]));
    put_text(row, "common_misconception", string_field(item, "common_misconception"));
    append(list, std::move(row));
  }
  return list;
}

// The UI strings as the layer beneath every page: {{t.<key>}}.
data labels(const nlohmann::json& strings) {
  data table;
  for (const auto& [key, value] : strings.items()) {
    if (value.is_string()) put(table, key, value.get<std::string>());
  }
  data layer;
  put(layer, "t", std::move(table));
  return layer;
}

data page_data(const ordered_json& record, const Language& language) {
  const auto localized = [&](const char* key) { return localized_field(record, key, language); };
  data page;
  put(page, "id", string_field(record, "id"));
  put(page, "signature", localized("signature"));
  put(page, "domain", string_field(record, "domain"));
  put(page, "category", string_field(record, "category"));
  put_text(page, "error_code", string_field(record, "error_code"));
  put(page, "verification_tier", string_field(record, "verification_tier"));
  put(page, "fix_rate", percent(record["fix_success_rate"]));
  put(page, "root_cause", localized("root_cause"));
  put(page, "has_versions", !record["versions"].empty());
  put(page, "versions", versions(record));
  put(page, "has_workarounds", !record["workarounds"].empty());
  put(page, "workarounds", workarounds(record, language));
  put(page, "has_dead_ends", !record["dead_ends"].empty());
  put(page, "dead_ends", dead_ends(record, language));
  return page;
}

}  // namespace

struct MarkdownRenderer::Compiled {
  mustache page_template;
  data labels;
  Language language;
};

MarkdownRenderer::MarkdownRenderer(const TemplateSet& templates, const Language& language)
    : compiled_(std::make_unique<Compiled>(Compiled{mustache(templates.text("page.md.mustache")),
                                                    labels(templates.strings(language.code)),
                                                    language})) {
  if (!compiled_->page_template.is_valid()) {
    throw ToolError("templates/page.md.mustache: " + compiled_->page_template.error_message());
  }
}

MarkdownRenderer::~MarkdownRenderer() = default;
MarkdownRenderer::MarkdownRenderer(MarkdownRenderer&&) noexcept = default;

std::string MarkdownRenderer::render(const ordered_json& record) {
  const data page = page_data(record, compiled_->language);
  MustacheContext context(&compiled_->labels);
  context.push(&page);
  return render_mustache(compiled_->page_template, context);
}

}  // namespace kbc
