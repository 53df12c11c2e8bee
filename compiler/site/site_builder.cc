#include "site/site_builder.h"

#include <kainjow/mustache.hpp>

#include <optional>

#include "base/parallel.h"
#include "base/text.h"
#include "base/timings.h"
#include "base/utf8.h"
#include "match/js_regex.h"
#include "match/log_lines.h"
#include "match/matcher.h"
#include "match/near_match.h"
#include "match/rank.h"
#include "render/mustache_data.h"
#include "render/record.h"
#include "resources.h"
#include "search/search_index.h"
#include "site/markdown_html.h"

namespace kbc {
namespace {

using kainjow::mustache::data;
using kainjow::mustache::mustache;
using nlohmann::json;
using nlohmann::ordered_json;

// The compiled templates of the site. Not thread-safe: one per worker.
class PageRenderer {
 public:
  // `strings` are the UI strings of each of `languages`.
  PageRenderer(const TemplateSet& templates, const std::vector<Language>& languages,
               const std::vector<json>& strings)
      : templates_(templates) {
    for (std::size_t l = 0; l < languages.size(); ++l) {
      data layer{data::type::object};
      put(layer, "t", to_mustache_data(strings[l]));
      strings_.emplace(languages[l].code, std::move(layer));
    }
  }

  // The page of `language`: the body template inside the layout. The UI strings sit beneath the
  // model in the context, so `{{t.home}}` resolves without copying them into every model.
  std::string page(const std::string& language, const std::string& body_name, const json& model) {
    return page(language, body_name, to_mustache_data(model));
  }
  std::string page(const std::string& language, const std::string& body_name, data model) {
    MustacheContext context(&strings_.at(language));
    context.push(&model);
    put(model, "search_form", render_mustache(get("search_form"), context));
    if (model.get("match_data"))
      put(model, "paste_box", render_mustache(get("paste_box"), context));
    put(model, "body", render_mustache(get(body_name), context));
    return render_mustache(get("layout"), context);
  }
  std::string standalone(const std::string& name, const json& model) {
    const data page = to_mustache_data(model);
    MustacheContext context(&page);
    return render_mustache(get(name), context);
  }

 private:
  mustache& get(const std::string& name) {
    auto it = compiled_.find(name);
    if (it == compiled_.end()) {
      const std::string file = "site/" + name + ".html.mustache";
      it = compiled_.emplace(name, mustache(templates_.text(file))).first;
      if (!it->second.is_valid())
        throw ToolError("templates/" + file + ": " + it->second.error_message());
    }
    return it->second;
  }
  const TemplateSet& templates_;
  std::map<std::string, mustache> compiled_;
  std::map<std::string, data> strings_;
};

std::string search_index(const SiteModel& model, const Language& language) {
  SearchIndex index;
  const auto& records = model.records();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ordered_json& r = *records[i];
    const std::string id = string_field(r, "id");
    std::string keywords;
    for (const char* key : {"tags", "aliases"}) {
      if (const auto it = r.find(key); it != r.end() && it->is_array()) {
        for (const auto& word : *it) {
          if (word.is_string()) keywords += word.get<std::string>() + " ";
        }
      }
    }
    const std::string title = model.title(i, language).text;
    const std::string root_cause = localized_field(r, "root_cause", language);
    const std::string signature = string_field(r, "signature");
    const std::string code = string_field(r, "error_code");
    std::vector<std::pair<std::string_view, int>> fields = {
        {code, 10}, {title, 8}, {signature, 8}, {id, 6}, {keywords, 5}, {root_cause, 1}};
    const std::string base_root_cause = string_field(r, "root_cause");
    // Readers of a translation search the base language's root cause too.
    if (!language.base) fields.push_back({base_root_cause, 1});
    index.add({site_entry_path("", id).substr(1), title, code, id, first_sentence(root_cause, 200)},
              fields);
  }
  return index.json(language.code);
}

std::string date_time(const std::string& date) { return date + "T00:00:00Z"; }

std::string atom_feed(const SiteModel& model, const Language& language, const json& strings) {
  const std::string& base = model.config().base_url;
  const std::string root = base + language.code + "/";
  const auto recent = model.recently_updated(20);
  const std::string updated = recent.empty()
                                  ? "1970-01-01"
                                  : string_field(*model.records()[recent.front()], "last_updated");
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  out += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"" + language.html_lang + "\">\n";
  out += "<title>" +
         escape_html(model.config().title + " — " +
                     strings.value("feed_title", std::string("Recently updated"))) +
         "</title>\n";
  out += "<id>" + escape_html(root) + "</id>\n";
  out += "<link rel=\"self\" href=\"" + escape_html(root + "feed.xml") + "\"/>\n";
  out += "<link rel=\"alternate\" type=\"text/html\" href=\"" + escape_html(root + "index.html") +
         "\"/>\n";
  out += "<updated>" + date_time(updated) + "</updated>\n";
  out += "<author><name>" + escape_html(model.config().title) + "</name></author>\n";
  for (std::size_t i : recent) {
    const ordered_json& r = *model.records()[i];
    const std::string url = base + site_entry_path(language.code, string_field(r, "id"));
    out += "<entry>\n<title>" + escape_html(model.title(i, language).text) + "</title>\n";
    out += "<id>" + escape_html(url) + "</id>\n";
    out += "<link rel=\"alternate\" type=\"text/html\" href=\"" + escape_html(url) + "\"/>\n";
    out += "<updated>" + date_time(string_field(r, "last_updated")) + "</updated>\n";
    out += "<summary>" +
           escape_html(first_sentence(localized_field(r, "root_cause", language), 300)) +
           "</summary>\n</entry>\n";
  }
  out += "</feed>\n";
  return out;
}

std::string sitemap(const SiteModel& model) {
  const std::string& base = model.config().base_url;
  std::vector<std::pair<std::string, std::string>> pages = {{"index.html", ""},
                                                            {"search.html", ""}};
  for (const auto& [domain, members] : model.domains())
    pages.push_back({"domains/" + domain + ".html", ""});
  for (const auto* record : model.records()) {
    pages.push_back({"entries/" + string_field(*record, "id") + ".html",
                     string_field(*record, "last_updated")});
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  out +=
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
  for (const auto& [suffix, lastmod] : pages) {
    for (const Language& language : model.languages()) {
      out += "<url>\n<loc>" + escape_html(base + language.code + "/" + suffix) + "</loc>\n";
      for (const Language& other : model.languages()) {
        out += "<xhtml:link rel=\"alternate\" hreflang=\"" + other.html_lang + "\" href=\"" +
               escape_html(base + other.code + "/" + suffix) + "\"/>\n";
      }
      out += "<xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"" +
             escape_html(base + model.languages().front().code + "/" + suffix) + "\"/>\n";
      if (!lastmod.empty()) out += "<lastmod>" + lastmod + "</lastmod>\n";
      out += "</url>\n";
    }
  }
  out += "</urlset>\n";
  return out;
}

std::string llms_txt(const SiteModel& model, const json& strings) {
  std::string out = "# " + model.config().title + "\n\n> " +
                    strings.value("llms_summary", std::string()) + "\n\n";
  std::string pages;
  for (const Language& language : model.languages())
    pages += (pages.empty() ? "md/" : ", md/") + language.code + "/<id>.md";
  out += "Every entry is published as a Markdown page (" + pages +
         ") and as a JSON record (api/<id>.json) that follows schema/entry.schema.json.\n";
  const std::string base_pages = "md/" + model.languages().front().code + "/";
  for (const auto& [domain, members] : model.domains()) {
    out += "\n## " + domain + "\n\n";
    for (std::size_t i : members) {
      const ordered_json& r = *model.records()[i];
      std::string title = string_field(r, "signature");
      for (char& c : title) {
        if (c == '[' || c == ']' || c == '\n') c = ' ';
      }
      out += "- [" + title + "](" + base_pages + string_field(r, "id") +
             ".md): " + first_sentence(string_field(r, "root_cause"), 200) + "\n";
    }
  }
  return out;
}

}  // namespace

MatchFigures match_figures(const SiteModel& model, const std::vector<BenignLine>* benign) {
  std::vector<MatchRecord> records;
  for (const auto* record : model.records()) records.push_back(match_record(*record));
  const Matcher matcher(std::move(records), MatchOptions{.benign = benign});
  MatchFigures figures;
  for (std::size_t i = 0; i < model.records().size(); ++i) {
    const Breadth breadth = matcher.breadth(i);
    figures.breadth_penalty.push_back(breadth_penalty(breadth.benign_lines, breadth.other_errors));
  }
  return figures;
}

namespace {

// The alternatives of `regex` more specific than it, most specific first, in JavaScript.
ordered_json js_alternatives(const std::string& regex) {
  ordered_json out = ordered_json::array();
  for (const auto& [specificity, alternative] : specific_alternatives(regex)) {
    const JsRegex js = js_regex(alternative);
    if (js.ok) out.push_back({specificity, js.source, js.flags});
  }
  return out;
}

ordered_json texts_field(const ordered_json& record, const char* key) {
  ordered_json out = ordered_json::array();
  const auto it = record.find(key);
  if (it == record.end() || !it->is_array()) return out;
  for (const auto& item : *it) {
    if (item.is_string()) out.push_back(item);
  }
  return out;
}

}  // namespace

std::string match_data(const SiteModel& model, const Language& language,
                       const MatchFigures& figures) {
  ordered_json entries = ordered_json::array();
  const auto& records = model.records();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ordered_json& r = *records[i];
    const std::string signature = string_field(r, "signature");
    const std::string regex = string_field(r, "regex");
    const JsRegex js = is_blank(regex) ? JsRegex{} : js_regex(regex);
    const SiteModel::Title title = model.title(i, language);
    const auto rate = r.find("fix_success_rate");
    entries.push_back(
        {string_field(r, "id"), signature,
         title.text == signature ? ordered_json() : ordered_json(title.text),
         js.ok ? ordered_json(js.source) : ordered_json(), js.flags, regex_specificity(regex),
         code_points(trim(signature)),
         rate_permille(rate != r.end() && rate->is_number() ? rate->get<double>() : 0.0), js.needs,
         figures.breadth_penalty.at(i), js.ok ? js_alternatives(regex) : ordered_json::array(),
         texts_field(r, "aliases"), string_field(r, "error_code"), texts_field(r, "tags")});
  }
  const ordered_json reading{{"ansi", kAnsiPattern},         {"prefix", kPrefixPattern},
                             {"max_prefixes", kMaxPrefixes}, {"context", kContextPattern},
                             {"key", kKeyLinePattern},       {"frame", kPythonFramePattern}};
  const ordered_json score{{"max_specificity", kMaxSpecificity},
                           {"specificity_weight", kSpecificityWeight},
                           {"signature_bonus", kSignatureBonus},
                           {"code_bonus", kCodeBonus},
                           {"key_line", kKeyLineWeight},
                           {"error_line", kErrorLineWeight},
                           {"context_line", kContextLineWeight},
                           {"min_score", kDefaultMinScore},
                           {"min_near_score", kMinNearScore},
                           {"code_weight", kCodeWeight},
                           {"near_lines", kNearLines}};
  return ordered_json{{"version", 2},
                      {"lang", language.code},
                      {"reading", reading},
                      {"score", score},
                      {"entries", entries}}
             .dump() +
         "\n";
}

namespace {

// The UI strings of every language, in the order of model.languages().
std::vector<json> all_strings(const SiteModel& model, const TemplateSet& templates) {
  std::vector<json> strings;
  for (const Language& language : model.languages())
    strings.push_back(templates.strings(language.code));
  return strings;
}

// Every entry's page in every language, on every core.
void add_entry_pages(const SiteModel& model, const TemplateSet& templates,
                     const std::vector<json>& strings, OutputTree& tree, Progress* progress) {
  const auto& languages = model.languages();
  const std::size_t count = model.records().size();
  std::vector<std::string> pages(count * languages.size());
  if (progress) progress->start("pages", pages.size());
  parallel_slices(pages.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    PageRenderer renderer(templates, languages, strings);
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t l = k / count, i = k % count;
      pages[k] =
          renderer.page(languages[l].code, "entry", model.entry_page(i, languages[l], strings[l]));
      if (progress) progress->advance();
    }
  });
  for (std::size_t k = 0; k < pages.size(); ++k) {
    const std::size_t l = k / count, i = k % count;
    tree.add("site/" + site_entry_path(languages[l].code, string_field(*model.records()[i], "id")),
             std::move(pages[k]));
  }
}

// The other files of each language's folder: search index, match data, home, search, not-found
// and domain pages, and the feed. The languages are spread over the cores, each worker with its
// own renderer.
void add_language_files(const SiteModel& model, const TemplateSet& templates,
                        const std::vector<json>& strings, OutputTree& tree,
                        const std::vector<BenignLine>* benign) {
  const auto& languages = model.languages();
  // For each of a language's three kinds of work, its files by path under site/. One list per
  // item, not per language: a language's items may fall in two workers' slices.
  std::vector<std::vector<std::pair<std::string, std::string>>> files(3 * languages.size());
  const MatchFigures figures = match_figures(model, benign);
  parallel_slices(
      3 * languages.size(),
      [&](std::size_t begin, std::size_t end, std::size_t) {
        std::optional<PageRenderer> renderer;
        for (std::size_t k = begin; k < end; ++k) {
          const Language& language = languages[k / 3];
          const std::string& code = language.code;
          auto& out = files[k];
          if (k % 3 == 0) {
            out.emplace_back(code + "/search-index.json", search_index(model, language));
          } else if (k % 3 == 1) {
            out.emplace_back(code + "/match.json", match_data(model, language, figures));
          } else {
            if (!renderer) renderer.emplace(templates, languages, strings);
            const json& text = strings[k / 3];
            out.emplace_back(code + "/index.html",
                             renderer->page(code, "home", model.home_page(language, text)));
            out.emplace_back(
                code + "/search.html",
                renderer->page(code, "search", model.plain_page("search", language, text)));
            out.emplace_back(
                code + "/404.html",
                renderer->page(code, "not_found", model.plain_page("404", language, text)));
            for (const auto& [domain, members] : model.domains()) {
              out.emplace_back(site_domain_path(code, domain),
                               renderer->page(code, "domain", model.domain_page(domain, language)));
            }
            if (!model.config().base_url.empty())
              out.emplace_back(code + "/feed.xml", atom_feed(model, language, text));
          }
        }
      },
      1);
  for (auto& item_files : files) {
    for (auto& [path, content] : item_files) tree.add("site/" + path, std::move(content));
  }
}

// The model of site/index.html, which sends a browser to the first language it prefers that the
// site has (`translations` are tried in order, then the base language) and lists them all.
json root_page(const SiteModel& model) {
  const Language& base = model.languages().front();
  json root = {{"site_title", model.config().title},
               {"base_lang", base.html_lang},
               {"base_code", base.code},
               {"translations", json::array()}};
  for (const Language& language : model.languages()) {
    const std::string href = language.code + "/index.html";
    root["languages"].push_back(
        {{"href", href}, {"hreflang", language.html_lang}, {"name", language.name}});
    root["alternates"].push_back({{"hreflang", language.html_lang}, {"href", href}});
    if (!language.base) root["translations"].push_back({{"code", language.code}});
  }
  root["alternates"].push_back({{"hreflang", "x-default"}, {"href", base.code + "/index.html"}});
  return root;
}

// The model of site/404.html, the page static hosts (GitHub Pages, Netlify, Cloudflare Pages)
// serve for any missing address: each language's "not found" text, search box and home link,
// relative to the site's root (with a base_url, a <base> makes them so at any depth; without one,
// the page's script finds the root).
json root_not_found_page(const SiteModel& model, const std::vector<json>& strings) {
  const std::string& base_url = model.config().base_url;
  const auto text = [&](std::size_t language, const char* key) {
    return strings[language].value(key, std::string());
  };
  json page = {{"site_title", model.config().title},
               {"base_lang", model.languages().front().html_lang},
               {"title", text(0, "not_found_title")},
               {"languages", json::array()}};
  if (!base_url.empty()) page["base_href"] = base_url;
  for (std::size_t k = 0; k < model.languages().size(); ++k) {
    const Language& language = model.languages()[k];
    page["languages"].push_back({{"code", language.code},
                                 {"hreflang", language.html_lang},
                                 {"title", text(k, "not_found_title")},
                                 {"text", text(k, "not_found_text")},
                                 {"label", text(k, "search_label")},
                                 {"button", text(k, "search_button")},
                                 {"back_home", text(k, "back_home")},
                                 {"search", language.code + "/search.html"},
                                 {"home", language.code + "/index.html"}});
  }
  return page;
}

}  // namespace

void build_site(const SiteModel& model, const TemplateSet& templates, OutputTree& tree,
                Progress* progress, const std::vector<BenignLine>* benign) {
  const auto add = [&tree](const std::string& path, std::string content) {
    tree.add("site/" + path, std::move(content));
  };
  const std::vector<json> strings = all_strings(model, templates);
  for (const char* name : {"layout", "search_form", "paste_box", "entry", "home", "domain",
                           "search", "not_found", "root", "root_not_found"}) {
    templates.text(std::string("site/") + name + ".html.mustache");  // read once, before workers
  }
  {
    const Phase phase("entry pages");
    add_entry_pages(model, templates, strings, tree, progress);
  }
  {
    const Phase phase("other pages and indexes");
    add_language_files(model, templates, strings, tree, benign);
  }
  PageRenderer renderer(templates, model.languages(), strings);
  add("index.html", renderer.standalone("root", root_page(model)));
  add("404.html", renderer.standalone("root_not_found", root_not_found_page(model, strings)));

  std::string robots = "User-agent: *\nAllow: /\n";
  if (!model.config().base_url.empty()) {
    robots += "Sitemap: " + model.config().base_url + "sitemap.xml\n";
    add("sitemap.xml", sitemap(model));
  }
  add("robots.txt", robots);
  add("llms.txt", llms_txt(model, strings.front()));
  for (const char* asset :
       {"site/assets/style.css", "site/assets/search.js", "site/assets/match.js"}) {
    const auto content = embedded_resource(asset);
    if (!content) throw ToolError(std::string(asset) + " is missing from this build");
    add(std::string(asset).substr(5), std::string(*content));
  }
  add("schema/entry.schema.json", entry_schema_text(model.languages()));
}

namespace {

void check_page_links(const OutputTree& tree, std::string_view prefix, const std::string& path,
                      const std::string& content, Diagnostics& out) {
  const std::string folder = path.substr(0, path.rfind('/') + 1);
  for (const std::string_view attribute : {" href=\"", " src=\""}) {
    for (std::size_t at = content.find(attribute); at != std::string::npos;
         at = content.find(attribute, at + 1)) {
      const std::size_t start = at + attribute.size();
      const std::size_t end = content.find('"', start);
      if (end == std::string::npos) break;
      std::string target = content.substr(start, end - start);
      if (target.empty() || target.starts_with('#') || target.find(':') < target.find('/') ||
          target.starts_with("//"))
        continue;  // a fragment, or an absolute URL (https:, mailto:): not ours to check
      target = target.substr(0, target.find_first_of("?#"));
      // Resolve against the page's folder.
      std::vector<std::string> segments;
      bool escaped = false;
      std::string joined = folder + target;
      std::size_t from = 0;
      while (from <= joined.size()) {
        std::size_t slash = joined.find('/', from);
        if (slash == std::string::npos) slash = joined.size();
        const std::string segment = joined.substr(from, slash - from);
        if (segment == "..") {
          if (segments.empty())
            escaped = true;
          else
            segments.pop_back();
        } else if (!segment.empty() && segment != ".") {
          segments.push_back(segment);
        }
        from = slash + 1;
      }
      std::string resolved;
      for (const std::string& segment : segments)
        resolved += (resolved.empty() ? "" : "/") + segment;
      if (target.ends_with('/') || resolved.empty()) resolved += "/index.html";
      if (!escaped && resolved.starts_with(prefix) && tree.files().count(resolved)) continue;
      const auto [line, column] = line_column_at(content, start);
      out.push_back({path,
                     {line, column},
                     Severity::kError,
                     "broken link to '" + content.substr(start, end - start) + "'",
                     "site-link",
                     ""});
    }
  }
}

}  // namespace

Diagnostics check_site_links(const OutputTree& tree, std::string_view prefix) {
  std::vector<const std::pair<const std::string, std::string>*> pages;
  for (const auto& file : tree.files()) {
    if (file.first.starts_with(prefix) && file.first.ends_with(".html")) pages.push_back(&file);
  }
  std::vector<Diagnostics> found(pages.size());
  parallel_slices(pages.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i)
      check_page_links(tree, prefix, pages[i]->first, pages[i]->second, found[i]);
  });
  Diagnostics out;
  for (Diagnostics& page : found) out.insert(out.end(), page.begin(), page.end());
  return out;
}

}  // namespace kbc
