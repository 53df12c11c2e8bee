// The site's settings from kbc.yaml (`title`, `base_url`, `description`, `edit_url`): a plain
// struct of the model, so that reading kbc.yaml does not depend on the site's page models or their
// template engine.
#pragma once

#include <string>

namespace kbc {

struct SiteConfig {
  std::string title = "Error knowledge base";
  std::string base_url;     // "" or an absolute URL ending in '/'
  std::string description;  // "" for the UI strings' own (home_intro)
  std::string edit_url;     // "" or an address with "{path}" for the entry's file
  // `logo` and `favicon`: a file of the knowledge base published under assets/ ("logo.png"),
  // or an empty name for kbc's own icon.
  struct Image {
    std::string name;  // under site/assets/
    std::string bytes;
  };
  Image logo, favicon;
};

}  // namespace kbc
