#include "lint/backtracking.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "match/js_regex_items.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

// A regex read as a tree of what a backtracking engine steps through. A group is its content
// (its span taking in the parentheses); a flag group such as (?i) is no node, but changes the
// regex of the characters after it.
struct Node {
  enum Kind { kEmpty, kCharacter, kAssertion, kConcat, kAlternation, kRepeat };
  Kind kind = kEmpty;
  std::size_t begin = 0, end = 0;  // its bytes in the pattern, with a group's parentheses
  std::size_t own_begin = std::string_view::npos, own_end = 0;  // without them, in a group
  std::string re2;             // kCharacter: an RE2 regex matching exactly its characters
  std::string literal;         // kCharacter: its one character, a literal outside (?i)
  int min = 0, max = 0;        // kRepeat: the counts, max -1 for no limit
  std::vector<Node> children;  // the parts in order, or (kRepeat) the repeated part
};

struct GroupFlags {
  bool fold = false;    // (?i)
  bool dot_nl = false;  // (?s)
};

// A quantifier: its counts and its length, with the `?` that makes it lazy.
struct Count {
  int min, max;
  std::size_t length;
};

// What a group's opening reads: where its content starts, and its flags; `sets_flags` for a
// flag group without content, such as (?i), whose flags hold for the rest of the enclosing group.
struct Opener {
  std::size_t next;
  GroupFlags flags;
  bool sets_flags;
};

Node only_child(Node node) {
  if (node.children.size() != 1) return node;
  Node child = std::move(node.children[0]);
  return child;
}

// Reads an RE2 pattern into Nodes; js::Refusal on what it does not know as RE2 syntax.
class TreeReader {
 public:
  explicit TreeReader(std::string_view pattern) : p_(pattern), items_(pattern) {}

  Node read() {
    std::size_t i = 0;
    Node root = alternation(i, GroupFlags{});
    if (i != p_.size()) js::not_re2(p_, i);  // a ')' with no '('
    return root;
  }

 private:
  Node alternation(std::size_t& i, GroupFlags flags) {
    Node node{.kind = Node::kAlternation, .begin = i};
    node.children.push_back(concat(i, flags));
    while (i < p_.size() && p_[i] == '|') {
      ++i;
      node.children.push_back(concat(i, flags));
    }
    node.end = i;
    return only_child(std::move(node));
  }

  // Items to the next `|` or `)`; a flag group changes `flags` for the rest of the group.
  Node concat(std::size_t& i, GroupFlags& flags) {
    Node node{.kind = Node::kConcat, .begin = i};
    while (i < p_.size() && p_[i] != '|' && p_[i] != ')') {
      if (const auto count = quantifier(i)) {
        if (node.children.empty()) js::not_re2(p_, i);
        Node& last = node.children.back();
        last = repeated(std::move(last), *count, i);
      } else {
        item(i, flags, node.children);
      }
    }
    node.end = i;
    if (node.children.empty()) return Node{.kind = Node::kEmpty, .begin = i, .end = i};
    return only_child(std::move(node));
  }

  // `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}` at `i`, as RE2 reads them; nullopt where `{` is a
  // literal.
  std::optional<Count> quantifier(std::size_t i) const {
    std::optional<Count> count;
    if (p_[i] == '*') count = Count{0, -1, 1};
    if (p_[i] == '+') count = Count{1, -1, 1};
    if (p_[i] == '?') count = Count{0, 1, 1};
    if (p_[i] == '{') count = braces(i);
    if (count && i + count->length < p_.size() && p_[i + count->length] == '?') ++count->length;
    return count;
  }

  // `{n}`, `{n,}` or `{n,m}` at `i` (numbers without leading zeros).
  std::optional<Count> braces(std::size_t i) const {
    std::size_t j = i + 1;
    const auto number = [&]() -> std::optional<int> {
      const std::size_t start = j;
      int value = 0;
      for (; j < p_.size() && p_[j] >= '0' && p_[j] <= '9' && value < 100000; ++j)
        value = value * 10 + (p_[j] - '0');
      if (j == start || (j - start > 1 && p_[start] == '0')) return std::nullopt;
      return value;
    };
    const auto low = number();
    if (!low || j >= p_.size()) return std::nullopt;
    std::optional<int> high = low;
    if (p_[j] == ',') {
      ++j;
      high = j < p_.size() && p_[j] == '}' ? -1 : number();
    }
    if (!high || j >= p_.size() || p_[j] != '}') return std::nullopt;
    return Count{*low, *high, j + 1 - i};
  }

  static Node repeated(Node part, const Count& count, std::size_t& i) {
    i += count.length;
    Node node{.kind = Node::kRepeat, .begin = part.begin, .end = i};
    node.min = count.min;
    node.max = count.max;
    node.children.push_back(std::move(part));
    return node;
  }

  void item(std::size_t& i, GroupFlags& flags, std::vector<Node>& out) {
    const std::size_t begin = i;
    switch (p_[i]) {
      case '(':
        if (auto content = group(i, flags)) out.push_back(std::move(*content));
        return;
      case '[':
        i = items_.char_class(i).second;
        return out.push_back(character(begin, i, flags));
      case '.':
        return out.push_back(character(begin, ++i, flags));
      case '^':
      case '$':
        return out.push_back(Node{.kind = Node::kAssertion, .begin = begin, .end = ++i});
      case '\\':
        return escape(i, flags, out);
    }
    char32_t code;
    std::tie(code, i) = js::decode(p_, i);
    out.push_back(character(begin, i, flags, code));
  }

  // The item of RE2 at p_[begin, end) that matches one character, or the literal `code`.
  Node character(std::size_t begin, std::size_t end, const GroupFlags& flags,
                 std::optional<char32_t> code = std::nullopt) const {
    Node node{.kind = Node::kCharacter, .begin = begin, .end = end};
    if (flags.fold || flags.dot_nl)
      node.re2 = std::string("(?") + (flags.fold ? "i" : "") + (flags.dot_nl ? "s" : "") + ")";
    if (!code) {
      node.re2 += p_.substr(begin, end - begin);
      return node;
    }
    std::string text;
    append_utf8(text, *code);
    node.re2 += RE2::QuoteMeta(text);
    if (!flags.fold) node.literal = text;
    return node;
  }

  void escape(std::size_t& i, const GroupFlags& flags, std::vector<Node>& out) {
    const std::size_t begin = i;
    if (i + 1 >= p_.size()) js::not_re2(p_, i);
    const char c = p_[i + 1];
    if (c == 'b' || c == 'B' || c == 'A' || c == 'z') {
      i += 2;
      return out.push_back(Node{.kind = Node::kAssertion, .begin = begin, .end = i});
    }
    if (c == 'Q') return quoted(i, flags, out);
    if (c == 'p' || c == 'P') {
      i = items_.unicode_class(i, false).second;
    } else if (js::is_perl_class(c) || c == 'C') {
      i += 2;
    } else {
      char32_t code;
      std::tie(code, i) = items_.escaped_character(i);
      return out.push_back(character(begin, i, flags, code));
    }
    out.push_back(character(begin, i, flags));
  }

  // `\Q...\E` at `i`: every character to `\E` or the end a literal.
  void quoted(std::size_t& i, const GroupFlags& flags, std::vector<Node>& out) const {
    for (i += 2; i < p_.size() && !p_.substr(i).starts_with("\\E");) {
      const std::size_t begin = i;
      char32_t code;
      std::tie(code, i) = js::decode(p_, i);
      out.push_back(character(begin, i, flags, code));
    }
    if (i < p_.size()) i += 2;
  }

  // The group at `i`, read to its `)`; nullopt for a flag group such as (?i), which sets `flags`.
  std::optional<Node> group(std::size_t& i, GroupFlags& flags) {
    const std::size_t begin = i;
    const Opener open = opener(i, flags);
    i = open.next;
    if (open.sets_flags) {
      flags = open.flags;
      return std::nullopt;
    }
    Node node = alternation(i, open.flags);
    if (i >= p_.size() || p_[i] != ')') js::not_re2(p_, begin);
    if (node.own_begin == std::string_view::npos) {
      node.own_begin = node.begin;
      node.own_end = node.end;
    }
    node.begin = begin;
    node.end = ++i;
    return node;
  }

  // `(`, `(?:`, `(?P<name>`, `(?<name>`, `(?flags:` or `(?flags)` at `i`.
  Opener opener(std::size_t i, GroupFlags flags) const {
    const std::string_view rest = p_.substr(i);
    if (rest.starts_with("(?P<") || rest.starts_with("(?<")) {
      const std::size_t end = p_.find('>', i);
      if (end == std::string_view::npos) js::not_re2(p_, i);
      return {end + 1, flags, false};
    }
    if (!rest.starts_with("(?")) return {i + 1, flags, false};
    bool on = true;
    for (std::size_t j = i + 2; j < p_.size(); ++j) {
      const char c = p_[j];
      if (c == 'i') flags.fold = on;
      if (c == 's') flags.dot_nl = on;
      if (c == '-') on = false;
      if (c == ':' || c == ')') return {j + 1, flags, c == ')'};
      if (std::string_view("ismU-").find(c) == std::string_view::npos) break;
    }
    js::not_re2(p_, i);
  }

  std::string_view p_;
  js::ItemReader items_;
};

// A repetition that can run many times: an engine then tries as many ways as it has passes.
constexpr int kManyPasses = 10;

bool repeats_many(const Node& node) {
  return node.kind == Node::kRepeat && (node.max < 0 || node.max >= kManyPasses);
}

// The characters tested for membership: every code point to U+02FF, and one in 97 beyond, to
// U+FFFF (no surrogates). A character two items both match shows that they overlap.
const std::vector<std::string>& sample_characters() {
  static const std::vector<std::string> samples = [] {
    std::vector<std::string> out;
    for (char32_t code = 0; code <= 0xFFFF; code += code < 0x300 ? 1 : 97) {
      if (code >= 0xD800 && code <= 0xDFFF) continue;
      append_utf8(out.emplace_back(), code);
    }
    return out;
  }();
  return samples;
}

// Finds, in the Nodes of one pattern, a repetition that can split a text in many ways.
class Analysis {
 public:
  explicit Analysis(std::string_view pattern) : p_(pattern) {}

  std::optional<Backtracking> find(const Node& node) {
    if (repeats_many(node)) {
      if (auto found = nested(node)) return found;
      if (auto found = overlapping(node, node.children[0], true)) return found;
    }
    for (const Node& child : node.children) {
      if (auto found = find(child)) return found;
    }
    return std::nullopt;
  }

 private:
  // The node as written, without the parentheses of a group around it.
  std::string text(const Node& node) const {
    if (node.own_begin == std::string_view::npos)
      return std::string(p_.substr(node.begin, node.end - node.begin));
    return std::string(p_.substr(node.own_begin, node.own_end - node.own_begin));
  }

  // True when `node` can match a text made of characters that `one` matches too, or the empty
  // string (without an assertion); only the empty string when `one` is nullptr.
  bool fits(const Node& node, const Node* one) {
    switch (node.kind) {
      case Node::kEmpty:
        return true;
      case Node::kCharacter:
        return one && overlap(node, *one);
      case Node::kAssertion:
        return false;
      case Node::kConcat:
        return std::all_of(node.children.begin(), node.children.end(),
                           [&](const Node& child) { return fits(child, one); });
      case Node::kAlternation:
        return std::any_of(node.children.begin(), node.children.end(),
                           [&](const Node& child) { return fits(child, one); });
      case Node::kRepeat:
        return node.min == 0 || fits(node.children[0], one);
    }
    return false;
  }

  bool nullable(const Node& node) { return fits(node, nullptr); }

  // True when `node` can match a character: a repeated assertion, as in `$*`, is no loop.
  static bool consumes(const Node& node) {
    if (node.kind == Node::kCharacter) return true;
    if (node.kind == Node::kRepeat && node.max == 0) return false;
    return std::any_of(node.children.begin(), node.children.end(), consumes);
  }

  // True when each of `others` can match nothing or characters that the one-character `part`
  // matches (nothing only, when `part` is more than one character).
  bool all_fit(const std::vector<const Node*>& others, const Node& part) {
    const Node* one = part.kind == Node::kCharacter ? &part : nullptr;
    return std::all_of(others.begin(), others.end(),
                       [&](const Node* other) { return fits(*other, one); });
  }

  // The first unbounded repetition X* that one pass through `node` can consist of, beside
  // `others` (the rest of the pass), all of which fit X: two passes can then be matched as one,
  // X taking in what lies between. Looks through groups, alternatives and parts used at most once.
  const Node* tradable_loop(const Node& node, std::vector<const Node*>& others) {
    if (node.kind == Node::kRepeat) {
      const Node& part = node.children[0];
      if (node.max < 0 && !nullable(part) && consumes(part) && all_fit(others, part)) return &node;
      return node.max != 0 && node.min <= 1 ? tradable_loop(part, others) : nullptr;
    }
    if (node.kind == Node::kAlternation) {
      for (const Node& child : node.children) {
        if (const Node* loop = tradable_loop(child, others)) return loop;
      }
    }
    if (node.kind != Node::kConcat) return nullptr;
    for (const Node& child : node.children) {
      if (child.children.empty()) continue;  // a character or an assertion: no repetition
      const std::size_t kept = others.size();
      for (const Node& other : node.children) {
        if (&other != &child) others.push_back(&other);
      }
      const Node* loop = tradable_loop(child, others);
      others.resize(kept);
      if (loop) return loop;
    }
    return nullptr;
  }

  std::optional<Backtracking> nested(const Node& repeat) {
    std::vector<const Node*> others;
    const Node* loop = tradable_loop(repeat.children[0], others);
    if (!loop) return std::nullopt;
    return Backtracking{Backtracking::kNestedRepetition, text(repeat), text(*loop), ""};
  }

  // An alternation in a pass of `repeat` (the whole pass when `whole`) two of whose
  // alternatives match a common text.
  std::optional<Backtracking> overlapping(const Node& repeat, const Node& node, bool whole) {
    if (node.kind == Node::kAlternation) {
      if (auto found = overlapping_pair(repeat, node, whole)) return found;
    }
    if (node.kind == Node::kRepeat && node.max == 0) return std::nullopt;
    for (const Node& child : node.children) {
      if (auto found = overlapping(repeat, child, false)) return found;
    }
    return std::nullopt;
  }

  std::optional<Backtracking> overlapping_pair(const Node& repeat, const Node& alternation,
                                               bool whole) {
    std::vector<std::vector<const Node*>> strings;
    for (const Node& alternative : alternation.children) strings.push_back(characters(alternative));
    for (std::size_t i = 0; i < strings.size(); ++i) {
      for (std::size_t j = i + 1; j < strings.size(); ++j) {
        const bool i_shorter = strings[i].size() <= strings[j].size();
        const auto& shorter = i_shorter ? strings[i] : strings[j];
        const auto& longer = i_shorter ? strings[j] : strings[i];
        if (shorter.empty() || (!whole && shorter.size() != longer.size())) continue;
        if (covers(shorter, longer))
          return Backtracking{Backtracking::kOverlappingAlternatives, text(repeat),
                              text(alternation.children[i]), text(alternation.children[j])};
      }
    }
    return std::nullopt;
  }

  // The characters of a string of single characters or classes (`ab`, `\d[a-f]`); empty for
  // anything else.
  static std::vector<const Node*> characters(const Node& node) {
    if (node.kind == Node::kCharacter) return {&node};
    std::vector<const Node*> out;
    if (node.kind != Node::kConcat) return out;
    for (const Node& child : node.children) {
      if (child.kind != Node::kCharacter) return {};
      out.push_back(&child);
    }
    return out;
  }

  // True when a text matches `longer` and `shorter` repeated to the same length.
  bool covers(const std::vector<const Node*>& shorter, const std::vector<const Node*>& longer) {
    if (longer.size() % shorter.size() != 0) return false;
    for (std::size_t k = 0; k < longer.size(); ++k) {
      if (!overlap(*shorter[k % shorter.size()], *longer[k])) return false;
    }
    return true;
  }

  // True when a character matches both: tested directly where one is a literal, else on the
  // sample characters.
  bool overlap(const Node& a, const Node& b) {
    if (!a.literal.empty() && !b.literal.empty()) return a.literal == b.literal;
    if (!a.literal.empty()) return RE2::FullMatch(a.literal, regex(b));
    if (!b.literal.empty()) return RE2::FullMatch(b.literal, regex(a));
    const std::vector<bool>& in_a = members(a);
    const std::vector<bool>& in_b = members(b);
    for (std::size_t k = 0; k < in_a.size(); ++k) {
      if (in_a[k] && in_b[k]) return true;
    }
    return false;
  }

  // Which sample characters the character node matches, as RE2 decides.
  const std::vector<bool>& members(const Node& node) {
    auto [at, added] = members_.try_emplace(&node);
    if (added) {
      const RE2& matcher = regex(node);
      for (const std::string& sample : sample_characters())
        at->second.push_back(RE2::FullMatch(sample, matcher));
    }
    return at->second;
  }

  // The node's regex, compiled once (one that does not compile matches nothing).
  const RE2& regex(const Node& node) {
    std::unique_ptr<RE2>& compiled = regexes_[&node];
    if (!compiled) compiled = std::make_unique<RE2>(node.re2, entry_regex_options());
    return *compiled;
  }

  std::string_view p_;
  std::map<const Node*, std::vector<bool>> members_;
  std::map<const Node*, std::unique_ptr<RE2>> regexes_;
};

}  // namespace

std::optional<Backtracking> find_backtracking(std::string_view re2_pattern) {
  try {
    const Node root = TreeReader(re2_pattern).read();
    return Analysis(re2_pattern).find(root);
  } catch (const js::Refusal&) {
    return std::nullopt;  // not RE2 syntax as the reader knows it: nothing is claimed
  }
}

}  // namespace kbc
