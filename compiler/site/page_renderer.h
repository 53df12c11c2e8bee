// The site's mustache templates (templates/site/), compiled once and rendered with a page's
// model over the UI strings of its language.
#pragma once

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "model/languages.h"
#include "render/templates.h"

namespace kbc {

// Not thread-safe: one per worker.
class PageRenderer {
 public:
  // `strings` are the UI strings of each of `languages`.
  PageRenderer(const TemplateSet& templates, const std::vector<Language>& languages,
               const std::vector<nlohmann::json>& strings);

  // The page of `language`: the body template (`home` for site/home.html.mustache) inside the
  // layout. The UI strings sit beneath the model in the context, so `{{t.home}}` resolves
  // without copying them into every model.
  std::string page(const std::string& language, const std::string& body_name,
                   const nlohmann::json& model);
  std::string page(const std::string& language, const std::string& body_name,
                   kainjow::mustache::data model);

  // A file of its own (`feed.xml` for site/feed.xml.mustache), from its model alone. The text of
  // an .xml file is escaped as the rest of kbc escapes XML (escape_html: ' as &#39;), of an
  // .html file as mustache does.
  std::string file(const std::string& name, const nlohmann::json& model);
  std::string file(const std::string& name, const kainjow::mustache::data& model);

 private:
  kainjow::mustache::mustache& get(const std::string& name);

  const TemplateSet& templates_;
  std::map<std::string, kainjow::mustache::mustache> compiled_;
  std::map<std::string, kainjow::mustache::data> strings_;
};

}  // namespace kbc
