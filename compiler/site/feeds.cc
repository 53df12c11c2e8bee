#include "site/feeds.h"

#include "base/text.h"
#include "render/record.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string date_time(const std::string& date) { return date + "T00:00:00Z"; }

}  // namespace

json atom_feed_model(const SiteModel& model, const Language& language, const json& strings) {
  const std::string& base = model.config().base_url;
  const std::string root = base + language.code + "/";
  const auto recent = model.recently_updated(20);
  const std::string updated = recent.empty()
                                  ? "1970-01-01"
                                  : string_field(*model.records()[recent.front()], "last_updated");
  json entries = json::array();
  for (std::size_t i : recent) {
    const ordered_json& r = *model.records()[i];
    entries.push_back(
        {{"title", model.title(i, language).text},
         {"url", base + site_entry_path(language.code, string_field(r, "id"))},
         {"updated", date_time(string_field(r, "last_updated"))},
         {"summary", first_sentence(localized_field(r, "root_cause", language), 300)}});
  }
  return {{"lang", language.html_lang},
          {"title", model.config().title + " — " +
                        strings.value("feed_title", std::string("Recently updated"))},
          {"root", root},
          {"self", root + "feed.xml"},
          {"home", root + "index.html"},
          {"updated", date_time(updated)},
          {"author", model.config().title},
          {"entries", std::move(entries)}};
}

json sitemap_model(const SiteModel& model) {
  const std::string& base = model.config().base_url;
  const auto& languages = model.languages();
  struct Page {
    std::string suffix, lastmod;
    std::vector<bool> in;  // per language: whether the page is its own (an entry translated)
  };
  const std::vector<bool> all(languages.size(), true);
  std::vector<Page> pages = {{"index.html", "", all}, {"search.html", "", all}};
  for (const auto& [domain, members] : model.domains())
    pages.push_back({"domains/" + domain + ".html", "", all});
  for (std::size_t i = 0; i < model.records().size(); ++i) {
    const ordered_json& record = *model.records()[i];
    std::vector<bool> in;
    for (const Language& language : languages) in.push_back(model.translated(i, language));
    pages.push_back({"entries/" + string_field(record, "id") + ".html",
                     string_field(record, "last_updated"), std::move(in)});
  }
  json urls = json::array();
  for (const Page& page : pages) {
    json alternates = json::array();
    for (std::size_t l = 0; l < languages.size(); ++l) {
      if (page.in[l])
        alternates.push_back({{"hreflang", languages[l].html_lang},
                              {"href", base + languages[l].code + "/" + page.suffix}});
    }
    alternates.push_back(
        {{"hreflang", "x-default"}, {"href", base + languages.front().code + "/" + page.suffix}});
    for (std::size_t l = 0; l < languages.size(); ++l) {
      if (!page.in[l]) continue;  // noindex, and canonical to the base language's page
      json url = {{"loc", base + languages[l].code + "/" + page.suffix},
                  {"alternates", alternates}};
      if (!page.lastmod.empty()) url["lastmod"] = page.lastmod;
      urls.push_back(std::move(url));
    }
  }
  return {{"urls", std::move(urls)}};
}

json llms_model(const SiteModel& model, const json& strings) {
  std::string pages;
  for (const Language& language : model.languages())
    pages += (pages.empty() ? "md/" : ", md/") + language.code + "/<id>.md";
  const std::string base_pages = "md/" + model.languages().front().code + "/";
  json domains = json::array();
  for (const auto& [domain, members] : model.domains()) {
    json entries = json::array();
    for (std::size_t i : members) {
      const ordered_json& r = *model.records()[i];
      std::string title = string_field(r, "signature");
      for (char& c : title) {
        if (c == '[' || c == ']' || c == '\n') c = ' ';  // inside a Markdown link's text
      }
      entries.push_back({{"title", title},
                         {"href", base_pages + string_field(r, "id") + ".md"},
                         {"summary", first_sentence(string_field(r, "root_cause"), 200)}});
    }
    domains.push_back({{"name", domain}, {"entries", std::move(entries)}});
  }
  return {
      {"title", model.config().title},
      {"summary", model.config().description.empty() ? strings.value("llms_summary", std::string())
                                                     : model.config().description},
      {"pages", pages},
      {"domains", std::move(domains)}};
}

}  // namespace kbc
