// The kbc-disable comment scanner: a table of YAML texts and the directives found in each, as a
// compact dump: `line:col directive -> target [rule@line:col ...]`, one comment per line.
#include <catch2/catch.hpp>

#include <string>

#include "load/suppression_comments.h"

namespace {

std::string at(kbc::Location location) {
  return std::to_string(location.line) + ":" + std::to_string(location.column);
}

std::string dump(std::string_view text) {
  std::string out;
  for (const kbc::SuppressionComment& comment : kbc::scan_suppression_comments(text)) {
    out += at(comment.directive.at) + " " + comment.directive.text;
    if (comment.kind == kbc::SuppressionComment::Kind::kNextLine)
      out += " -> " + std::to_string(comment.target_line);
    if (comment.kind == kbc::SuppressionComment::Kind::kUnknown) out += " (unknown)";
    out += " [";
    for (const auto& rule : comment.rules) {
      out += (out.ends_with("[") ? "" : " ") + rule.text + "@" + at(rule.at);
    }
    out += "]\n";
  }
  return out;
}

struct Case {
  const char* text;
  const char* expected;
};

}  // namespace

TEST_CASE("the scanner finds directives in whole-line comments and the line they apply to") {
  const Case cases[] = {
      // One rule, the next line.
      {"id: a/b\n# kbc-disable-next-line i18n-missing\nsignature: x\n",
       "2:3 kbc-disable-next-line -> 3 [i18n-missing@2:25]\n"},
      // Several rules, commas and white space, a tab, indentation, CRLF line ends.
      {"list:\n  #  kbc-disable-next-line  a-b,c-d , e-f\tg-h\r\n  - x\r\n",
       "2:6 kbc-disable-next-line -> 3 [a-b@2:29 c-d@2:33 e-f@2:39 g-h@2:43]\n"},
      // Blank lines and other comments are skipped; stacked directives share their line.
      {"# kbc-disable-next-line a\n\n# a note\n# kbc-disable-next-line b\n\nkey: v\n",
       "1:3 kbc-disable-next-line -> 6 [a@1:25]\n4:3 kbc-disable-next-line -> 6 [b@4:25]\n"},
      // A reason after "--" is not a rule.
      {"# kbc-disable-file regex-overlap -- both are real errors\nid: x\n",
       "1:3 kbc-disable-file [regex-overlap@1:20]\n"},
      {"#kbc-disable-file a--b --reason\n", "1:2 kbc-disable-file [a--b@1:19]\n"},
      // Nothing after: no target line. No rule: an empty list.
      {"a: 1\n# kbc-disable-next-line x\n# trailing\n",
       "2:3 kbc-disable-next-line -> 0 [x@2:25]\n"},
      {"# kbc-disable-file\n", "1:3 kbc-disable-file []\n"},
      // A misspelt directive is kept, to be reported.
      {"# kbc-disable-nextline x\na: 1\n", "1:3 kbc-disable-nextline (unknown) [x@1:24]\n"},
      // Not directives: a comment after content, another tool's comment, kbc-disable mid-text.
      {"a: 1 # kbc-disable-next-line x\n# yaml-language-server: $schema=x\n# see "
       "kbc-disable-file\n",
       ""},
      // A file without the word at all.
      {"a: 1\n# comment\n", ""},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(dump(c.text) == c.expected);
  }
}

TEST_CASE("a '#' inside a quoted or block scalar is text, not a directive") {
  const Case cases[] = {
      // Quoted on one line: the '#' is not at the start of the line anyway.
      {"a: '# kbc-disable-file x'\nb: \"# kbc-disable-file y\"\n", ""},
      // Double-quoted over several lines, with an escaped quote before the line break.
      {"a: \"first \\\" line\n  # kbc-disable-file x\n  end\"\n# kbc-disable-file y\n",
       "4:3 kbc-disable-file [y@4:20]\n"},
      // Single-quoted over several lines, with '' inside.
      {"a: 'it''s\n # kbc-disable-file x\n  done'\n# kbc-disable-next-line y\nb: 1\n",
       "4:3 kbc-disable-next-line -> 5 [y@4:25]\n"},
      // An apostrophe inside a plain scalar opens nothing.
      {"a: don't stop\n# kbc-disable-next-line y\nb: 1\n",
       "2:3 kbc-disable-next-line -> 3 [y@2:25]\n"},
      // Literal block: lines indented more than the key are text; the block ends at a line
      // indented like the key, even a comment.
      {"how: |\n  run this\n  # kbc-disable-file x\n\n  more\n# kbc-disable-file y\n",
       "6:3 kbc-disable-file [y@6:20]\n"},
      // Folded block with chomping, under a sequence item's key.
      {"dead_ends:\n- action: >-\n    text\n    # kbc-disable-file x\n  # kbc-disable-next-line y\n"
       "  why_fails: z\n",
       "5:5 kbc-disable-next-line -> 6 [y@5:27]\n"},
      // A block scalar whose first line is a '#' line: still text.
      {"a: |\n    # kbc-disable-file x\nb: 1\n", ""},
      // An empty block scalar: the next line, indented like the key, is a comment.
      {"a: |\n# kbc-disable-file x\n", "2:3 kbc-disable-file [x@2:20]\n"},
      // A sequence item that is a block scalar.
      {"- |\n  # kbc-disable-file x\n- b\n# kbc-disable-file y\n",
       "4:3 kbc-disable-file [y@4:20]\n"},
      // '|' and '>' inside plain text or a quoted key open nothing.
      {"regex: a|b\n\"k|\": x >\n# kbc-disable-file y\n", "3:3 kbc-disable-file [y@3:20]\n"},
      // Flow collections: a quoted item that does not end on its line.
      {"tags: [a, 'b\n  # kbc-disable-file x\n  c']\n# kbc-disable-file y\n",
       "4:3 kbc-disable-file [y@4:20]\n"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(dump(c.text) == c.expected);
  }
}
