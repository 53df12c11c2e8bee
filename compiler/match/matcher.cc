#include "match/matcher.h"

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <thread>

#include "base/diagnostic.h"
#include "base/parallel.h"
#include "base/text.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

std::string text_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::vector<const nlohmann::json*> objects_in(const nlohmann::json& object, const char* key) {
  std::vector<const nlohmann::json*> out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const nlohmann::json& item : *it) {
    if (item.is_object()) out.push_back(&item);
  }
  return out;
}

std::vector<std::string> texts_in(const nlohmann::json& object, const char* key) {
  std::vector<std::string> out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const nlohmann::json& item : *it) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// The literal text that finds a signature (ignoring case): the signature trimmed, when it is one
// line.
std::optional<std::string_view> signature_literal(std::string_view signature) {
  signature = trim(signature);
  if (signature.empty() || signature.find('\n') != std::string_view::npos) return std::nullopt;
  return signature;
}

// The bytes [0, end) of `text` split after its last newline: complete lines, then the rest.
std::size_t after_last_newline(std::string_view text) {
  const std::size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? 0 : newline + 1;
}

// The number of lines of `text` that are not blank, counted up to `most`.
std::size_t nonblank_lines(std::string_view text, std::size_t most) {
  std::size_t count = 0;
  while (!text.empty() && count < most) {
    const std::size_t newline = text.find('\n');
    count += is_blank(text.substr(0, newline)) ? 0 : 1;
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
  return count;
}

// A line of a log that is matched only against the entries of such lines (see matcher.h).
bool low_severity_line(std::string_view line) {
  line = trim(line);
  return declares_low_severity(line) && !looks_like_error(line);
}

std::size_t count_lines(std::string_view text) {
  std::size_t lines = 0;
  const char* const end = text.data() + text.size();
  for (const char* at = text.data(); at < end; ++at, ++lines) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    if (!at) break;
  }
  return lines;
}

// What is wrong with a bundle that is JSON but not an array of records, worded once for its two
// readers (the document's and BundleReader); `record` counts from 1.
std::string not_an_array(std::string_view type) {
  return "a bundle is a JSON array of records, not " + std::string(type);
}
std::string record_fault(std::size_t record, std::string_view fault) {
  return "record " + std::to_string(record) + " of the bundle " + std::string(fault);
}
std::string not_an_object(std::size_t record) {
  return record_fault(record, "is not a JSON object");
}
std::string no_text(std::size_t record, std::string_view key) {
  return record_fault(record, "has no text '" + std::string(key) + "'");
}

// Keeps `action` as the record's best workaround when its rate is the highest so far (the first
// on a tie), or as the next best.
void offer_workaround(MatchRecord& record, MatchAction&& action) {
  if (!record.best_workaround || action.rate > record.best_workaround->rate) {
    if (record.best_workaround) record.next_workaround = std::move(record.best_workaround);
    record.best_workaround = std::move(action);
  } else if (!record.next_workaround || action.rate > record.next_workaround->rate) {
    record.next_workaround = std::move(action);
  }
}

// The records of a bundle from the events of nlohmann's SAX parser, as match_records_from_bundle
// reads them from the document: the fields that match_record reads (the last of repeated keys,
// empty when of another type), nothing else built. The first record at fault is reported, as
// there, once the whole text has parsed: a syntax error anywhere comes first.
class BundleReader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::vector<MatchRecord> take() {
    if (!error_.empty()) throw ToolError(error_);
    return std::move(records_);
  }

  bool null() override { return value(Kind::other, "null"); }
  bool boolean(bool) override { return value(Kind::other, "boolean"); }
  bool number_integer(number_integer_t number) override {
    return value(Kind::number, "number", {}, static_cast<double>(number));
  }
  bool number_unsigned(number_unsigned_t number) override {
    return value(Kind::number, "number", {}, static_cast<double>(number));
  }
  bool number_float(number_float_t number, const string_t&) override {
    return value(Kind::number, "number", {}, number);
  }
  bool string(string_t& text) override { return value(Kind::text, "string", &text); }
  bool binary(binary_t&) override { return value(Kind::other, "binary"); }
  bool start_object(std::size_t) override { return value(Kind::object, "object"); }
  bool start_array(std::size_t) override { return value(Kind::array, "array"); }
  bool end_object() override { return end(); }
  bool end_array() override { return end(); }

  bool key(string_t& key) override {
    if (roles_.back() == Role::record) {
      field_ = key == "id"                 ? Field::id
               : key == "signature"        ? Field::signature
               : key == "regex"            ? Field::regex
               : key == "fix_success_rate" ? Field::fix_success_rate
               : key == "workarounds"      ? Field::workarounds
               : key == "dead_ends"        ? Field::dead_ends
               : key == "aliases"          ? Field::aliases
               : key == "tags"             ? Field::tags
               : key == "error_code"       ? Field::error_code
                                           : Field::none;
    } else if (roles_.back() == Role::action) {
      const bool workaround = list_ == Field::workarounds;
      action_field_ = key == "action"                                      ? Field::action
                      : key == "how" && workaround                         ? Field::how
                      : key == "condition" && workaround                   ? Field::condition
                      : key == (workaround ? "success_rate" : "fail_rate") ? Field::rate
                                                                           : Field::none;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    // Thrown as nlohmann::json::parse would throw it.
    if (const auto* syntax = dynamic_cast<const nlohmann::json::parse_error*>(&error))
      throw *syntax;
    if (const auto* range = dynamic_cast<const nlohmann::json::out_of_range*>(&error)) throw *range;
    throw ToolError(error.what());
  }

 private:
  enum class Kind { text, number, object, array, other };
  // What an open object or array is: only these are read into.
  enum class Role { bundle, record, list, action, strings, other };
  enum class Field {
    none,
    id,
    signature,
    regex,
    fix_success_rate,
    workarounds,
    dead_ends,
    aliases,
    tags,
    error_code,
    action,
    how,
    condition,
    rate
  };

  // A value begins (a scalar, or an object or array opening) in the innermost open container.
  bool value(Kind kind, const char* type, const std::string* text = nullptr, double number = 0) {
    Role role = Role::other;
    switch (roles_.empty() ? Role::other : roles_.back()) {
      case Role::bundle:
        role = start_record(kind);
        break;
      case Role::record:
        role = record_value(kind, text, number);
        break;
      case Role::list:
        if (kind == Kind::object) {
          action_ = {};
          role = Role::action;
        }
        break;
      case Role::action:
        set(action_field_ == Field::action      ? &action_.action
            : action_field_ == Field::how       ? &action_.how
            : action_field_ == Field::condition ? &action_.condition
                                                : nullptr,
            action_field_ == Field::rate ? &action_.rate : nullptr, kind, text, number);
        break;
      case Role::strings:
        if (kind == Kind::text) strings_->push_back(*text);
        break;
      case Role::other:
        if (roles_.empty()) {
          if (kind == Kind::array)
            role = Role::bundle;
          else
            fail(not_an_array(type));
        }
        break;
    }
    if (kind == Kind::object || kind == Kind::array) roles_.push_back(role);
    return true;
  }

  Role start_record(Kind kind) {
    ++count_;
    if (kind != Kind::object) {
      fail(not_an_object(count_));
      return Role::other;
    }
    record_ = {};
    id_is_text_ = regex_is_text_ = false;
    return Role::record;
  }

  Role record_value(Kind kind, const std::string* text, double number) {
    switch (field_) {
      case Field::id:
        id_is_text_ = kind == Kind::text;
        set(&record_.id, nullptr, kind, text, number);
        break;
      case Field::regex:
        regex_is_text_ = kind == Kind::text;
        set(&record_.regex, nullptr, kind, text, number);
        break;
      case Field::signature:
        set(&record_.signature, nullptr, kind, text, number);
        break;
      case Field::error_code:
        set(&record_.error_code, nullptr, kind, text, number);
        break;
      case Field::aliases:
      case Field::tags:
        strings_ = field_ == Field::aliases ? &record_.aliases : &record_.tags;
        strings_->clear();  // the last list given is the one read
        if (kind == Kind::array) return Role::strings;
        break;
      case Field::fix_success_rate:
        set(nullptr, &record_.fix_success_rate, kind, text, number);
        break;
      case Field::workarounds:
      case Field::dead_ends:
        if (field_ == Field::workarounds) {
          record_.best_workaround.reset();  // the last list given is the one read
          record_.next_workaround.reset();
        } else {
          record_.dead_ends.clear();
        }
        if (kind == Kind::array) {
          list_ = field_;
          return Role::list;
        }
        break;
      default:
        break;
    }
    return Role::other;
  }

  // A scalar field: its text or its number, or empty when the value is of another kind.
  static void set(std::string* to_text, double* to_number, Kind kind, const std::string* text,
                  double number) {
    if (to_text) *to_text = kind == Kind::text ? *text : std::string();
    if (to_number) *to_number = kind == Kind::number ? number : 0;
  }

  bool end() {
    const Role role = roles_.back();
    roles_.pop_back();
    if (role == Role::action) {
      if (list_ == Field::workarounds)
        offer_workaround(record_, std::move(action_));
      else
        record_.dead_ends.push_back({std::move(action_.action), "", "", action_.rate});
    } else if (role == Role::record) {
      if (!id_is_text_) fail(no_text(count_, "id"));
      if (!regex_is_text_) fail(no_text(count_, "regex"));
      records_.push_back(std::move(record_));
    }
    return true;
  }

  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

  std::vector<Role> roles_;  // the open containers, outermost first
  std::vector<MatchRecord> records_;
  std::size_t count_ = 0;  // the values of the bundle so far
  MatchRecord record_;
  bool id_is_text_ = false;
  bool regex_is_text_ = false;
  Field field_ = Field::none;  // the record's key being read
  Field list_ = Field::none;   // workarounds or dead_ends, the list being read
  MatchAction action_;
  Field action_field_ = Field::none;             // the action's key being read
  std::vector<std::string>* strings_ = nullptr;  // the list of texts being read
  std::string error_;                            // the first record at fault
};

}  // namespace

MatchRecord match_record(const nlohmann::json& object) {
  MatchRecord record;
  record.id = text_field(object, "id");
  record.signature = text_field(object, "signature");
  record.regex = text_field(object, "regex");
  record.fix_success_rate = number_field(object, "fix_success_rate");
  for (const nlohmann::json* item : objects_in(object, "workarounds")) {
    offer_workaround(record, {text_field(*item, "action"), text_field(*item, "how"),
                              text_field(*item, "condition"), number_field(*item, "success_rate")});
  }
  for (const nlohmann::json* item : objects_in(object, "dead_ends")) {
    record.dead_ends.push_back(
        {text_field(*item, "action"), "", "", number_field(*item, "fail_rate")});
  }
  record.aliases = texts_in(object, "aliases");
  record.tags = texts_in(object, "tags");
  record.error_code = text_field(object, "error_code");
  return record;
}

std::vector<MatchRecord> match_records(const KnowledgeBase& kb) {
  std::vector<const Entry*> valid;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok) valid.push_back(&entry);
  }
  std::stable_sort(valid.begin(), valid.end(),
                   [](const Entry* a, const Entry* b) { return a->id() < b->id(); });
  std::vector<MatchRecord> records;
  for (const Entry* entry : valid) records.push_back(match_record(entry->data));
  return records;
}

std::vector<MatchRecord> match_records_from_bundle(const nlohmann::json& bundle) {
  if (!bundle.is_array()) throw ToolError(not_an_array(bundle.type_name()));
  std::vector<MatchRecord> records;
  for (std::size_t i = 0; i < bundle.size(); ++i) {
    const nlohmann::json& item = bundle[i];
    if (!item.is_object()) throw ToolError(not_an_object(i + 1));
    for (const char* key : {"id", "regex"}) {
      if (!item.contains(key) || !item[key].is_string()) throw ToolError(no_text(i + 1, key));
    }
    records.push_back(match_record(item));
  }
  return records;
}

std::optional<std::size_t> bundle_middle_cut(std::string_view json) {
  const std::size_t first = json.find_first_not_of(" \t\r\n");
  if (first == json.npos || json[first] != '[') return std::nullopt;
  std::size_t depth = 0;
  for (std::size_t at = first; at < json.size(); ++at) {
    switch (json[at]) {
      case '"':  // a string ends at the next quote after an even run of backslashes
        for (std::size_t backslashes = 1; backslashes % 2 == 1;) {
          at = json.find('"', at + 1);
          if (at == json.npos) return std::nullopt;
          backslashes = 0;
          while (json[at - 1 - backslashes] == '\\') ++backslashes;
        }
        break;
      case '[':
      case '{':
        ++depth;
        break;
      case ']':
      case '}':
        if (depth-- <= 1) return std::nullopt;  // the bundle ended before its middle
        break;
      case ',':
        if (depth == 1 && at >= json.size() / 2) return at;
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

namespace {

// Below this, a bundle is read on one thread.
constexpr std::size_t kParallelBundleBytes = 1 << 20;

// The records of `json`, or nullopt when it is not a bundle without fault.
std::optional<std::vector<MatchRecord>> read_bundle_piece(const std::string& json) {
  try {
    BundleReader reader;
    nlohmann::json::sax_parse(json, &reader);
    return reader.take();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<MatchRecord> match_records_from_bundle_text(std::string_view json) {
  // A large bundle is read in two halves, one per thread, each made a bundle of its own: the
  // text up to a comma between two records, closed, and an array opened before the rest. Only
  // when both are read without fault are their records taken; else the whole text is read again
  // on one thread, which reports the first fault in the text's order, as always.
  if (const auto cut =
          json.size() >= kParallelBundleBytes && std::thread::hardware_concurrency() > 1
              ? bundle_middle_cut(json)
              : std::nullopt) {
    std::optional<std::vector<MatchRecord>> first, second;
    std::thread reader([&] {
      std::string text;
      text.reserve(json.size() - *cut);
      text.append("[").append(json.substr(*cut + 1));
      second = read_bundle_piece(text);
    });
    std::string text;
    text.reserve(*cut + 1);
    text.append(json.substr(0, *cut)).append("]");
    first = read_bundle_piece(text);
    reader.join();
    if (first && second) {
      first->insert(first->end(), std::make_move_iterator(second->begin()),
                    std::make_move_iterator(second->end()));
      return std::move(*first);
    }
  }
  BundleReader reader;
  nlohmann::json::sax_parse(json, &reader);
  return reader.take();
}

// The best hit of each record so far, and the first and last lines it matched (a line is
// counted once, even when it was matched in pieces or by both patterns).
// The best hit of each record so far, its signature's and its regex's apart, and the first and
// last lines it matched (a line is counted once, even when it was matched in pieces or by both
// patterns). A regex's hits are ranked without its breadth penalty while the text is scanned:
// the penalty is the same for all of them, so it does not change which is the best, and it is
// computed only for the records that may be shown (`ranked`).
struct Matcher::Best {
  struct Slot {
    std::optional<Hit> signature;  // the best hit by the signature
    std::optional<Hit> regex;      // the best hit by the regex (or a near match), unpenalized
    std::size_t lines = 0;
    std::size_t first_line = 0;
    std::size_t last_line = 0;
  };
  std::map<std::size_t, Slot> slots;
  std::size_t low_lines = 0;         // lines of a log matched only against low_index_
  std::vector<NearLine> near_lines;  // the first kNearLines lines with an error word

  void keep_near(std::size_t line_number, std::string_view line, LineKind kind) {
    if (near_lines.size() < kNearLines)
      near_lines.push_back({line_number, std::string(line), kind});
  }

  static void keep(const Matcher& matcher, std::optional<Hit>& kept, Hit&& hit) {
    if (!kept || matcher.before(hit, *kept)) kept = std::move(hit);
  }

  // `hit` comes without its line, which is copied only when the hit is kept.
  void offer(const Matcher& matcher, Hit&& hit, std::string_view line) {
    const std::size_t number = hit.line_number;
    auto [it, added] = slots.try_emplace(hit.record);
    Slot& slot = it->second;
    if (added) {
      slot.lines = 1;
      slot.first_line = slot.last_line = number;
    } else if (slot.last_line != number) {
      ++slot.lines;
      slot.last_line = number;
    }
    std::optional<Hit>& kept = hit.by_signature ? slot.signature : slot.regex;
    if (!kept || matcher.before(hit, *kept)) {
      kept = std::move(hit);
      kept->line = line;
    }
  }

  // Takes in the hits of later lines (their line numbers already shifted).
  void merge(const Matcher& matcher, Best&& later) {
    low_lines += later.low_lines;
    for (NearLine& line : later.near_lines) {
      if (near_lines.size() == kNearLines) break;
      near_lines.push_back(std::move(line));
    }
    for (auto& [record, slot] : later.slots) {
      auto [it, added] = slots.try_emplace(record, slot);
      if (added) continue;
      Slot& mine = it->second;
      mine.lines += slot.lines - (mine.last_line == slot.first_line ? 1 : 0);
      mine.last_line = slot.last_line;
      if (slot.signature) keep(matcher, mine.signature, std::move(*slot.signature));
      if (slot.regex) keep(matcher, mine.regex, std::move(*slot.regex));
    }
  }

  // The best hit of each record, its regex's penalized by its breadth, scoring min_score or
  // more, best first, at most `top`. A penalty only lowers a score, so the records are taken in
  // the order of their best hit unpenalized, and a regex's breadth is computed only while a
  // record may still be among the first `top`.
  std::vector<Hit> ranked(const Matcher& matcher, std::size_t top, int min_score) const {
    std::vector<std::pair<Hit, const Slot*>> bounds;  // each record's best hit, unpenalized
    for (const auto& [record, slot] : slots) {
      const Hit& best = !slot.regex ? *slot.signature
                        : !slot.signature || matcher.before(*slot.regex, *slot.signature)
                            ? *slot.regex
                            : *slot.signature;
      bounds.emplace_back(best, &slot);
    }
    std::sort(bounds.begin(), bounds.end(),
              [&](const auto& a, const auto& b) { return matcher.before(a.first, b.first); });
    std::vector<Hit> hits;  // kept sorted, at most `top`
    for (const auto& [bound, slot] : bounds) {
      if (bound.rank.score < min_score) break;
      if (hits.size() == top && !matcher.before(bound, hits.back())) break;
      std::optional<Hit> best = slot->signature;
      if (slot->regex) {
        Hit regex = *slot->regex;
        if (!regex.near) regex.rank.score -= matcher.regex_penalty(regex.record);
        keep(matcher, best, std::move(regex));
      }
      if (best->rank.score < min_score) continue;
      best->lines = slot->lines;
      const auto at =
          std::upper_bound(hits.begin(), hits.end(), *best,
                           [&](const Hit& a, const Hit& b) { return matcher.before(a, b); });
      hits.insert(at, std::move(*best));
      if (hits.size() > top) hits.pop_back();
    }
    return hits;
  }
};

Matcher::Matcher(std::vector<MatchRecord> records, MatchOptions options)
    : records_(std::move(records)), options_(options) {
  std::vector<std::optional<std::string_view>> patterns;
  std::vector<bool> literal;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const MatchRecord& record = records_[i];
    patterns.push_back(is_blank(record.regex) ? std::nullopt
                                              : std::optional<std::string_view>(record.regex));
    patterns.push_back(options_.signatures ? signature_literal(record.signature) : std::nullopt);
    literal.insert(literal.end(), {false, true});
    regex_specificity_.push_back(regex_specificity(record.regex));
    signature_specificity_.push_back(static_cast<int>(code_points(trim(record.signature))));
    fix_rate_.push_back(rate_permille(record.fix_success_rate));
  }
  codes_ = std::vector<Codes>(records_.size());
  index_ = std::make_unique<RegexIndex>(patterns, literal, error_words(), options_.plans);
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const std::string_view signature = trim(records_[i].signature);
    if (!low_severity_line(signature.substr(0, signature.find('\n'))))
      patterns[2 * i] = patterns[2 * i + 1] = std::nullopt;
  }
  low_index_ = std::make_unique<RegexIndex>(patterns, literal, error_words(), options_.plans);
  alternatives_ = std::vector<Alternatives>(records_.size());
  std::vector<std::string_view> ids, signatures;
  for (const MatchRecord& record : records_) {
    ids.push_back(record.id);
    signatures.push_back(record.signature);
  }
  breadth_ = std::make_unique<RegexBreadth>(
      *index_, [](std::size_t record) { return 2 * record; }, std::move(ids), std::move(signatures),
      options_.benign ? *options_.benign : builtin_benign_lines());
}

int Matcher::regex_penalty(std::size_t record) const {
  const Breadth breadth = breadth_->of(record);
  return breadth_penalty(breadth.benign_lines, breadth.other_errors);
}

int Matcher::hit_specificity(std::size_t record, std::string_view span) const {
  Alternatives& alternatives = alternatives_[record];
  std::call_once(alternatives.compiled, [&] {
    for (const auto& [specificity, pattern] : specific_alternatives(records_[record].regex)) {
      auto regex = std::make_unique<RE2>(pattern, entry_regex_options());
      if (regex->ok()) alternatives.regexes.emplace_back(specificity, std::move(regex));
    }
  });
  for (const auto& [specificity, regex] : alternatives.regexes) {
    if (RE2::FullMatch(re2::StringPiece(span.data(), span.size()), *regex)) return specificity;
  }
  return regex_specificity_[record];
}

const std::vector<std::string>& Matcher::codes(std::size_t record) const {
  Codes& codes = codes_[record];
  std::call_once(codes.found, [&] {
    const auto add = [&](std::string_view text) {
      for (std::string& word : near_words(text)) {
        if (is_code_word(word) &&
            std::find(codes.words.begin(), codes.words.end(), word) == codes.words.end())
          codes.words.push_back(std::move(word));
      }
    };
    const MatchRecord& r = records_[record];
    add(r.signature);
    for (const std::string& alias : r.aliases) add(alias);
    add(r.error_code);
  });
  return codes.words;
}

bool Matcher::holds_code(std::size_t record, std::string_view line) const {
  thread_local std::string lower;
  ascii_lower(line, lower);
  return std::any_of(codes(record).begin(), codes(record).end(), [](const std::string& code) {
    return find_word(lower, code) != std::string::npos;
  });
}

const NearIndex& Matcher::near_index() const {
  std::call_once(near_built_, [this] {
    std::vector<NearPhrases> phrases;
    for (const MatchRecord& record : records_) {
      NearPhrases entry;
      entry.phrases.push_back(record.signature);
      entry.phrases.insert(entry.phrases.end(), record.aliases.begin(), record.aliases.end());
      if (!record.error_code.empty()) entry.phrases.push_back(record.error_code);
      std::string tags;
      for (const std::string& tag : record.tags) tags += tag + " ";
      if (!tags.empty()) entry.phrases.push_back(tags);
      phrases.push_back(std::move(entry));
    }
    near_ = std::make_unique<NearIndex>(phrases);
  });
  return *near_;
}

std::vector<Hit> Matcher::near_hits(const std::vector<NearLine>& lines, std::size_t top) const {
  Best best;
  for (const NearLine& line : lines) {
    if (line.kind == LineKind::context) continue;
    for (const NearHit& near : near_index().match(line.text)) {
      const Rank rank{near.score,           line.kind == LineKind::plain ? 0 : 1, 0, 0, 0,
                      fix_rate_[near.entry]};  // error_line: the line has an error word
      Hit hit{near.entry, rank, false, line.line_number, {}, 0, 0, 1, line.kind, true};
      best.offer(*this, std::move(hit), line.text);
    }
  }
  return best.ranked(*this, top, 0);
}

Matcher::~Matcher() = default;

std::vector<std::pair<std::string, std::string>> Matcher::regex_errors() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    if (!index_->error(2 * i).empty()) out.emplace_back(records_[i].id, index_->error(2 * i));
  }
  return out;
}

bool Matcher::before(const Hit& a, const Hit& b) const {
  if (a.rank != b.rank) return a.rank > b.rank;
  if (a.record != b.record) {
    const std::string& id_a = records_[a.record].id;
    const std::string& id_b = records_[b.record].id;
    return id_a != id_b ? id_a < id_b : a.record < b.record;
  }
  return a.line_number < b.line_number;
}

bool Matcher::scan_piece(std::string_view piece, std::size_t line_number, bool after_frame,
                         bool log, Best& best, const RegexIndex& index,
                         RegexIndex::Scratch& scratch) const {
  thread_local std::string buffer;
  const std::string_view line = normalized_line(trim(piece), buffer);
  if (line.empty()) return false;
  const std::vector<std::size_t>& candidates = index.candidates(line, scratch);
  if ((scratch.marked() || !log) && best.near_lines.size() < kNearLines) {
    const LineKind kind = line_kind(line, after_frame, scratch.marked());
    if (kind != LineKind::context) best.keep_near(line_number, line, kind);
  }
  offer_hits(line, line_number, after_frame, candidates, best, index, scratch);
  return is_python_frame(line);
}

void Matcher::offer_hits(std::string_view line, std::size_t line_number, bool after_frame,
                         const std::vector<std::size_t>& candidates, Best& best,
                         const RegexIndex& index, RegexIndex::Scratch& scratch) const {
  if (candidates.empty()) return;
  const int error_line = scratch.marked() ? 1 : 0;  // the error words are the index's markers
  std::optional<LineKind> kind;
  std::size_t line_code_points = 0;
  // Offers the hit of a pattern, if it matches; returns its coverage (-1: no hit).
  const auto offer = [&](std::size_t pattern) {
    const std::optional<std::string_view> span = index.match(pattern, line, scratch);
    if (!span || span->empty()) return -1;
    if (line_code_points == 0) line_code_points = code_points(line);
    if (!kind) kind = line_kind(line, after_frame, error_line == 1);
    const std::size_t record = pattern / 2;
    const bool by_signature = pattern % 2 == 1;
    const int specificity =
        by_signature ? signature_specificity_[record] : hit_specificity(record, *span);
    const int coverage = coverage_permille(code_points(*span), line_code_points);
    int score = hit_score(by_signature, specificity, line_code_points, *kind);
    if (!by_signature && !codes(record).empty() && holds_code(record, line)) score += kCodeBonus;
    const Rank rank{score,       error_line,           coverage,
                    specificity, by_signature ? 1 : 0, fix_rate_[record]};
    const std::size_t begin = static_cast<std::size_t>(span->data() - line.data());
    best.offer(*this,
               Hit{record,
                   rank,
                   by_signature,
                   line_number,
                   {},
                   begin,
                   begin + span->size(),
                   1,
                   *kind,
                   false},
               line);
    return rank.coverage;
  };
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::size_t pattern = candidates[c];
    if (pattern % 2 == 1 || c + 1 == candidates.size() || candidates[c + 1] != pattern + 1) {
      offer(pattern);
      continue;
    }
    // Both patterns of the record: its signature first. When that covers the whole line, the
    // regex's hit cannot rank higher unless its specificity is higher (its literal text is
    // within the line, so it is not), and is not sought (an error message that is exactly a
    // signature then costs no regex search).
    const std::size_t record = pattern / 2;
    ++c;
    if (offer(pattern + 1) < 1000 || regex_specificity_[record] > signature_specificity_[record])
      offer(pattern);
  }
}

// Matches the complete lines of `text`, numbering them from `first_line`.
bool Matcher::scan_lines(std::string_view text, std::size_t first_line, bool log, bool continued,
                         bool after_frame, Best& best, Scratch& scratch) const {
  std::size_t line_number = first_line;
  thread_local std::string buffer;
  for (bool first = true; !text.empty(); first = false) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (log && !(first && continued) && line.size() <= kMaxLineBytes) {
      // A line that declares a low severity and has no error word (low_severity_line), found
      // with the low index's candidates in one pass.
      const std::string_view trimmed = trim(line);
      if (declares_low_severity(trimmed)) {
        const std::string_view normal = normalized_line(trimmed, buffer);
        const std::vector<std::size_t>& candidates = low_index_->candidates(normal, scratch.low);
        if (!scratch.low.marked()) {
          offer_hits(normal, line_number, false, candidates, best, *low_index_, scratch.low);
          after_frame = false;
          ++best.low_lines;
          ++line_number;
          continue;
        }
      }
    }
    for (; line.size() > kMaxLineBytes; line.remove_prefix(kMaxLineBytes)) {
      scan_piece(line.substr(0, kMaxLineBytes), line_number, after_frame, log, best, *index_,
                 scratch.all);
      after_frame = false;
    }
    after_frame = scan_piece(line, line_number, after_frame, log, best, *index_, scratch.all);
    ++line_number;
  }
  return after_frame;
}

std::vector<Hit> Matcher::match_line(std::string_view line) const {
  Best best;
  RegexIndex::Scratch scratch;
  for (; line.size() > kMaxLineBytes; line.remove_prefix(kMaxLineBytes))
    scan_piece(line.substr(0, kMaxLineBytes), 1, false, false, best, *index_, scratch);
  scan_piece(line, 1, false, false, best, *index_, scratch);
  return best.ranked(*this, std::numeric_limits<std::size_t>::max(),
                     std::numeric_limits<int>::min());
}

std::vector<Hit> Matcher::match_text(std::string_view text, std::size_t top, int min_score) const {
  LogScan scan(*this);
  scan.feed(text);
  return scan.finish(top, min_score);
}

namespace {

constexpr std::size_t kParallelMinBytes = 64 << 10;  // below this, one thread is faster
// Parts given to the workers and not yet taken back, per core: enough that a worker always has
// one to take while the caller reads on, few enough to bound memory (on bench/match.sh's log,
// 2 per core made the whole run 12% slower, and 8 was no faster).
constexpr std::size_t kPartsPerCore = 4;

}  // namespace

struct LogScan::Part {
  std::string text;
  bool log = false;
  bool continued = false;
  bool after_frame = false;  // the line before `text` is a Python frame
  Matcher::Best found;       // its hits, its lines numbered from 1
  std::size_t lines = 0;     // newlines in `text`
};

LogScan::LogScan(const Matcher& matcher, LogScanOptions options)
    : matcher_(matcher),
      options_{options.all_lines, std::max<std::size_t>(1, options.block_bytes)},
      best_(std::make_unique<Matcher::Best>()),
      scratches_(std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16)) {}

// The workers stop before the parts they hold are destroyed.
LogScan::~LogScan() { workers_.reset(); }

void LogScan::feed(std::string_view block) {
  buffer_.append(block);
  // Only a new line end, or a line grown past kMaxLineBytes, gives something to match.
  if (buffer_.size() >= options_.block_bytes &&
      (block.find('\n') != std::string_view::npos || buffer_.size() > kMaxLineBytes))
    scan_buffered(false);
}

std::size_t LogScan::low_lines() const { return best_->low_lines; }

std::vector<Hit> LogScan::finish(std::size_t top, int min_score) {
  scan_buffered(true);
  std::vector<Hit> hits = best_->ranked(matcher_, top, min_score);
  if (hits.empty()) hits = matcher_.near_hits(best_->near_lines, top);
  return hits;
}

// Matches the complete lines in the buffer (with `all`, the rest too) and drops them. A partial
// line longer than kMaxLineBytes is matched in whole pieces, so the buffer stays bounded.
//
// Whether the text is a log is known once two lines that are not blank have come. Until then,
// a lone line short enough to be skipped as a log's waits in the buffer: it may be the whole
// text, an error message to match as it is.
void LogScan::scan_buffered(bool all) {
  std::string_view text(buffer_);
  if (!log_) {
    log_ = nonblank_ + nonblank_lines(text, 2) >= 2;
    if (!log_ && !all && text.size() <= kMaxLineBytes) return;
  }
  const bool log = log_ && !options_.all_lines;
  const std::size_t complete = all ? text.size() : after_last_newline(text);
  if (!log_) nonblank_ += nonblank_lines(text.substr(0, complete), 2);
  for (std::string_view rest = text.substr(0, complete); !rest.empty();) {
    const std::size_t newline =
        rest.size() <= options_.block_bytes ? rest.npos : rest.find('\n', options_.block_bytes);
    const std::size_t cut = newline == rest.npos ? rest.size() : newline + 1;
    submit(rest.substr(0, cut), log, open_line_);
    open_line_ = false;
    rest.remove_prefix(cut);
  }
  std::size_t consumed = complete;
  if (!all && buffer_.size() - complete > kMaxLineBytes) {  // a long line still going on
    const std::size_t pieces = (buffer_.size() - complete) / kMaxLineBytes * kMaxLineBytes;
    submit(text.substr(complete, pieces), log, true);
    consumed += pieces;
    open_line_ = true;
  }
  if (all) {
    if (workers_) workers_->finish([this](Part& part) { take(part); });
    workers_.reset();
    if (text.empty() ? open_line_ : text.back() != '\n') ++lines_;  // the last line
  }
  buffer_.erase(0, consumed);
}

void LogScan::submit(std::string_view text, bool log, bool continued) {
  Part part{{}, log, continued, after_frame_, {}, 0};
  if (!spare_texts_.empty()) {
    part.text = std::move(spare_texts_.back());
    spare_texts_.pop_back();
  }
  part.text.assign(text);
  // Whether the last line of `text` is a Python frame, for the part after it (a piece of a
  // longer line is not).
  const std::string_view body = text.substr(0, text.size() - (text.ends_with('\n') ? 1 : 0));
  thread_local std::string buffer;
  after_frame_ =
      !continued || body.find('\n') != std::string_view::npos
          ? is_python_frame(normalized_line(trim(body.substr(body.rfind('\n') + 1)), buffer))
          : false;
  if (!text.ends_with('\n')) after_frame_ = false;
  if (!workers_ && (scratches_.size() == 1 || text.size() < kParallelMinBytes)) {
    match(part, 0);
    take(part);
    return;
  }
  if (!workers_) {
    workers_ = std::make_unique<OrderedTasks<Part>>(
        scratches_.size(), kPartsPerCore * scratches_.size(),
        [this](Part& given, std::size_t worker) { match(given, worker); });
  }
  workers_->submit(std::move(part), [this](Part& done) { take(done); });
}

void LogScan::match(Part& part, std::size_t worker) {
  matcher_.scan_lines(part.text, 1, part.log, part.continued, part.after_frame, part.found,
                      scratches_[worker]);
  part.lines = count_lines(part.text);
}

void LogScan::take(Part& part) {
  for (auto& [record, slot] : part.found.slots) {
    if (slot.signature) slot.signature->line_number += lines_;
    if (slot.regex) slot.regex->line_number += lines_;
    slot.first_line += lines_;
    slot.last_line += lines_;
  }
  for (Matcher::NearLine& line : part.found.near_lines) line.line_number += lines_;
  lines_ += part.lines;
  best_->merge(matcher_, std::move(part.found));
  part.text.clear();
  spare_texts_.push_back(std::move(part.text));
}

void prepare_allocator_for_scan() { mallopt(M_PERTURB, 0x55); }

nlohmann::ordered_json hit_json(const Matcher& matcher, const Hit& hit, std::size_t position) {
  const MatchRecord& record = matcher.records()[hit.record];
  nlohmann::ordered_json out;
  out["rank"] = position;
  out["id"] = record.id;
  out["signature"] = record.signature;
  out["line"] = hit.line_number;
  out["text"] = hit.line;
  out["match"] = {{"begin", code_points(std::string_view(hit.line).substr(0, hit.begin))},
                  {"end", code_points(std::string_view(hit.line).substr(0, hit.end))},
                  {"by", hit.near           ? "words"
                         : hit.by_signature ? "signature"
                                            : "regex"}};
  out["score"] = {{"error_line", hit.rank.error_line},    {"coverage", hit.rank.coverage},
                  {"specificity", hit.rank.specificity},  {"signature", hit.rank.signature},
                  {"fix_rate", hit.rank.fix_rate},        {"total", hit.rank.score},
                  {"line_kind", line_kind_name(hit.kind)}};
  out["near"] = hit.near;
  out["lines"] = hit.lines;
  out["fix_success_rate"] = record.fix_success_rate;
  const auto workaround = [](const std::optional<MatchAction>& fix) {
    if (!fix) return nlohmann::ordered_json();
    return nlohmann::ordered_json{{"action", fix->action},
                                  {"how", fix->how},
                                  {"success_rate", fix->rate},
                                  {"condition", fix->condition}};
  };
  out["workaround"] = workaround(record.best_workaround);
  out["next_workaround"] = workaround(record.next_workaround);
  out["breadth"] = nullptr;  // a regex's only
  if (!hit.near && !hit.by_signature) {
    const Breadth breadth = matcher.breadth(hit.record);
    out["breadth"] = {{"benign_lines", breadth.benign_lines},
                      {"other_errors", breadth.other_errors}};
  }
  out["dead_ends"] = nlohmann::ordered_json::array();
  for (const MatchAction& dead_end : record.dead_ends)
    out["dead_ends"].push_back({{"action", dead_end.action}, {"fail_rate", dead_end.rate}});
  return out;
}

nlohmann::ordered_json hits_json(const Matcher& matcher, const std::vector<Hit>& hits,
                                 std::size_t lines, int min_score) {
  nlohmann::ordered_json out;
  out["version"] = 1;
  out["entries"] = matcher.records().size();
  out["lines"] = lines;
  out["min_score"] = min_score;
  out["hits"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < hits.size(); ++i)
    out["hits"].push_back(hit_json(matcher, hits[i], i + 1));
  return out;
}

}  // namespace kbc
