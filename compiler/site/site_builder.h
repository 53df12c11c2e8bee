// Render: the static site under site/ of the output folder, in each language of the knowledge base.
//
// Pages come from the page model (site_model.h) through the mustache templates of
// templates/site/ (page_renderer.h), and so do the feeds, the sitemap and llms.txt (feeds.h);
// the search index, the paste box's match data and robots.txt are written here. Once the tree
// is complete, the caller checks every internal link of every page against it (link_check.h).
#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/output_tree.h"
#include "base/progress.h"
#include "match/benign_corpus.h"
#include "model/parse_cache.h"
#include "render/templates.h"
#include "site/match_figures.h"
#include "site/site_model.h"

namespace kbc {

// Adds every file of site/ except the per-entry records and Markdown pages, which the caller
// copies from its own output.
// `benign`: the benign corpus the paste box's breadth figures are measured on (kbc's and the
// knowledge base's); `memo`: what the last build measured of them, and then this one
// (match_figures.h); `cache`: where the last build's search indexes are, updated rather than
// made again, and then this one's (search_index.h).
void build_site(const SiteModel& model, const TemplateSet& templates, OutputTree& tree,
                Progress* progress = nullptr, const std::vector<BenignLine>* benign = nullptr,
                BreadthMemo* memo = nullptr, ParseCache* cache = nullptr);

// site/<lang>/match.json, what the paste box (site/assets/match.js) needs to match and rank a
// pasted text as `kbc match` does (matcher.h, rank.h), one array per built entry, in id order:
//
//   {"version": 1, "lang": "zh", "entries": [[id, signature, title, regex, flags,
//     regex_specificity, signature_specificity, fix_rate, needs], ...]}
//
// title is the page's title in the language, or null when it is the signature; regex, flags and
// needs are the JavaScript form of the regex and its prefilter (js_regex.h), or null, "" and []
// when the regex has none;
// the three numbers are the Rank fields as the Matcher computes them (signature_specificity
// counts the trimmed signature's code points, fix_rate is in per-mille). An entry's page is
// entries/<id>.html in the language's folder.
//
// Since the paste box ranks as `kbc match` does on real logs, match.json also carries what the
// Matcher computes or reads: per entry, [9] the breadth penalty of its regex (rank.h), [10] the
// top-level alternatives of its regex more specific than the whole, as [specificity, regex,
// flags], most specific first, [11] its aliases, [12] its error code and [13] its tags (near
// matches); and at the top, "reading" (the patterns of log_lines.h) and "score" (the constants
// of rank.h and near_match.h).
std::string match_data(const SiteModel& model, const Language& language,
                       const MatchFigures& figures);

// What match.json's rows hold in every language (all but the title), each row's text before the
// title and after it: made once for every language, on every core (a regex's JavaScript form is
// the costly part).
struct MatchRows {
  std::vector<std::pair<std::string, std::string>> around_title;  // per record of the model
};
MatchRows match_rows(const SiteModel& model, const MatchFigures& figures);
std::string match_data(const SiteModel& model, const Language& language, const MatchRows& rows);

}  // namespace kbc
