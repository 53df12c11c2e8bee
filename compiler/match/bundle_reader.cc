#include "match/bundle_reader.h"

#include <simdjson.h>

#include <optional>

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

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::string text_or_empty(element value) {
  return value.type() == element_type::STRING ? std::string(value.get_string().value_unsafe())
                                              : std::string();
}

double number_or_zero(element value) {
  switch (value.type()) {
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
      return value.get_double().value_unsafe();
    default:
      return 0;
  }
}

// The texts of a list; none when the value is not a list.
std::vector<std::string> texts_or_none(element value) {
  std::vector<std::string> out;
  simdjson::dom::array items;
  if (value.get_array().get(items)) return out;
  for (element item : items) {
    if (item.type() == element_type::STRING) out.emplace_back(item.get_string().value_unsafe());
  }
  return out;
}

// A workaround or a dead end, as BundleReader reads it: the last of repeated keys, a value of
// another type empty.
MatchAction action_of(simdjson::dom::object object, bool workaround) {
  MatchAction action;
  for (const auto [key, value] : object) {
    if (key == "action")
      action.action = text_or_empty(value);
    else if (workaround && key == "how")
      action.how = text_or_empty(value);
    else if (workaround && key == "condition")
      action.condition = text_or_empty(value);
    else if (key == (workaround ? "success_rate" : "fail_rate"))
      action.rate = number_or_zero(value);
  }
  return action;
}

// One record, as BundleReader reads it; nullopt when its id or regex is not text.
std::optional<MatchRecord> record_of(simdjson::dom::object object) {
  MatchRecord record;
  bool id_is_text = false, regex_is_text = false;
  for (const auto [key, value] : object) {
    if (key == "id") {
      id_is_text = value.type() == element_type::STRING;
      record.id = text_or_empty(value);
    } else if (key == "regex") {
      regex_is_text = value.type() == element_type::STRING;
      record.regex = text_or_empty(value);
    } else if (key == "signature") {
      record.signature = text_or_empty(value);
    } else if (key == "error_code") {
      record.error_code = text_or_empty(value);
    } else if (key == "fix_success_rate") {
      record.fix_success_rate = number_or_zero(value);
    } else if (key == "aliases") {
      record.aliases = texts_or_none(value);
    } else if (key == "tags") {
      record.tags = texts_or_none(value);
    } else if (key == "workarounds" || key == "dead_ends") {
      const bool workarounds = key == "workarounds";
      if (workarounds) {
        record.best_workaround.reset();  // the last list given is the one read
        record.next_workaround.reset();
      } else {
        record.dead_ends.clear();
      }
      simdjson::dom::array items;
      if (value.get_array().get(items)) continue;
      for (element item : items) {
        if (item.type() != element_type::OBJECT) continue;
        MatchAction action = action_of(item.get_object().value_unsafe(), workarounds);
        if (workarounds)
          offer_workaround(record, std::move(action));
        else
          record.dead_ends.push_back({std::move(action.action), "", "", action.rate});
      }
    }
  }
  if (!id_is_text || !regex_is_text) return std::nullopt;
  return record;
}

// The records of a bundle without fault, through simdjson's DOM parser (which validates the
// whole text, its UTF-8 included); nullopt for any fault, which BundleReader then reports.
std::optional<std::vector<MatchRecord>> read_valid_bundle(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::array bundle;
  if (parser.parse(json.data(), json.size()).get_array().get(bundle)) return std::nullopt;
  std::vector<MatchRecord> records;
  for (element item : bundle) {
    if (item.type() != element_type::OBJECT) return std::nullopt;
    std::optional<MatchRecord> record = record_of(item.get_object().value_unsafe());
    if (!record) return std::nullopt;
    records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace

std::vector<MatchRecord> match_records_from_bundle_text(std::string_view json) {
  if (auto records = read_valid_bundle(json)) return std::move(*records);
  return match_records_from_bundle_sax(json);
}

std::vector<MatchRecord> match_records_from_bundle_sax(std::string_view json) {
  BundleReader reader;
  nlohmann::json::sax_parse(json, &reader);
  return reader.take();
}

}  // namespace kbc
