#include "match/rank.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "base/text.h"
#include "base/utf8.h"
#include "match/atom_finder.h"
#include "match/log_lines.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

// The words that make a line look like an error, matched anywhere in the line ignoring ASCII
// case. The site's JavaScript holds the same list.
constexpr std::string_view kErrorWords[] = {
    "error",      "exception",    "fatal",     "fail",          "traceback",
    "panic",      "abort",        "denied",    "refused",       "timed out",
    "timeout",    "cannot",       "can't",     "unable",        "invalid",
    "not found",  "no such",      "killed",    "segfault",      "segmentation fault",
    "critical",   "errno",        "exceeded",  "overflow",      "violation",
    "unexpected", "exhausted",    "rejected",  "expired",       "incompatible",
    "conflict",   "unauthorized", "forbidden", "out of memory", "crash"};

// The error words in a line as fold_for_atoms folds it: this finds what `(?i)error|...` finds,
// since RE2 folds nothing but ASCII letters, ſ and K to the ASCII letters of these words. It is
// faster than that regex (a log's every INFO line is searched) and shared by threads without a
// lock.
const AtomFinder& error_word_finder() {
  static const AtomFinder finder(error_words());
  return finder;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The position after the `close` found at or after `i`, or the end of the pattern.
std::size_t after(std::string_view p, char close, std::size_t i) {
  const std::size_t found = p.find(close, i);
  return found == std::string_view::npos ? p.size() : found + 1;
}

// One group of the pattern being scanned, and the literal count of its alternatives so far.
struct Group {
  int best = -1;  // the smallest count of a finished alternative; -1 before the first `|`
  int sum = 0;    // the count of the current alternative
  int last = 0;   // the count of the last item, which a following quantifier applies to
  int total() const { return best < 0 ? sum : std::min(best, sum); }
  void add(int count) {
    sum += count;
    last = count;
  }
  void make_last_optional() {
    sum -= last;
    last = 0;
  }
};

// `{n}`, `{n,}` or `{n,m}` at `i`: its length and n; nullopt when `{` is a literal brace.
std::optional<std::pair<std::size_t, int>> repetition(std::string_view p, std::size_t i) {
  std::size_t j = i + 1;
  int low = 0;
  const std::size_t digits = j;
  for (; j < p.size() && is_digit(p[j]); ++j) low = std::min(low * 10 + (p[j] - '0'), 100000);
  if (j == digits || j >= p.size()) return std::nullopt;
  if (p[j] == ',') {
    for (++j; j < p.size() && is_digit(p[j]); ++j) {
    }
  }
  if (j >= p.size() || p[j] != '}') return std::nullopt;
  return std::pair{j + 1 - i, low};
}

// The position after the character class that opens at `i` (`[`).
std::size_t skip_class(std::string_view p, std::size_t i) {
  ++i;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;  // a `]` first is a literal
  while (i < p.size() && p[i] != ']') {
    if (p.compare(i, 2, "[:") == 0) {
      const std::size_t end = p.find(":]", i + 2);
      i = end == std::string_view::npos ? p.size() : end + 2;
    } else if (p[i] == '\\' && i + 1 < p.size()) {
      i += 2;
      if (p[i - 1] == 'p' || p[i - 1] == 'P') {
        if (i < p.size() && p[i] == '{') i = after(p, '}', i);
      }
    } else {
      ++i;
    }
  }
  return std::min(p.size(), i + 1);
}

// The escape at `i` (`\`): its literal count and the position after it.
std::pair<int, std::size_t> escape(std::string_view p, std::size_t i) {
  if (i + 1 >= p.size()) return {0, p.size()};
  const char c = p[i + 1];
  if (c == 'Q') {
    std::size_t end = p.find("\\E", i + 2);
    if (end == std::string_view::npos) end = p.size();
    return {static_cast<int>(code_points(p.substr(i + 2, end - i - 2))),
            std::min(p.size(), end + 2)};
  }
  if (c == 'p' || c == 'P') {
    if (i + 2 < p.size() && p[i + 2] == '{') return {0, after(p, '}', i)};
    return {0, code_point_end(p, std::min(p.size() - 1, i + 2) + 1)};
  }
  if (std::string_view("dDwWsSbBAzC").find(c) != std::string_view::npos) return {0, i + 2};
  if (c == 'x' && i + 2 < p.size() && p[i + 2] == '{') return {1, after(p, '}', i)};
  if (c == 'x') return {1, std::min(p.size(), i + 4)};
  if (is_digit(c)) {  // an octal escape
    std::size_t j = i + 1;
    while (j < p.size() && j < i + 4 && is_digit(p[j])) ++j;
    return {1, j};
  }
  return {1, code_point_end(p, i + 2)};
}

// A `(` at `i`: the position after its opener, and whether it opens a group (else it only
// sets flags, as `(?i)` does).
std::pair<std::size_t, bool> group_opener(std::string_view p, std::size_t i) {
  if (i + 1 >= p.size() || p[i + 1] != '?') return {i + 1, true};
  if (i + 2 < p.size() && (p[i + 2] == 'P' || p[i + 2] == '<')) {
    return {after(p, '>', i), true};
  }
  std::size_t j = i + 2;
  while (j < p.size() && p[j] != ':' && p[j] != ')') ++j;
  if (j >= p.size()) return {p.size(), false};
  return {j + 1, p[j] == ':'};
}

// The position after the group that opens at `i` (`(`), or the end of the pattern.
std::size_t skip_group(std::string_view p, std::size_t i) {
  int depth = 0;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '[') {
      i = skip_class(p, i);
      continue;
    }
    if (c == '\\') {
      i = escape(p, i).second;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return i + 1;
    ++i;
  }
  return p.size();
}

// The top-level pieces of `p` between `|`.
std::vector<std::string_view> split_alternation(std::string_view p) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '[') {
      i = skip_class(p, i);
    } else if (c == '\\') {
      i = escape(p, i).second;
    } else if (c == '(') {
      i = skip_group(p, i);
    } else {
      if (c == '|') {
        out.push_back(p.substr(start, i - start));
        start = i + 1;
      }
      ++i;
    }
  }
  out.push_back(p.substr(start));
  return out;
}

}  // namespace

std::vector<std::string> top_alternatives(std::string_view p) {
  std::size_t i = 0;
  while (p.substr(i, 2) == "(?") {  // leading flag groups, such as (?i)
    const auto [next, opens] = group_opener(p, i);
    if (opens || next > p.size() || p[next - 1] != ')') break;
    i = next;
  }
  const std::string flags(p.substr(0, i));
  std::string_view rest = p.substr(i);
  std::vector<std::string_view> pieces = split_alternation(rest);
  if (pieces.size() < 2 && rest.size() > 1 && rest[0] == '(' && rest.back() == ')' &&
      skip_group(rest, 0) == rest.size()) {
    const auto [inner, opens] = group_opener(rest, 0);
    const bool plain = inner == 1 || rest.substr(0, 3) == "(?:";
    if (opens && plain && inner < rest.size())
      pieces = split_alternation(rest.substr(inner, rest.size() - 1 - inner));
  }
  std::vector<std::string> out;
  if (pieces.size() < 2) return out;
  for (const std::string_view piece : pieces) out.push_back(flags + std::string(piece));
  return out;
}

std::vector<std::pair<int, std::string>> specific_alternatives(std::string_view pattern) {
  const int whole = regex_specificity(pattern);
  std::vector<std::pair<int, std::string>> out;
  for (std::string& alternative : top_alternatives(pattern)) {
    const int specificity = regex_specificity(alternative);
    if (specificity > whole) out.emplace_back(specificity, std::move(alternative));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

int coverage_permille(std::size_t matched, std::size_t line) {
  if (line == 0) return 0;
  return static_cast<int>(std::min<std::size_t>(matched, line) * 1000 / line);
}

int hit_score(bool by_signature, int specificity, std::size_t line_code_points, LineKind kind) {
  const int coverage =
      coverage_permille(static_cast<std::size_t>(std::max(specificity, 0)), line_code_points);
  const int evidence = std::min(specificity, kMaxSpecificity) * kSpecificityWeight +
                       (by_signature ? kSignatureBonus : 0);
  const int line = kind == LineKind::key       ? kKeyLineWeight
                   : kind == LineKind::error   ? kErrorLineWeight
                   : kind == LineKind::context ? kContextLineWeight
                                               : 0;
  return evidence + coverage / 10 + line;
}

int breadth_penalty(int benign_lines, int other_errors) {
  const int benign = benign_lines > 0 ? kBenignPenalty + std::min(benign_lines, 100) : 0;
  return benign + 20 * std::min(other_errors, 10);
}

const std::vector<std::string_view>& error_words() {
  static const std::vector<std::string_view> words(std::begin(kErrorWords), std::end(kErrorWords));
  return words;
}

bool looks_like_error(std::string_view line) {
  thread_local std::string folded;
  thread_local std::vector<int> found;
  fold_for_atoms(line, folded);
  found.clear();
  error_word_finder().find(folded, found);
  return !found.empty();
}

bool declares_low_severity(std::string_view line) {
  // The first whole-word occurrence, which must end within the first kSeverityBytes bytes.
  for (const std::string_view level : {"INFO", "DEBUG", "TRACE"}) {
    const std::size_t at = find_word(line.substr(0, kSeverityBytes + 1), level);
    if (at != std::string_view::npos && at + level.size() <= kSeverityBytes) return true;
  }
  return false;
}

int regex_specificity(std::string_view p) {
  std::vector<Group> groups(1);
  std::size_t i = 0;
  while (i < p.size()) {
    Group& group = groups.back();
    const char c = p[i];
    if (c == '(') {
      const auto [next, opens] = group_opener(p, i);
      if (opens) groups.emplace_back();
      if (!opens) group.last = 0;
      i = next;
    } else if (c == ')') {
      if (groups.size() > 1) {
        const int count = group.total();
        groups.pop_back();
        groups.back().add(count);
      }
      ++i;
    } else if (c == '|') {
      group.best = group.total();
      group.sum = group.last = 0;
      ++i;
    } else if (c == '*' || c == '?') {
      group.make_last_optional();
      ++i;
    } else if (c == '+') {
      group.last = 0;
      ++i;
    } else if (const auto repeat = c == '{' ? repetition(p, i) : std::nullopt) {
      if (repeat->second == 0) group.make_last_optional();
      group.last = 0;
      i += repeat->first;
    } else if (c == '[') {
      group.add(0);
      i = skip_class(p, i);
    } else if (c == '\\') {
      const auto [count, next] = escape(p, i);
      group.add(count);
      i = next;
    } else if (c == '.' || c == '^' || c == '$') {
      group.add(0);
      ++i;
    } else {
      group.add(1);
      i = code_point_end(p, i + 1);
    }
  }
  while (groups.size() > 1) {  // groups left open
    const int count = groups.back().total();
    groups.pop_back();
    groups.back().add(count);
  }
  return groups.front().total();
}

}  // namespace kbc
