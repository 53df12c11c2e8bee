#include "site/markdown_html.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "base/text.h"

namespace kbc {
namespace {

constexpr const char* kExtensions[] = {"table", "strikethrough", "autolink"};

// Raw HTML in an entry is shown as the text it is: each HTML node becomes a text node (an HTML
// block, a paragraph holding one), which the renderer escapes.
void show_html_as_text(cmark_node* document) {
  std::vector<cmark_node*> html;
  cmark_iter* iter = cmark_iter_new(document);
  while (cmark_iter_next(iter) != CMARK_EVENT_DONE) {
    cmark_node* node = cmark_iter_get_node(iter);
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_HTML_INLINE || type == CMARK_NODE_HTML_BLOCK) html.push_back(node);
  }
  cmark_iter_free(iter);
  for (cmark_node* node : html) {
    std::string literal = cmark_node_get_literal(node);
    cmark_node* replacement = cmark_node_new(CMARK_NODE_TEXT);
    if (cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK) {
      while (!literal.empty() && literal.back() == '\n') literal.pop_back();
      cmark_node* paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH);
      cmark_node_append_child(paragraph, replacement);
      cmark_node_insert_before(node, paragraph);
    } else {
      cmark_node_insert_before(node, replacement);
    }
    cmark_node_set_literal(replacement, literal.c_str());
    cmark_node_free(node);  // unlinks it
  }
}

std::string render(std::string_view markdown) {
  static std::once_flag registered;
  std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });
  // cmark-gfm adds the extensions' special characters ('~', '|') to a global table for each
  // parse and takes them out again after it: two parses at once make each other miss them, so
  // output would depend on thread timing. One parse at a time.
  static std::mutex global_tables;
  const std::lock_guard lock(global_tables);
  // CMARK_OPT_DEFAULT leaves CMARK_OPT_UNSAFE off, so unsafe link destinations are dropped.
  const int options = CMARK_OPT_DEFAULT;
  const std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(
      cmark_parser_new(options), cmark_parser_free);
  for (const char* name : kExtensions) {
    if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
      cmark_parser_attach_syntax_extension(parser.get(), extension);
  }
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  const std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(
      cmark_parser_finish(parser.get()), cmark_node_free);
  show_html_as_text(document.get());
  char* html =
      cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
  std::string out(html);
  std::free(html);
  // Code blocks scroll rather than wrap, and tables may be wider than a phone: both get a
  // keyboard stop so that they can be scrolled without a mouse. Raw HTML is shown as text
  // (above), so these tags can only be cmark's own.
  out = replace_all(out, "<pre", "<pre tabindex=\"0\"");
  out = replace_all(out, "<table>", "<div class=\"table-wrap\" tabindex=\"0\"><table>");
  return replace_all(out, "</table>", "</table></div>");
}

// True when cmark would render `text` as one paragraph holding just the text: a single line
// with no character that Markdown, GFM or its autolinks give a meaning to. Most texts in a
// knowledge base are like that, and skip the parser.
bool is_plain_paragraph(std::string_view text) {
  if (text.empty() || text.front() == ' ' || text.back() == ' ' || text.front() == '-' ||
      (text.front() >= '0' && text.front() <= '9') || text.front() == '#')
    return false;
  if (text.find("://") != std::string_view::npos || text.find("www.") != std::string_view::npos)
    return false;
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || std::strchr("\\`*_[]<>&~|@+", c)) return false;
  }
  return true;
}

}  // namespace

std::string markdown_html_with_cmark(std::string_view markdown) { return render(markdown); }

std::string markdown_html(std::string_view markdown) {
  // Most optional texts are empty (35,000 of the corpus site's 75,000 calls): cmark gives "".
  if (markdown.empty()) return "";
  if (!is_plain_paragraph(markdown)) return render(markdown);
  std::string html = "<p>";
  html.reserve(markdown.size() + 8);
  for (const char c : markdown) {
    if (c == '"')
      html += "&quot;";
    else
      html += c;
  }
  return html + "</p>\n";
}

std::string markdown_inline_html(std::string_view markdown) {
  std::string html = markdown_html(markdown);
  while (!html.empty() && html.back() == '\n') html.pop_back();
  if (html.starts_with("<p>") && html.ends_with("</p>") && html.find("<p>", 3) == std::string::npos)
    return html.substr(3, html.size() - 7);
  return html;
}

std::string escape_html(std::string_view text) {
  return replace_characters(
      text, {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}});
}

}  // namespace kbc
