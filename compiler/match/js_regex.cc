#include "match/js_regex.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "base/text.h"
#include "base/utf8.h"
#include "match/js_regex_items.h"

namespace kbc {
namespace {

using namespace js;

// Texts one of which any match contains, compared with ASCII letters lower-cased; nullopt when
// nothing is known. Made of the literals that match only themselves and their other ASCII case
// (under (?i) not s and k, which also match U+017F and U+212A), so the test never misses.
using Needs = std::optional<std::vector<std::string>>;
constexpr std::size_t kMaxNeeds = 16;

// The more selective of two: the longer shortest text, then fewer texts.
const Needs& better(const Needs& a, const Needs& b) {
  if (!a) return b;
  if (!b) return a;
  const auto shortest = [](const std::vector<std::string>& texts) {
    std::size_t out = std::string::npos;
    for (const std::string& text : texts) out = std::min(out, text.size());
    return out;
  };
  if (shortest(*a) != shortest(*b)) return shortest(*a) > shortest(*b) ? a : b;
  return a->size() <= b->size() ? a : b;
}

struct Flags {
  bool fold = false;        // (?i)
  bool multi_line = false;  // (?m)
  bool dot_nl = false;      // (?s)
  bool ungreedy = false;    // (?U)
};

class Translator {
 public:
  explicit Translator(std::string_view pattern) : p_(pattern), items_(pattern) {}

  JsRegex run() {
    groups_.emplace_back();
    std::size_t i = leading_flags();
    while (i < p_.size()) i = step(i);
    if (groups_.size() != 1) not_re2(p_, p_.size());
    commit(groups_[0]);
    // Where an empty match can start differs: RE2 tries every byte, so \B can match inside a
    // multi-byte character, and V8 tries the middle of a surrogate pair. Only a regex that can
    // match the empty string, and depends on an assertion to do so, can tell; unless it is
    // anchored at the start of the text (as the scaffold's ^$ is), where both begin.
    if (has_assertion_ && !anchored_ && (groups_[0].nullable || groups_[0].alt_nullable))
      refuse(
          "it can match the empty string at a place an assertion (^, $, \\b, \\B) picks; RE2 and "
          "JavaScript differ in where such a match can start");
    const Needs needs = finish_alternatives(groups_[0]);
    return {true, out_, fold_ ? "iu" : "u", "", needs.value_or(std::vector<std::string>())};
  }

 private:
  // The item last written in a group, which a following quantifier applies to.
  struct Item {
    enum Kind { kNone, kAtom, kAssertion, kRepeated } kind = kNone;
    std::size_t begin = 0;  // in out_
    bool nullable = false;  // it can match the empty string
    int literal = -1;       // a character that can extend a literal run of Needs, lower-cased
    Needs needs;
  };
  struct Group {
    Flags flags;
    std::size_t begin = 0;     // in out_
    bool nullable = false;     // a finished alternative can match the empty string
    bool alt_nullable = true;  // so can the current one, so far
    Item last;
    std::string run;       // the literal characters just before, in the current alternative
    Needs alt_needs;       // the best Needs of the current alternative so far
    Needs any;             // the texts of the finished alternatives, each of which has some
    bool unknown = false;  // a finished alternative has no Needs
  };
  struct FlagGroup {
    Flags flags;
    std::size_t next = 0;
    bool opens_group = false;  // (?i:...) rather than (?i)
  };

  // The flag groups at the very start, such as `(?i)` or `(?i)(?s)`: they hold for the whole
  // pattern, and (?i) becomes JavaScript's `i` flag.
  std::size_t leading_flags() {
    std::size_t i = 0;
    while (p_.substr(i).starts_with("(?")) {
      const auto group = flag_group(i, groups_[0].flags);
      if (!group || group->opens_group) break;
      groups_[0].flags = group->flags;
      i = group->next;
    }
    fold_ = groups_[0].flags.fold;
    items_.set_fold(fold_);
    return i;
  }

  // `(?flags)` or `(?flags:` at `i`, as RE2 reads them; nullopt for other `(?` openers.
  std::optional<FlagGroup> flag_group(std::size_t i, Flags flags) const {
    bool negated = false, saw_flag = false;
    for (std::size_t j = i + 2; j < p_.size(); ++j) {
      const char c = p_[j];
      bool* flag = c == 'i'   ? &flags.fold
                   : c == 'm' ? &flags.multi_line
                   : c == 's' ? &flags.dot_nl
                   : c == 'U' ? &flags.ungreedy
                              : nullptr;
      if (flag) {
        *flag = !negated;
        saw_flag = true;
      } else if (c == '-' && !negated) {
        negated = true;
        saw_flag = false;
      } else if ((c == ':' || c == ')') && !(negated && !saw_flag)) {
        return FlagGroup{flags, j + 1, c == ':'};
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  void check_fold(const Flags& flags) const {
    if (flags.fold != fold_)
      refuse(
          "case-insensitivity changes after the start, with (?-i), (?i:...) or a later (?i); "
          "JavaScript's i flag holds for the whole regex");
  }

  std::size_t step(std::size_t i) {
    const Flags& flags = groups_.back().flags;
    switch (p_[i]) {
      case '(':
        return open_group(i);
      case ')':
        return close_group(i);
      case '|':
        alternative();
        return i + 1;
      case '*':
        return quantify(i, 1, 0, -1);
      case '+':
        return quantify(i, 1, 1, -1);
      case '?':
        return quantify(i, 1, 0, 1);
      case '{':
        if (const auto repeat = repetition(i))
          return quantify(i, repeat->length, repeat->low, repeat->high);
        add_literal('{');
        return i + 1;
      case '^':
        add(Item::kAssertion, true, flags.multi_line ? "(?<![^\\n])" : "^");
        return i + 1;
      case '$':
        add(Item::kAssertion, true, flags.multi_line ? "(?![^\\n])" : "$");
        return i + 1;
      case '.':
        add(Item::kAtom, false, flags.dot_nl ? "[^]" : "[^\\n]");
        return i + 1;
      case '[': {
        auto [text, next] = items_.char_class(i);
        add(Item::kAtom, false, text);
        return next;
      }
      case '\\':
        return escape(i);
      default: {
        const auto [cp, next] = decode(p_, i);
        add_literal(cp);
        return next;
      }
    }
  }

  // Ends the pending item of `group`: it now belongs to the current alternative.
  static void commit(Group& group) {
    const Item& last = group.last;
    if (last.kind != Item::kNone) group.alt_nullable = group.alt_nullable && last.nullable;
    if (last.kind == Item::kAtom && last.literal >= 0) {
      group.run += static_cast<char>(last.literal);
    } else if (last.kind != Item::kNone) {
      end_run(group);
      group.alt_needs = better(group.alt_needs, last.needs);
    }
    group.last = {};
  }

  static void end_run(Group& group) {
    if (!group.run.empty())
      group.alt_needs = better(group.alt_needs, std::vector<std::string>{group.run});
    group.run.clear();
  }

  // Ends the current alternative of `group`; returns the Needs of all its alternatives.
  static Needs finish_alternatives(Group& group) {
    commit(group);
    end_run(group);
    if (!group.alt_needs) group.unknown = true;
    if (group.unknown) return std::nullopt;
    std::vector<std::string> texts = group.any.value_or(std::vector<std::string>());
    for (const std::string& text : *group.alt_needs) {
      if (std::find(texts.begin(), texts.end(), text) == texts.end()) texts.push_back(text);
    }
    if (texts.size() > kMaxNeeds) return std::nullopt;
    return texts;
  }

  // A literal character: under (?i) an ASCII one other than s and k matches only itself and
  // its other case, so it can go into Needs.
  void add_literal(char32_t cp) {
    add(Item::kAtom, false, literal(cp, kSyntaxCharacters));
    const bool folds_wider = fold_ && (cp == 's' || cp == 'S' || cp == 'k' || cp == 'K');
    if (cp < 0x80 && !folds_wider) {
      Item& last = groups_.back().last;
      last.literal = cp >= 'A' && cp <= 'Z' ? static_cast<int>(cp + 32) : static_cast<int>(cp);
      last.needs = std::vector<std::string>{std::string(1, static_cast<char>(last.literal))};
    }
  }

  void add(Item::Kind kind, bool nullable, std::string_view text) {
    if (kind == Item::kAssertion) has_assertion_ = true;
    if (groups_.size() == 1 && out_.empty()) anchored_ = text == "^";
    Group& group = groups_.back();
    commit(group);
    group.last = Item{kind, out_.size(), nullable, -1, std::nullopt};
    out_ += text;
  }

  std::size_t open_group(std::size_t i) {
    Group group;
    group.flags = groups_.back().flags;
    std::string opener = "(";
    std::size_t next = i + 1;
    const std::size_t name_at = p_.substr(i).starts_with("(?P<")  ? i + 4
                                : p_.substr(i).starts_with("(?<") ? i + 3
                                                                  : 0;
    if (name_at > 0) {  // (?P<name>, and (?<name> in newer RE2
      const std::size_t end = p_.find('>', name_at);
      if (end == std::string_view::npos || end == name_at) not_re2(p_, i);
      const std::string_view name = p_.substr(name_at, end - name_at);
      if (!std::all_of(name.begin(), name.end(), is_word_character)) not_re2(p_, i);
      // A name does not change what matches: one JavaScript would reject (RE2 allows a digit
      // first) is dropped, and the group stays a capture group.
      if (!(name[0] >= '0' && name[0] <= '9')) opener = "(?<" + std::string(name) + ">";
      next = end + 1;
    } else if (p_.substr(i).starts_with("(?")) {
      const auto flags = flag_group(i, group.flags);
      if (!flags) not_re2(p_, i);
      check_fold(flags->flags);
      if (!flags->opens_group) {  // (?s) in the middle: for the rest of the current group
        groups_.back().flags = flags->flags;
        return flags->next;
      }
      group.flags = flags->flags;
      opener = "(?:";
      next = flags->next;
    }
    commit(groups_.back());
    group.begin = out_.size();
    out_ += opener;
    groups_.push_back(group);
    return next;
  }

  std::size_t close_group(std::size_t i) {
    if (groups_.size() == 1) not_re2(p_, i);
    Group group = groups_.back();
    groups_.pop_back();
    const Needs needs = finish_alternatives(group);
    out_ += ')';
    groups_.back().last = {Item::kAtom, group.begin, group.nullable || group.alt_nullable, -1,
                           needs};
    return i + 1;
  }

  void alternative() {
    if (groups_.size() == 1) anchored_ = false;
    Group& group = groups_.back();
    commit(group);
    group.nullable = group.nullable || group.alt_nullable;
    group.alt_nullable = true;
    group.any = finish_alternatives(group);
    if (!group.any) group.unknown = true;
    group.alt_needs.reset();
    out_ += '|';
  }

  struct Repetition {
    std::size_t length;
    int low, high;  // high -1: unbounded
  };

  // `{n}`, `{n,}` or `{n,m}` at `i` as RE2 reads it (no leading zeros); else `{` is a literal.
  std::optional<Repetition> repetition(std::size_t i) const {
    std::size_t j = i + 1;
    const auto number = [&]() -> std::optional<int> {
      const std::size_t start = j;
      int value = 0;
      for (; j < p_.size() && p_[j] >= '0' && p_[j] <= '9'; ++j) {
        if (value >= 100000000) return std::nullopt;
        value = value * 10 + (p_[j] - '0');
      }
      if (j == start || (j - start > 1 && p_[start] == '0')) return std::nullopt;
      return value;
    };
    const auto low = number();
    if (!low || j >= p_.size()) return std::nullopt;
    int high = *low;
    if (p_[j] == ',') {
      ++j;
      if (j < p_.size() && p_[j] == '}') {
        high = -1;
      } else {
        const auto parsed = number();
        if (!parsed) return std::nullopt;
        high = *parsed;
      }
    }
    if (j >= p_.size() || p_[j] != '}') return std::nullopt;
    return Repetition{j + 1 - i, *low, high};
  }

  std::size_t quantify(std::size_t i, std::size_t length, int low, int high) {
    Group& group = groups_.back();
    Item& last = group.last;
    // Nothing to repeat, or a repetition repeated: RE2 rejects both.
    if (last.kind == Item::kNone) not_re2(p_, i);
    // RE2 rejects a** but takes a*(?s)*; refused rather than followed.
    if (last.kind == Item::kRepeated) refuse("a repetition of a repetition, as in a*(?s)*");
    std::size_t next = i + length;
    bool lazy = next < p_.size() && p_[next] == '?';
    if (lazy) ++next;
    if (group.flags.ungreedy) lazy = !lazy;
    // JavaScript rejects an optional iteration that matches the empty string and backtracks
    // into the next alternative; RE2 (as Perl) accepts it: (|a)? matches "" in RE2, "a" in
    // JavaScript.
    if (last.nullable && (high < 0 || high > low))
      refuse(
          "an optional or repeated part that can match the empty string, as in (|a)? or (a?)*; "
          "JavaScript and RE2 stop such a part at different points");
    // JavaScript (`u` flag) does not repeat an assertion; a group around it does the same.
    if (last.kind == Item::kAssertion) {
      out_.insert(last.begin, "(?:");
      out_ += ')';
    }
    if (low == 0 && high == -1) {
      out_ += '*';
    } else if (low == 1 && high == -1) {
      out_ += '+';
    } else if (low == 0 && high == 1 && length == 1) {
      out_ += '?';
    } else {
      out_ += '{' + std::to_string(low);
      if (high != low) out_ += ',' + (high < 0 ? std::string() : std::to_string(high));
      out_ += '}';
    }
    if (lazy) out_ += '?';
    last.kind = Item::kRepeated;
    last.nullable = last.nullable || low == 0;
    if (low == 0) last.needs.reset();
    return next;
  }

  std::size_t escape(std::size_t i) {
    if (i + 1 >= p_.size()) not_re2(p_, i);
    const char c = p_[i + 1];
    switch (c) {
      case 'b':
      case 'B':
        if (fold_)
          refuse(
              "\\b or \\B under (?i), where JavaScript also counts U+017F and U+212A (the long "
              "s and the Kelvin sign) as word characters");
        add(Item::kAssertion, true, c == 'b' ? "\\b" : "\\B");
        return i + 2;
      case 'A':
        add(Item::kAssertion, true, "^");
        return i + 2;
      case 'z':
        add(Item::kAssertion, true, "$");
        return i + 2;
      case 'C':
        refuse("\\C, which matches a byte; JavaScript matches characters");
      case 'Q':
        return quoted(i + 2);
      case 'p':
      case 'P': {
        auto [text, next] = items_.unicode_class(i, false);
        add(Item::kAtom, false, text);
        return next;
      }
    }
    if (is_perl_class(c)) {
      add(Item::kAtom, false, items_.perl_class(c, false));
      return i + 2;
    }
    const auto [cp, next] = items_.escaped_character(i);
    add_literal(cp);
    return next;
  }

  // The text after `\Q`, to `\E` or the end: every character a literal.
  std::size_t quoted(std::size_t i) {
    while (i < p_.size()) {
      if (p_.substr(i).starts_with("\\E")) return i + 2;
      const auto [cp, next] = decode(p_, i);
      add_literal(cp);
      i = next;
    }
    return i;
  }

  std::string_view p_;
  ItemReader items_;
  std::string out_;
  bool fold_ = false;  // (?i) at the start: the `i` flag
  bool has_assertion_ = false;
  bool anchored_ = false;  // the pattern starts with ^ or \A (not under (?m)) and has no top |
  std::vector<Group> groups_;
};

}  // namespace

JsRegex js_regex(std::string_view re2_pattern) {
  try {
    return Translator(re2_pattern).run();
  } catch (const Refusal& refusal) {
    JsRegex refused;
    refused.reason = refusal.reason;
    return refused;
  }
}

}  // namespace kbc
