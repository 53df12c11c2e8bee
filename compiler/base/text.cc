#include "base/text.h"

#include <locale.h>
#include <wchar.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "base/utf8.h"

namespace kbc {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Calls `each(code_point, bytes)` for each character of `text`; a byte that is not part of valid
// UTF-8 comes as U+FFFD with no bytes.
template <typename Each>
void for_each_code_point(std::string_view text, Each each) {
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Char character = utf8_char_at(text, i);
    each(character.length == 0 ? U'\uFFFD' : character.code, text.substr(i, character.length));
    i += std::max<std::size_t>(character.length, 1);
  }
}

// The columns of each character of `text`, as display_width counts them, to `each(bytes, width)`.
template <typename Each>
void for_each_width(std::string_view text, Each each) {
  // wcwidth reads the thread's locale; a UTF-8 one is set for this thread only, and reset.
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
  const locale_t previous = utf8 ? uselocale(utf8) : nullptr;
  for_each_code_point(text, [&](char32_t code, std::string_view bytes) {
    const int width = utf8 ? wcwidth(static_cast<wchar_t>(code)) : 1;
    each(bytes, width < 0 ? std::size_t{1} : static_cast<std::size_t>(width));
  });
  if (utf8) uselocale(previous);
}

}  // namespace

long whole_percent(double rate) { return std::lround(rate * 100); }

std::string percent_text(double rate) { return std::to_string(whole_percent(rate)) + "%"; }

int rate_permille(double rate) {
  if (!(rate > 0)) return 0;  // NaN too
  return static_cast<int>(std::floor(std::min(rate, 1.0) * 1000 + 0.5));
}

bool is_blank(std::string_view text) { return std::all_of(text.begin(), text.end(), is_space); }

bool has_outer_space(std::string_view text) {
  return !text.empty() && (is_space(text.front()) || is_space(text.back()));
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

namespace {

char ascii_lower_char(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

}  // namespace

std::string ascii_lower(std::string_view text) {
  std::string out;
  ascii_lower(text, out);
  return out;
}

void ascii_lower(std::string_view text, std::string& out) {
  out.resize(text.size());
  std::size_t i = 0;
  // In blocks of 16 bytes, which GCC turns into vector instructions at -O2 as at -O3: a plain
  // loop is four times slower at -O2, the default build. Every line of a log is lowered.
  for (; i + 16 <= text.size(); i += 16) {
    char block[16];
    std::memcpy(block, text.data() + i, 16);
    for (char& c : block) c = ascii_lower_char(c);
    std::memcpy(out.data() + i, block, 16);
  }
  for (; i < text.size(); ++i) out[i] = ascii_lower_char(text[i]);
}

bool is_ascii(std::string_view text) {
  // Eight bytes at a time, without a branch per byte: every line of a log passes here.
  std::uint64_t high = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    high |= word;
  }
  for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
  return (high & 0x8080808080808080u) == 0;
}

bool is_ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool is_word_character(char c) { return is_ascii_alnum(c) || c == '_'; }

std::size_t find_word(std::string_view text, std::string_view word, std::size_t from) {
  for (std::size_t at = text.find(word, from); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !is_word_character(text[at - 1])) &&
        (end == text.size() || !is_word_character(text[end])))
      return at;
  }
  return std::string_view::npos;
}

std::string replace_characters(
    std::string_view text, std::initializer_list<std::pair<char, std::string_view>> replacements) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto* found =
        std::find_if(replacements.begin(), replacements.end(),
                     [c](const auto& replacement) { return replacement.first == c; });
    if (found == replacements.end())
      out += c;
    else
      out += found->second;
  }
  return out;
}

std::string first_sentence(std::string_view text, std::size_t limit) {
  std::size_t end = text.find(". ");
  if (end != std::string_view::npos) ++end;
  if (end == std::string_view::npos || end > limit) end = std::min(text.size(), limit);
  end = code_point_start(text, end);
  std::string out(text.substr(0, end));
  return end < text.size() && !out.ends_with(".") ? out + "…" : out;
}

std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t found; (found = text.find(from, at)) != std::string_view::npos;
       at = found + from.size()) {
    out.append(text.substr(at, found - at));
    out.append(to);
  }
  out.append(text.substr(at));
  return out;
}

std::string head_text(std::string_view text, std::size_t limit) {
  std::string_view line = trim(text.substr(0, text.find('\n')));
  if (limit == 0 || code_points(line) <= limit) return std::string(line);
  std::size_t end = 0;  // the byte after `limit - 1` code points
  for (std::size_t n = 0; n + 1 < limit && end < line.size(); ++n) next_code_point(line, end);
  std::size_t cut = end;
  if (const std::size_t space = line.rfind(' ', end);
      space != std::string_view::npos && code_points(line.substr(0, space)) >= limit / 2)
    cut = space;
  return std::string(trim(line.substr(0, cut))) + "…";
}

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_char_at(text, i).length;
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

std::string printable_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_code_point(text, [&](char32_t code, std::string_view bytes) {
    const bool control = (code < 0x20 && code != '\t') || (code >= 0x7F && code < 0xA0);
    if (control || bytes.empty()) {
      out += '?';
    } else {
      out += bytes;
    }
  });
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t columns = 0;
  for_each_width(text, [&](std::string_view, std::size_t width) { columns += width; });
  return columns;
}

std::string blank_width_of(std::string_view text) {
  std::string out;
  for_each_width(text, [&](std::string_view bytes, std::size_t width) {
    out.append(bytes == "\t" ? 1 : width, bytes == "\t" ? '\t' : ' ');
  });
  return out;
}

LineColumn line_column_at(std::string_view text, std::size_t offset) {
  LineColumn at{1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else if (!is_continuation_byte(text[i])) {
      ++at.column;
    }
  }
  return at;
}

std::string_view line_text(std::string_view text, int line) {
  std::size_t start = 0;
  for (int current = 1; current < line; ++current) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  if (start > text.size()) return {};
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (end > start && text[end - 1] == '\r') --end;
  return text.substr(start, end - start);
}

CharacterCounts character_counts(std::string_view text) {
  CharacterCounts counts{};
  for (const char c : text) {
    std::uint8_t& n = counts[static_cast<unsigned char>(c) & 63];
    if (n != 255) ++n;
  }
  return counts;
}

std::size_t fewest_edits(const CharacterCounts& a, const CharacterCounts& b) {
  // Each edit takes at most one from the characters a has beyond b (as a multiset) and one from
  // those it lacks, so the larger count bounds the distance from below. Counted by the low six
  // bits and saturated, which can only lower it.
  std::size_t beyond = 0, lacking = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const int gap = int{a[k]} - int{b[k]};
    (gap > 0 ? beyond : lacking) += static_cast<std::size_t>(gap > 0 ? gap : -gap);
  }
  return std::max(beyond, lacking);
}

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > limit) return limit + 1;
  // A pass over each string instead of the table, when the table could exceed the limit.
  if (limit < std::max(a.size(), b.size()) &&
      fewest_edits(character_counts(a), character_counts(b)) > limit)
    return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    std::size_t least = row[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
      least = std::min(least, row[j]);
    }
    // A row's least value never decreases from one row to the next.
    if (least > limit) return limit + 1;
  }
  return row[b.size()];
}

std::size_t typo_limit(std::string_view word) { return std::max<std::size_t>(2, word.size() / 3); }

void TypoCandidates::sort() {
  sorted_.resize(candidates_.size());
  std::iota(sorted_.begin(), sorted_.end(), 0);
  std::sort(sorted_.begin(), sorted_.end(), [this](std::size_t a, std::size_t b) {
    return candidates_[a].text < candidates_[b].text;
  });
}

std::optional<std::string> TypoCandidates::closest(std::string_view word) const {
  // The least distance is at most that of the candidates beside `word` in byte order (an id with
  // a typo mostly sorts beside the one it means), so the scan below starts with that limit and
  // reads only the few candidates that can match it: with the limit of a long word (15), nearly
  // every id of a domain was measured. The first of the closest is still the answer.
  constexpr std::ptrdiff_t kBeside = 4;
  std::size_t beside = typo_limit(word);
  const auto at = std::lower_bound(
      sorted_.begin(), sorted_.end(), word,
      [this](std::size_t i, std::string_view w) { return candidates_[i].text < w; });
  for (auto it = at - std::min(kBeside, at - sorted_.begin());
       it != sorted_.end() && it < at + kBeside; ++it)
    beside = std::min(beside, edit_distance(word, candidates_[*it].text, beside));
  const CharacterCounts own = character_counts(word);
  std::optional<std::string> best;
  std::size_t best_distance = beside + 1;
  for (const Candidate& candidate : candidates_) {
    if (best_distance == 0) break;
    const std::size_t limit = best_distance - 1;
    const std::size_t longer = std::max(candidate.text.size(), word.size());
    if (longer - std::min(candidate.text.size(), word.size()) > limit ||
        fewest_edits(own, candidate.counts) > limit)
      continue;
    const std::size_t distance = edit_distance(word, candidate.text, limit);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate.text;
    }
  }
  return best;
}

std::optional<std::chrono::year_month_day> parse_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](std::size_t at, std::size_t length) {
    int value = 0;
    for (std::size_t i = at; i < at + length; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (year < 0 || month < 0 || day < 0) return std::nullopt;
  return std::chrono::year_month_day{std::chrono::year(year),
                                     std::chrono::month(static_cast<unsigned>(month)),
                                     std::chrono::day(static_cast<unsigned>(day))};
}

std::string date_text(std::chrono::sys_days day) {
  const std::chrono::year_month_day date(day);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return text;
}

std::string joined_list(const std::vector<std::string>& items, std::string_view conjunction) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " " + std::string(conjunction) + " " : ", ";
    out += items[i];
  }
  return out;
}

std::string_view next_tab_field(std::string_view& line) {
  const std::size_t tab = line.find('\t');
  const std::string_view field = line.substr(0, tab);
  line.remove_prefix(tab == std::string_view::npos ? line.size() : tab + 1);
  return field;
}

bool is_tab_field(std::string_view text) {
  return text.find_first_of("\t\n") == std::string_view::npos;
}

std::optional<std::int64_t> read_table_lines(std::string_view text, std::string_view head,
                                             const std::function<bool(std::string_view)>& line) {
  try {
    if (!text.starts_with(head)) return std::nullopt;
    text.remove_prefix(head.size());
    std::string_view first = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), first.size() + 1));
    const auto number = number_tab_field<std::int64_t>(first);
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      if (end == std::string_view::npos) return std::nullopt;  // a line cut short
      if (!line(text.substr(0, end))) return std::nullopt;
      text.remove_prefix(end + 1);
    }
    return number;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace kbc
