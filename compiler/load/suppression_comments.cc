#include "load/suppression_comments.h"
#include "base/utf8.h"

#include <optional>

namespace kbc {
namespace {

constexpr std::string_view kPrefix = "kbc-disable";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// 1-based, in code points, like every other diagnostic's column.
int column_of(std::string_view line, std::size_t offset) {
  return 1 + static_cast<int>(code_points(line.substr(0, offset)));
}

// The comment whose '#' is at `hash`, when it is a kbc-disable directive. The rule ids are
// separated by commas or white space and end at the line's end or at a "--" that starts a reason.
std::optional<SuppressionComment> parse_directive(std::string_view line, std::size_t hash,
                                                  int number) {
  std::size_t i = hash + 1;
  while (i < line.size() && is_blank(line[i])) ++i;
  if (line.substr(i, kPrefix.size()) != kPrefix) return std::nullopt;
  std::size_t end = i;
  while (end < line.size() && !is_blank(line[end])) ++end;
  SuppressionComment comment;
  comment.directive = {std::string(line.substr(i, end - i)), {number, column_of(line, i)}};
  if (comment.directive.text == "kbc-disable-next-line") {
    comment.kind = SuppressionComment::Kind::kNextLine;
  } else if (comment.directive.text == "kbc-disable-file") {
    comment.kind = SuppressionComment::Kind::kFile;
  }
  for (i = end; i < line.size();) {
    if (is_blank(line[i]) || line[i] == ',') {
      ++i;
      continue;
    }
    std::size_t word_end = i;
    while (word_end < line.size() && !is_blank(line[word_end]) && line[word_end] != ',') ++word_end;
    if (line.substr(i, 2) == "--") break;
    comment.rules.push_back(
        {std::string(line.substr(i, word_end - i)), {number, column_of(line, i)}});
    i = word_end;
  }
  return comment;
}

// Where the quoted text that starts before `from` ends: the offset of its closing quote, or
// npos when it goes on to the next line. '' is a quote in single quotes, \" in double ones.
std::size_t closing_quote(std::string_view line, std::size_t from, char quote) {
  for (std::size_t i = from; i < line.size(); ++i) {
    if (quote == '"' && line[i] == '\\') {
      ++i;
    } else if (line[i] == quote) {
      if (quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
        ++i;
      } else {
        return i;
      }
    }
  }
  return std::string_view::npos;
}

// Reads a file line by line and remembers, between lines, whether it is inside a quoted scalar
// or a block scalar.
class Scanner {
 public:
  std::vector<SuppressionComment> scan(std::string_view text) {
    int number = 0;
    for (std::size_t start = 0; start <= text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (line.ends_with('\r')) line.remove_suffix(1);
      read_line(line, ++number);
      start = end + 1;
    }
    return std::move(found_);
  }

 private:
  void read_line(std::string_view line, int number) {
    if (inside_block_scalar(line)) return;
    std::size_t from = 0;
    if (quote_) {
      from = closing_quote(line, 0, quote_);
      if (from == std::string_view::npos) return;  // all of it is quoted text
      quote_ = 0;
      aim_pending_directives(number);
      read_content(line, from + 1, false);
      return;
    }
    from = line.find_first_not_of(" \t");
    if (from == std::string_view::npos) return;  // blank
    if (line[from] == '#') {
      if (auto comment = parse_directive(line, from, number)) found_.push_back(std::move(*comment));
      return;
    }
    aim_pending_directives(number);
    read_content(line, from, true);
  }

  // True when the line belongs to the block scalar that an earlier line opened: blank, or
  // indented like its first non-blank line, which is indented more than the scalar's parent.
  bool inside_block_scalar(std::string_view line) {
    if (block_parent_ < 0) return false;
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) return true;
    const int indent = static_cast<int>(line.find_first_not_of(' '));
    if (block_indent_ < 0 && indent > block_parent_) block_indent_ = indent;
    if (block_indent_ >= 0 && indent >= block_indent_) return true;
    block_parent_ = block_indent_ = -1;
    return false;
  }

  // Follows the tokens of a line that holds content, to notice a quoted scalar that does not end
  // on it and a block scalar indicator. `at_start`: a node may start at `from`.
  void read_content(std::string_view line, std::size_t from, bool at_start) {
    bool node_can_start = at_start;
    int node_column = static_cast<int>(from);  // of the key or "-" that owns a block scalar
    int flow = 0;                              // depth of [ ] and { }
    for (std::size_t i = from; i < line.size(); ++i) {
      const char c = line[i];
      if (is_blank(c)) continue;
      if (c == '#' && i > 0 && is_blank(line[i - 1])) return;  // a comment ends the line
      const bool blank_after = i + 1 == line.size() || is_blank(line[i + 1]);
      if (node_can_start) {
        if (c == '\'' || c == '"') {
          node_column = static_cast<int>(i);
          const std::size_t close = closing_quote(line, i + 1, c);
          if (close == std::string_view::npos) {
            quote_ = c;
            return;
          }
          i = close;
          node_can_start = false;
          continue;
        }
        if ((c == '-' || c == '?') && blank_after) {
          node_column = static_cast<int>(i);
          continue;
        }
        if (c == '&' || c == '!') {  // an anchor or a tag before the node
          while (i + 1 < line.size() && !is_blank(line[i + 1])) ++i;
          continue;
        }
        if (c == '|' || c == '>') {
          block_parent_ = node_column;
          return;
        }
      }
      if (flow > 0 && (c == '[' || c == '{' || c == ',')) {
        flow += c != ',';
        node_can_start = true;
        continue;
      }
      if (node_can_start && (c == '[' || c == '{')) {
        ++flow;
        continue;
      }
      if (flow > 0 && (c == ']' || c == '}')) {
        --flow;
        node_can_start = false;
        continue;
      }
      if (c == ':' && (blank_after || flow > 0)) {
        node_can_start = true;
        continue;
      }
      if (node_can_start) node_column = static_cast<int>(i);  // a plain scalar or key starts
      node_can_start = false;
    }
  }

  // The line `number` holds content: it is the target of the next-line directives above it.
  void aim_pending_directives(int number) {
    for (; aimed_ < found_.size(); ++aimed_) {
      if (found_[aimed_].kind == SuppressionComment::Kind::kNextLine)
        found_[aimed_].target_line = number;
    }
  }

  char quote_ = 0;         // inside a quoted scalar that goes on past the line: its quote
  int block_parent_ = -1;  // inside a block scalar: the column of its key or "-"
  int block_indent_ = -1;  // and the indentation of its text, once known
  std::vector<SuppressionComment> found_;
  std::size_t aimed_ = 0;  // found_[aimed_...] wait for a line to apply to
};

}  // namespace

std::vector<SuppressionComment> scan_suppression_comments(std::string_view text) {
  if (text.find(kPrefix) == std::string_view::npos) return {};
  return Scanner().scan(text);
}

}  // namespace kbc
