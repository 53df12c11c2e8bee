// Evaluation, not part of kbc: cmark-gfm (kbc's markdown_html) against md4c's md_html (Debian's
// libmd4c-html0-dev, not a dependency of kbc, with GitHub's dialect and raw HTML as text) on the
// Markdown texts of a bundle that need a parser (kbc writes the others as a paragraph without
// one), with the count of texts both render to the same HTML. Build and run as
// bench/eval_bundle_reader.cc, with -lmd4c-html -lmd4c instead of -lsimdjson.
#include <md4c-html.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "site/markdown_html.h"

static void append(const MD_CHAR* text, MD_SIZE size, void* out) {
  static_cast<std::string*>(out)->append(text, size);
}

int main(int, char** argv) {
  std::ifstream in(argv[1]);
  const auto bundle = nlohmann::json::parse(in);
  std::vector<std::string> texts;
  for (const auto& r : bundle) {
    for (const char* key : {"root_cause", "root_cause_zh"})
      if (r.contains(key) && r[key].is_string()) texts.push_back(r[key]);
    for (const char* list : {"dead_ends", "workarounds"})
      for (const auto& item : r[list])
        for (const char* key : {"why_fails", "action", "condition", "tradeoff"})
          if (item.contains(key) && item[key].is_string()) texts.push_back(item[key]);
  }
  std::erase_if(texts, [](const std::string& t) {
    return t.find_first_of("\\`*_[]<>&~|@+\n") == std::string::npos;
  });  // only the texts that need a Markdown parser (kbc writes the others as a paragraph)
  std::size_t bytes = 0;
  for (auto& t : texts) bytes += t.size();
  std::vector<double> a, b;
  std::size_t out_a = 0, out_b = 0, same = 0;
  for (int round = 0; round < 9; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    out_a = 0;
    std::vector<std::string> ca;
    for (auto& t : texts) {
      ca.push_back(kbc::markdown_html(t));
      out_a += ca.back().size();
    }
    auto t1 = std::chrono::steady_clock::now();
    out_b = 0;
    same = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      std::string html;
      md_html(texts[i].data(), texts[i].size(), append, &html, MD_DIALECT_GITHUB | MD_FLAG_NOHTML,
              0);
      out_b += html.size();
      same += html == ca[i];
    }
    auto t2 = std::chrono::steady_clock::now();
    a.push_back(std::chrono::duration<double>(t1 - t0).count());
    b.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::printf(
      "%zu texts, %.1f MB: cmark-gfm median %.3f s, md4c median %.3f s; identical HTML for %zu of "
      "%zu\n",
      texts.size(), bytes / 1e6, a[4], b[4], same, texts.size());
}
