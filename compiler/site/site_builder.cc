#include "site/site_builder.h"

#include <optional>
#include <ostream>

#include "base/digest.h"
#include "base/parallel.h"
#include "base/text.h"
#include "base/timings.h"
#include "base/utf8.h"
#include "match/log_lines.h"
#include "match/matcher.h"
#include "match/near_match.h"
#include "match/rank.h"
#include "render/record.h"
#include "resources.h"
#include "search/search_index.h"
#include "site/feeds.h"
#include "site/page_renderer.h"

namespace kbc {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The documents of a language's search index (search/d<k>.json), a chunk at a time: with `salt`
// (search index keys), a chunk the output holds from the same records is reused.
void add_search_documents(const SiteModel& model, const Language& language, const std::string& salt,
                          OutputTree& tree) {
  const std::string folder = "site/" + language.code + "/search/";
  for (std::size_t first = 0; first < model.size(); first += SearchIndex::kDocChunk) {
    const std::size_t end = std::min(model.size(), first + SearchIndex::kDocChunk);
    const std::string path =
        folder + "d" + std::to_string(first / SearchIndex::kDocChunk) + ".json";
    std::string key;
    if (!salt.empty()) {
      Digest digest;
      digest.add("search documents 1").add(salt).add(end - first);
      for (std::size_t i = first; i < end; ++i) digest.add(model.record_digest(i));
      key = digest.hex();
      if (tree.reuse(path, key)) continue;
    }
    std::vector<SearchIndex::Document> documents;
    for (std::size_t i = first; i < end; ++i) {
      const RecordRow& r = model.row(i);
      documents.push_back({site_entry_path("", r.id).substr(1), model.title(i, language).text,
                           r.error_code, r.id, r.domain,
                           first_sentence(model.root_cause(i, language), 160)});
    }
    tree.add(path, SearchIndex::document_chunk(documents), key);
  }
}

// The search index of a language. With a cache, the last build's index is updated: the records
// it held with the same digest keep their postings (search_index.h); and a chunk of its
// documents is reused when the output holds it from the same records.
void add_search_index(const SiteModel& model, const Language& language, const json& strings,
                      OutputTree& tree, ParseCache* cache) {
  SearchIndex index;
  std::string salt;
  if (!model.site_digest().empty()) {
    salt = Digest().add("search index 1").add(model.site_digest()).add(language.code).hex();
    const std::optional<std::string> last =
        cache ? cache->find_search_index(language.code) : std::nullopt;
    if (last) index.use_last(*last, salt);
  }
  for (std::size_t i = 0; i < model.size(); ++i) {
    const std::string& key = model.record_digest(i);
    if (!salt.empty() && !key.empty() && index.reuse(key)) continue;
    const RecordRow& r = model.row(i);
    std::string keywords;
    for (const std::vector<std::string>* words : {&r.tags, &r.aliases}) {
      for (const std::string& word : *words) keywords += word + " ";
    }
    const std::string title = model.title(i, language).text;
    const std::string& root_cause = model.root_cause(i, language);
    std::vector<SearchIndex::Field> fields = {
        {r.error_code, 10, true}, {title, 8, true},     {r.signature, 8, true}, {r.id, 6, false},
        {keywords, 5, true},      {r.domain, 2, false}, {root_cause, 1, false}};
    // Readers of a translation search the base language's root cause too.
    if (!language.base) fields.push_back({r.root_causes.front(), 1, false});
    index.add(fields, key);
  }
  if (const auto it = strings.find("search_glossary"); it != strings.end() && it->is_object()) {
    std::map<std::string, std::string> glossary;
    for (const auto& [term, words] : it->items()) {
      if (words.is_string()) glossary[term] = words.get<std::string>();
    }
    index.set_glossary(std::move(glossary));
  }
  add_search_documents(model, language, salt, tree);
  index.each_file(language.code, [&](const std::string& path, std::string content) {
    tree.add("site/" + language.code + "/" + path, std::move(content));
  });
  if (cache && !salt.empty()) {
    cache->store_search_index(language.code,
                              [&](std::ostream& out) { return index.store(out, salt); });
  }
}

}  // namespace

MatchRows match_rows(const SiteModel& model, const MatchFigures& figures) {
  MatchRows rows;
  rows.around_title.resize(model.size());
  parallel_blocks(model.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const RecordRow& r = model.row(i);
      const std::string& signature = r.signature;
      const ordered_json& regex = r.paste_regex;  // translated as the row was made
      // The row is "[id,signature," title ",rest...]": the parts around the title, dumped.
      const ordered_json rest{regex.at(0),
                              regex.at(1),
                              regex.at(2),
                              code_points(trim(signature)),
                              rate_permille(r.fix_success_rate),
                              regex.at(3),
                              figures.breadth_penalty.at(i),
                              regex.at(4),
                              r.aliases,
                              r.error_code,
                              r.tags};
      rows.around_title[i] = {
          "[" + ordered_json(r.id).dump() + "," + ordered_json(signature).dump() + ",",
          "," + rest.dump().substr(1)};
    }
  });
  return rows;
}

std::string match_data(const SiteModel& model, const Language& language, const MatchRows& rows) {
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
  std::string text = ordered_json{{"version", 2},
                                  {"lang", language.code},
                                  {"reading", reading},
                                  {"score", score},
                                  {"entries", ordered_json::array()}}
                         .dump();
  text.resize(text.size() - 2);  // "...,"entries":[]}" less its "]}"
  // Room for every row and a title of 64 bytes (28 MB at 100,000 entries: grown by doubling and
  // copied at the end, it was held about three times).
  std::size_t size = text.size() + 3;
  for (const auto& [before, after] : rows.around_title) size += before.size() + after.size() + 65;
  text.reserve(size);
  for (std::size_t i = 0; i < model.size(); ++i) {
    const SiteModel::Title title = model.title(i, language);
    if (i != 0) text += ',';
    text += rows.around_title[i].first;
    text += title.text == model.row(i).signature ? "null" : ordered_json(title.text).dump();
    text += rows.around_title[i].second;
  }
  text += "]}\n";
  return text;
}

std::string match_data(const SiteModel& model, const Language& language,
                       const MatchFigures& figures) {
  return match_data(model, language, match_rows(model, figures));
}

namespace {

// The UI strings of every language, in the order of model.languages().
std::vector<json> all_strings(const SiteModel& model, const TemplateSet& templates) {
  std::vector<json> strings;
  for (const Language& language : model.languages())
    strings.push_back(templates.strings(language.code));
  return strings;
}

// Entry pages by number (k: record k / languages, language k % languages), on every core. With
// `reuse`, a page the output holds from the same key is put again unread, and its number
// returned; the others are rendered, a record read whole once for its pages in every language.
std::vector<std::size_t> add_entry_pages(const SiteModel& model, const TemplateSet& templates,
                                         const std::vector<json>& strings,
                                         const std::vector<std::size_t>& pages, bool reuse,
                                         OutputTree& tree, Progress* progress) {
  const auto& languages = model.languages();
  const std::size_t count = languages.size();
  if (progress) progress->start("pages", pages.size());
  std::vector<char> reused(pages.size(), 0);  // written by index, from the workers
  parallel_slices(pages.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    std::optional<PageRenderer> renderer;
    std::optional<std::pair<std::size_t, ordered_json>> whole;     // the last record read
    std::optional<std::pair<std::size_t, std::string>> entry_key;  // the last record's
    for (std::size_t n = begin; n < end; ++n) {
      const std::size_t k = pages[n], i = k / count, l = k % count;
      const std::string path = "site/" + site_entry_path(languages[l].code, model.row(i).id);
      if (!entry_key || entry_key->first != i) entry_key.emplace(i, model.entry_key(i));
      std::string key = SiteModel::entry_page_key(entry_key->second, languages[l]);
      if (reuse && tree.reuse(path, key)) {
        reused[n] = 1;
      } else {
        if (!renderer) renderer.emplace(templates, languages, strings);
        if (!whole || whole->first != i) whole.emplace(i, model.record(i));
        tree.add(path,
                 renderer->page(languages[l].code, "entry",
                                model.entry_page(i, languages[l], strings[l], whole->second)),
                 key);
      }
      if (progress) progress->advance();
    }
  });
  std::vector<std::size_t> numbers;
  for (std::size_t n = 0; n < pages.size(); ++n) {
    if (reused[n]) numbers.push_back(pages[n]);
  }
  return numbers;
}

// Every entry's page in every language; the numbers of those reused (add_entry_pages).
std::vector<std::size_t> add_all_entry_pages(const SiteModel& model, const TemplateSet& templates,
                                             const std::vector<json>& strings, OutputTree& tree,
                                             Progress* progress) {
  std::vector<std::size_t> pages(model.size() * model.languages().size());
  for (std::size_t k = 0; k < pages.size(); ++k) pages[k] = k;
  return add_entry_pages(model, templates, strings, pages, true, tree, progress);
}

// A page of a domain's list, as a domain page names it.
struct DomainPage {
  std::string domain;
  std::size_t page;
};

// Adds page `page` of the domain's list in `language`. With `reuse`, a page the output holds
// from the same key is put again unread instead, and true returned.
bool add_domain_page(const SiteModel& model, const Language& language, const json& strings,
                     PageRenderer& renderer, OutputTree& tree, const DomainPage& page, bool reuse) {
  const std::string path = "site/" + site_domain_path(language.code, page.domain, page.page);
  std::string key = model.domain_page_key(page.domain, language, page.page);
  if (reuse && tree.reuse(path, key)) return true;
  tree.add(path,
           renderer.page(language.code, "domain",
                         model.domain_page(page.domain, language, strings, page.page)),
           key);
  return false;
}

// The list pages of a language: home, search, not-found, each page of each domain, the feed.
// The domain pages the output holds from the same records are reused, and listed in `reused`.
void add_list_pages(const SiteModel& model, const Language& language, const json& strings,
                    PageRenderer& renderer, OutputTree& tree, std::vector<DomainPage>& reused) {
  const std::string folder = "site/" + language.code + "/";
  const std::string& code = language.code;
  tree.add(folder + "index.html", renderer.page(code, "home", model.home_page(language, strings)));
  tree.add(folder + "search.html",
           renderer.page(code, "search", model.plain_page("search", language, strings)));
  tree.add(folder + "404.html",
           renderer.page(code, "not_found", model.plain_page("404", language, strings)));
  for (const auto& [domain, members] : model.domains()) {
    for (std::size_t page = 1; page <= model.domain_page_count(domain); ++page) {
      DomainPage named{domain, page};
      if (add_domain_page(model, language, strings, renderer, tree, named, true))
        reused.push_back(std::move(named));
    }
  }
  if (!model.config().base_url.empty())
    tree.add(folder + "feed.xml",
             renderer.file("feed.xml", atom_feed_model(model, language, strings)));
}

// The files that read every record: each language's search index, list pages and paste-box data,
// then the sitemap's files and llms.txt. Each is an item that the next free worker takes, the
// costliest first, and goes to the tree as soon as it is made (held until all were, they were
// 400 MB at 100,000 entries).
void add_list_files(const SiteModel& model, const TemplateSet& templates,
                    const std::vector<json>& strings, OutputTree& tree,
                    const std::vector<BenignLine>* benign, BreadthMemo* memo, ParseCache* cache,
                    std::vector<std::vector<DomainPage>>& reused) {
  const auto& languages = model.languages();
  const std::size_t count = languages.size();
  const MatchRows match = match_rows(model, match_figures(model, benign, memo));
  std::optional<Sitemap> sitemap;
  if (!model.config().base_url.empty()) sitemap.emplace(model);
  const std::size_t maps = sitemap ? sitemap->size() : 0;
  reused.assign(count, {});
  parallel_blocks(
      3 * count + maps + 1,
      [&](std::size_t begin, std::size_t end) {
        PageRenderer renderer(templates, languages, strings);
        for (std::size_t k = begin; k < end; ++k) {
          if (k < count) {
            add_search_index(model, languages[k], strings[k], tree, cache);
          } else if (k < count + maps) {
            // Put again unread when the output holds it from the same pages.
            const std::string path = "site/" + sitemap->path(k - count);
            const std::string key = sitemap->key(k - count);
            if (key.empty() || !tree.reuse(path, key)) {
              const SitemapFile file = sitemap->file(k - count);
              tree.add(path, renderer.file(file.template_name, file.model), key);
            }
          } else if (const std::size_t l = (k - maps) % count; k < 2 * count + maps) {
            add_list_pages(model, languages[l], strings[l], renderer, tree, reused[l]);
          } else if (k < 3 * count + maps) {
            tree.add("site/" + languages[l].code + "/match.json",
                     match_data(model, languages[l], match));
          } else {
            tree.add("site/llms.txt",
                     renderer.file("llms.txt", llms_model(model, strings.front())));
          }
        }
      },
      1);
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
                Progress* progress, const std::vector<BenignLine>* benign, BreadthMemo* memo,
                ParseCache* cache) {
  const auto add = [&tree](const std::string& path, std::string content) {
    tree.add("site/" + path, std::move(content));
  };
  const std::vector<json> strings = all_strings(model, templates);
  for (const char* name :
       {"layout.html", "search_form.html", "paste_box.html", "entry.html", "home.html",
        "domain.html", "search.html", "not_found.html", "root.html", "root_not_found.html",
        "feed.xml", "sitemap.xml", "sitemap_index.xml", "llms.txt"}) {
    templates.text(std::string("site/") + name + ".mustache");  // read once, before workers
  }
  std::vector<std::vector<DomainPage>> reused;  // the domain pages reused, per language
  {
    const Phase phase("other pages and indexes");
    add_list_files(model, templates, strings, tree, benign, memo, cache, reused);
  }
  PageRenderer renderer(templates, model.languages(), strings);
  add("index.html", renderer.file("root.html", root_page(model)));
  add("404.html", renderer.file("root_not_found.html", root_not_found_page(model, strings)));
  std::string robots = "User-agent: *\nAllow: /\n";
  if (!model.config().base_url.empty())
    robots += "Sitemap: " + model.config().base_url + "sitemap.xml\n";
  add("robots.txt", robots);
  for (const char* asset :
       {"site/assets/style.css", "site/assets/search.js", "site/assets/match.js",
        "site/assets/page.js", "site/assets/favicon.svg"}) {
    const auto content = embedded_resource(asset);
    if (!content) throw ToolError(std::string(asset) + " is missing from this build");
    add(std::string(asset).substr(5), std::string(*content));
  }
  for (const SiteConfig::Image* image : {&model.config().logo, &model.config().favicon}) {
    if (!image->name.empty()) add("assets/" + image->name, image->bytes);
  }
  add("schema/entry.schema.json", entry_schema_text(model.languages()));
  const Phase phase("entry pages");
  const std::vector<std::size_t> reused_entry_pages =
      add_all_entry_pages(model, templates, strings, tree, progress);
  // Last, when every file is in the tree. Pages the output held already, made from the same
  // inputs, were reused unread: their links were checked when they were made, against an output
  // that had every file it has now, unless it loses one. Then they are rendered again for the
  // link check.
  if (!tree.drops_files()) return;
  add_entry_pages(model, templates, strings, reused_entry_pages, false, tree, progress);
  for (std::size_t l = 0; l < reused.size(); ++l) {
    for (const DomainPage& page : reused[l])
      add_domain_page(model, model.languages()[l], strings[l], renderer, tree, page, false);
  }
}

}  // namespace kbc
