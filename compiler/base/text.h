// Small text utilities that know nothing of knowledge bases.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbc {

// True when the text is empty or holds only white space.
bool is_blank(std::string_view text);

// A rate in [0, 1] as a whole percentage, rounded half up (0.947 -> 95): how kbc match, lint,
// the Markdown pages and the site all show a rate; percent_text writes it "95%".
long whole_percent(double rate);
std::string percent_text(double rate);

// A rate in [0, 1] as a whole number of per-mille, rounded half up, clamped to [0, 1000]; 0 for
// NaN: the fix rate as ranks compare it.
int rate_permille(double rate);

// True when the text starts or ends with white space (including newlines).
bool has_outer_space(std::string_view text);

// `text` without leading and trailing white space.
std::string_view trim(std::string_view text);

// ASCII letters lower-cased; other bytes (UTF-8 included) unchanged.
std::string ascii_lower(std::string_view text);
// The same into `out`, reusing its buffer (`out` must not overlap `text`).
void ascii_lower(std::string_view text, std::string& out);

// True when every byte of `text` is ASCII.
bool is_ascii(std::string_view text);

// An ASCII letter or digit; with '_', a character of a word as regexes' \w and \b read it.
bool is_ascii_alnum(char c);
bool is_word_character(char c);
// Where `word` first occurs in `text` at or after `from` as a whole word (no word character
// just before or after it), or npos.
std::size_t find_word(std::string_view text, std::string_view word, std::size_t from = 0);

// Byte offset of the first byte that is not part of valid UTF-8, if any.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// `text` safe to print on a terminal: each control character (C0 but tab, DEL, C1) and each byte
// that is not part of valid UTF-8 becomes one '?', so that the escape sequences of a log cannot
// act on the terminal that shows it.
std::string printable_utf8(std::string_view text);

// How many columns a terminal gives `text` (such as printable_utf8 returns), as wcwidth says in a
// UTF-8 locale: two for each wide character of the East Asian scripts, none for a combining mark,
// one for anything else, a tab included.
std::size_t display_width(std::string_view text);

// Blanks as wide as `text` on a terminal, its tabs kept as tabs: what follows them on the next
// line starts under what follows `text` (such as carets under a match).
std::string blank_width_of(std::string_view text);

// 1-based line and column (in code points) of a byte offset.
struct LineColumn {
  int line;
  int column;
};
LineColumn line_column_at(std::string_view text, std::size_t offset);

// The text of 1-based line `line`, without its newline; empty when out of range.
std::string_view line_text(std::string_view text, int line);

// `text` with each character that `replacements` lists replaced by its text, in one pass: how
// HTML, GitHub's workflow commands and JSON inside <script> are escaped.
std::string replace_characters(
    std::string_view text, std::initializer_list<std::pair<char, std::string_view>> replacements);

// The first sentence of `text` (up to its first ". "), cut at `limit` bytes at most on a
// code point's start, with an ellipsis when cut: the summary of an entry that search results,
// the site's lists and llms.txt show.
std::string first_sentence(std::string_view text, std::size_t limit);

// `text` with every occurrence of `from` (not empty) replaced by `to`.
std::string replace_all(std::string_view text, std::string_view from, std::string_view to);

// The head of `text` for a title: its first line, trimmed; when that is longer than `limit`
// code points, cut at the last space before the limit (or at the limit when the space would
// leave less than half) and ended with "…", the whole at most `limit` code points.
std::string head_text(std::string_view text, std::size_t limit);

// How many times each character occurs in a text, by its low six bits, saturated at 255; and the
// fewest edits that can turn a text of counts `a` into one of counts `b` (a lower bound of their
// edit distance, for a pass over each text instead of the table).
using CharacterCounts = std::array<std::uint8_t, 64>;
CharacterCounts character_counts(std::string_view text);
std::size_t fewest_edits(const CharacterCounts& a, const CharacterCounts& b);

// Levenshtein distance, for "did you mean" suggestions; once it is sure to exceed `limit`, some
// number above `limit` (a pass over 100,000 ids then costs a few rows of each).
std::size_t edit_distance(std::string_view a, std::string_view b,
                          std::size_t limit = std::numeric_limits<std::size_t>::max() - 1);

// The largest edit distance from `word` that is a plausible typo of it.
std::size_t typo_limit(std::string_view word);

// The candidate closest to `word` (the first of the closest), when close enough to be a
// plausible typo. `candidates`: any range of strings (a braced list makes a vector).
template <typename Strings = std::vector<std::string>>
std::optional<std::string> closest_match(std::string_view word, const Strings& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = typo_limit(word) + 1;
  for (const auto& candidate : candidates) {
    if (best_distance == 0) break;
    const std::size_t distance = edit_distance(word, candidate, best_distance - 1);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(candidate);
    }
  }
  return best;
}

// closest_match over the same candidates for many words (the ids of 100,000 entries, for each
// link to an unknown one): each candidate's characters are counted once, and a candidate whose
// counts differ from the word's by more than the distance sought is passed over unread. The
// answers are closest_match's; at 100,000 entries its walk of the ids for every unknown link
// took a second of a lint.
class TypoCandidates {
 public:
  template <typename Strings>
  explicit TypoCandidates(const Strings& candidates) {
    for (const auto& candidate : candidates)
      candidates_.push_back({std::string(candidate), character_counts(candidate)});
    sort();
  }
  std::optional<std::string> closest(std::string_view word) const;

 private:
  struct Candidate {
    std::string text;
    CharacterCounts counts;
  };
  void sort();

  std::vector<Candidate> candidates_;
  std::vector<std::size_t> sorted_;  // indexes of candidates_, in byte order
};

// The items as a sentence writes them: "a", "a or b", "a, b or c" (`conjunction` "or").
std::string joined_list(const std::vector<std::string>& items, std::string_view conjunction);

// The date written as YYYY-MM-DD (digits in that shape), or nullopt; call ok() on it to know
// whether it is a real calendar day.
std::optional<std::chrono::year_month_day> parse_date(std::string_view text);
// A day written as YYYY-MM-DD.
std::string date_text(std::chrono::sys_days day);

// The field of `line` up to its next tab (or its end); `line` keeps what follows that tab. For
// the tab-separated lines of the caches' tables.
std::string_view next_tab_field(std::string_view& line);
// Whether `text` can be a field of such a line: it holds no tab and no line break.
bool is_tab_field(std::string_view text);
// A table of the caches (the file stamps, the folder memo): a first line of `head` and a number
// (the time of the listing, in nanoseconds), then its lines, each ended by a line break, so that
// a table cut short loses whole lines. Calls `line` with each line after the first, and gives the
// number; nullopt when `text` is no such table or `line` refuses one of its lines (returns false
// or throws).
std::optional<std::int64_t> read_table_lines(std::string_view text, std::string_view head,
                                             const std::function<bool(std::string_view)>& line);
// The text of such a table: `head` and `number`, then a line for each item of `items` (a map of
// paths) in the order of their paths, which `line(out, path, value)` appends without its break.
template <typename Map, typename Line>
std::string table_text(std::string_view head, std::int64_t number, const Map& items, Line line) {
  std::vector<const typename Map::value_type*> sorted;
  sorted.reserve(items.size());
  for (const auto& item : items) sorted.push_back(&item);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  std::string out = std::string(head) + std::to_string(number) + "\n";
  for (const auto* item : sorted) {
    line(out, item->first, item->second);
    out += '\n';
  }
  return out;
}
// The same field as a whole decimal number; throws std::invalid_argument when it is not one.
template <typename Number>
Number number_tab_field(std::string_view& line) {
  const std::string_view field = next_tab_field(line);
  Number value{};
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty())
    throw std::invalid_argument("not a number");
  return value;
}

}  // namespace kbc
