// Text fields of an entry may hold Markdown. The site renders them with cmark-gfm (GitHub
// Flavored Markdown: tables, strikethrough, autolinks) with raw HTML off: an entry whose text
// contains `<script>` shows it as text and cannot inject markup, and link destinations such as
// `javascript:` are dropped by cmark's safe mode.
#pragma once

#include <string>
#include <string_view>

namespace kbc {

// Block Markdown (paragraphs, lists, code blocks...) to HTML.
std::string markdown_html(std::string_view markdown);

// The same, always through the parser. markdown_html skips it for text without Markdown in it;
// tests hold the two to the same output.
std::string markdown_html_with_cmark(std::string_view markdown);

// One line of Markdown (a title, an action) to inline HTML: a lone paragraph loses its <p>.
std::string markdown_inline_html(std::string_view markdown);

// HTML-escapes text for an element or a double-quoted attribute.
std::string escape_html(std::string_view text);

}  // namespace kbc
