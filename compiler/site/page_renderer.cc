#include "site/page_renderer.h"

#include "base/diagnostic.h"
#include "render/mustache_data.h"
#include "site/markdown_html.h"

namespace kbc {

using kainjow::mustache::data;
using kainjow::mustache::mustache;
using nlohmann::json;

PageRenderer::PageRenderer(const TemplateSet& templates, const std::vector<Language>& languages,
                           const std::vector<json>& strings)
    : templates_(templates) {
  for (std::size_t l = 0; l < languages.size(); ++l) {
    data layer{data::type::object};
    put(layer, "t", to_mustache_data(strings[l]));
    strings_.emplace(languages[l].code, std::move(layer));
  }
}

std::string PageRenderer::page(const std::string& language, const std::string& body_name,
                               const json& model) {
  return page(language, body_name, to_mustache_data(model));
}

std::string PageRenderer::page(const std::string& language, const std::string& body_name,
                               data model) {
  MustacheContext context(&strings_.at(language));
  context.push(&model);
  put(model, "search_form", render_mustache(get("search_form.html"), context));
  if (model.get("match_data"))
    put(model, "paste_box", render_mustache(get("paste_box.html"), context));
  put(model, "body", render_mustache(get(body_name + ".html"), context));
  return render_mustache(get("layout.html"), context);
}

std::string PageRenderer::file(const std::string& name, const json& model) {
  return file(name, to_mustache_data(model));
}

std::string PageRenderer::file(const std::string& name, const data& model) {
  MustacheContext context(&model);
  return render_mustache(get(name), context);
}

mustache& PageRenderer::get(const std::string& name) {
  auto it = compiled_.find(name);
  if (it == compiled_.end()) {
    const std::string file = "site/" + name + ".mustache";
    it = compiled_.emplace(name, mustache(templates_.text(file))).first;
    if (!it->second.is_valid())
      throw ToolError("templates/" + file + ": " + it->second.error_message());
    if (name.ends_with(".xml"))
      it->second.set_custom_escape([](const std::string& text) { return escape_html(text); });
  }
  return it->second;
}

}  // namespace kbc
