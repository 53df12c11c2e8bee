// The models of the site's machine-read files: each language's Atom feed (feed.xml), the
// sitemap (sitemap.xml) and llms.txt, rendered through templates/site/<file>.mustache.
#pragma once

#include <nlohmann/json.hpp>

#include "model/languages.h"
#include "site/site_model.h"

namespace kbc {

// The 20 most recently updated entries of `language`, with absolute links (needs base_url).
nlohmann::json atom_feed_model(const SiteModel& model, const Language& language,
                               const nlohmann::json& strings);

// Every page of every language, with its alternates in the others and, for an entry, its
// last_updated (needs base_url).
nlohmann::json sitemap_model(const SiteModel& model);

// The knowledge base for language models (llmstxt.org): where its Markdown pages and records
// are, and each domain's entries with the first sentence of their root cause. `strings`: the
// base language's UI strings.
nlohmann::json llms_model(const SiteModel& model, const nlohmann::json& strings);

}  // namespace kbc
