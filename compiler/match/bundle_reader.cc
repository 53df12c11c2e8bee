#include "match/bundle_reader.h"

#include <thread>

#include "base/diagnostic.h"

namespace kbc {
namespace {

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

}  // namespace kbc
