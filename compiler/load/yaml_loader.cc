#include "load/yaml_loader.h"

#include <cstring>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "base/json_pointer.h"
#include "base/text.h"
#include "base/utf8.h"

namespace kbc {
namespace {

// yaml-cpp writes the double-quoted escapes \N (U+0085) and \_ (U+00A0) as the single bytes 0x85
// and 0xA0, which are not UTF-8; every other escape it writes as UTF-8. The file was checked to be
// UTF-8 before parsing, so such a byte where UTF-8 is broken can only come from these escapes:
// it is written as the character's two bytes.
std::string with_escapes_encoded(const std::string& value) {
  if (!find_invalid_utf8(value)) return value;
  std::string out;
  std::string_view rest = value;
  while (const auto bad = find_invalid_utf8(rest)) {
    out.append(rest.substr(0, *bad));
    const auto byte = static_cast<unsigned char>(rest[*bad]);
    if (byte == 0x85 || byte == 0xA0) {
      out += '\xC2';
      out += rest[*bad];
    } else {
      out += "\xEF\xBF\xBD";  // cannot happen (see above); U+FFFD rather than broken text
    }
    rest.remove_prefix(*bad + 1);
  }
  out.append(rest);
  return out;
}

using nlohmann::json;

// A problem that ends the loading of one file; becomes one Diagnostic.
struct LoadFailure {
  Location at;
  std::string message;
  std::string rule;
};

// yaml-cpp counts columns in bytes; diagnostics count characters, as editors do.
Location location_of(const YAML::Mark& mark, std::string_view text) {
  if (mark.is_null() || mark.line < 0) return {};
  const auto end = static_cast<std::size_t>(std::max(mark.pos, 0));
  const std::size_t start = end >= static_cast<std::size_t>(mark.column) ? end - mark.column : 0;
  const std::size_t columns =
      start < end && start < text.size() ? code_points(text.substr(start, end - start)) : 0;
  return {mark.line + 1, 1 + static_cast<int>(columns)};
}

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> options) {
  for (std::string_view option : options) {
    if (s == option) return true;
  }
  return false;
}

std::optional<json> parse_integer(std::string_view s) {
  int base = 10;
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (s.starts_with("0x")) base = 16, digits = s.substr(2);
  if (s.starts_with("0o")) base = 8, digits = s.substr(2);
  if (digits.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (end != digits.data() + digits.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range ||
      magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return json(std::strtod(std::string(s).c_str(), nullptr));  // too large for an integer
  }
  const auto value = static_cast<std::int64_t>(magnitude);
  return json(negative ? -value : value);
}

// [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
bool is_core_float(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

std::optional<json> parse_float(std::string_view s) {
  if (is_one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    return json(std::numeric_limits<double>::infinity());
  }
  if (is_one_of(s, {"-.inf", "-.Inf", "-.INF"}))
    return json(-std::numeric_limits<double>::infinity());
  if (is_one_of(s, {".nan", ".NaN", ".NAN"})) return json(std::numeric_limits<double>::quiet_NaN());
  if (!is_core_float(s)) return std::nullopt;
  return json(std::strtod(std::string(s).c_str(), nullptr));
}

// The YAML 1.2 core schema: what a plain (unquoted) scalar means.
json resolve_plain(const std::string& s) {
  if (is_one_of(s, {"", "~", "null", "Null", "NULL"})) return nullptr;
  if (is_one_of(s, {"true", "True", "TRUE"})) return true;
  if (is_one_of(s, {"false", "False", "FALSE"})) return false;
  if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+' ||
                     s[0] == '.')) {
    if (auto number = parse_integer(s)) return *number;
    if (auto number = parse_float(s)) return *number;
  }
  return s;
}

json resolve_scalar(const std::string& tag, const std::string& value) {
  if (tag == "?") return resolve_plain(value);
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return value;
  return resolve_plain(value);  // other explicit tags (!!int, !!float, ...) resolve like plain text
}

std::size_t count_nodes(const json& value) {
  std::size_t count = 1;
  if (value.is_structured()) {
    for (const json& child : value) count += count_nodes(child);
  }
  return count;
}

// Builds the JSON value and its SourceMap from yaml-cpp's parse events.
class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(const std::string& path, std::string_view text, Diagnostics& out)
      : path_(path), text_(text), out_(out) {}

  bool has_root() const { return has_root_; }
  Location document_start() const { return document_start_; }
  YamlDocument take() {
    sources_.shrink();  // kept as long as the entry
    return {std::move(root_), std::move(sources_)};
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    document_start_ = location_of(mark, text_);
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (expecting_key()) return accept_key("null", mark);
    // An empty value (`signature:` and nothing after it): yaml-cpp marks the next token, on a
    // later line; the value is where it is missing, after the key's colon.
    if (!stack_.empty() && stack_.back().value.is_object() && !mark.is_null() &&
        mark.line > stack_.back().key_mark.line) {
      const YAML::Mark& key = stack_.back().key_mark;
      const std::size_t line_end = std::min(text_.find('\n', key.pos), text_.size());
      std::size_t key_end = static_cast<std::size_t>(key.pos);
      if (key_end < text_.size() && (text_[key_end] == '"' || text_[key_end] == '\''))
        key_end = text_.find(text_[key_end], key_end + 1);  // the quoted key's own colons
      std::size_t colon = text_.find(':', key_end);
      while (colon < line_end && colon + 1 < line_end && text_[colon + 1] != ' ' &&
             text_[colon + 1] != '\t')
        colon = text_.find(':', colon + 1);
      if (colon < line_end) {
        YAML::Mark after = key;
        after.pos = static_cast<int>(colon + 1);
        after.column = key.column + static_cast<int>(colon + 1 - key.pos);
        return deliver(nullptr, after, anchor);
      }
    }
    deliver(nullptr, mark, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (expecting_key()) fail(mark, "an alias cannot be a mapping key", "yaml-structure");
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) fail(mark, "alias to an unknown anchor", "yaml-syntax");
    count(mark, count_nodes(it->second));
    deliver(it->second, mark, 0, /*counted=*/true);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& given) override {
    const std::string value = with_escapes_encoded(given);
    if (expecting_key()) return accept_key(value, mark);
    deliver(resolve_scalar(tag, value), mark, anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(json::array(), mark, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(json::object(), mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    json value;
    std::string pointer;
    Location at;
    YAML::anchor_t anchor = 0;
    bool expecting_key = true;  // maps only
    std::string key;
    Location key_at;
    YAML::Mark key_mark;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message, std::string rule) {
    throw LoadFailure{location_of(mark, text_), std::move(message), std::move(rule)};
  }

  void count(const YAML::Mark& mark, std::size_t nodes) {
    nodes_ += nodes;
    if (nodes_ > kMaxNodes) {
      fail(mark,
           "document has more than " + std::to_string(kMaxNodes) +
               " nodes (counting alias expansions)",
           "yaml-structure");
    }
  }

  bool expecting_key() const {
    return !stack_.empty() && stack_.back().value.is_object() && stack_.back().expecting_key;
  }

  void accept_key(const std::string& key, const YAML::Mark& mark) {
    Frame& map = stack_.back();
    map.key = key;
    map.key_at = location_of(mark, text_);
    map.key_mark = mark;
    map.expecting_key = false;
  }

  // The pointer of the node that is about to be added to the innermost container.
  std::string child_pointer() const {
    if (stack_.empty()) return "";
    const Frame& parent = stack_.back();
    if (parent.value.is_array())
      return pointer_append(parent.pointer, std::to_string(parent.value.size()));
    if (parent.value.contains(parent.key)) return parent.pointer + "#duplicate";  // never looked up
    return pointer_append(parent.pointer, parent.key);
  }

  void open(json empty, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (expecting_key()) fail(mark, "mapping keys must be plain text", "yaml-structure");
    if (static_cast<int>(stack_.size()) >= kMaxDepth) {
      fail(mark, "nesting deeper than " + std::to_string(kMaxDepth) + " levels", "yaml-structure");
    }
    count(mark, 1);
    Frame frame{
        std::move(empty), child_pointer(), location_of(mark, text_), anchor, true, {}, {}, {}};
    record(frame.pointer, frame.at);
    stack_.push_back(std::move(frame));
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.anchor != 0) anchors_[frame.anchor] = frame.value;
    attach(std::move(frame.value));
  }

  void record(const std::string& pointer, Location at) {
    const Location key_at =
        !stack_.empty() && stack_.back().value.is_object() ? stack_.back().key_at : at;
    sources_.set(pointer, {key_at, at});
  }

  void deliver(json value, const YAML::Mark& mark, YAML::anchor_t anchor, bool counted = false) {
    if (!counted) count(mark, 1);
    record(child_pointer(), location_of(mark, text_));
    if (anchor != 0) anchors_[anchor] = value;
    attach(std::move(value));
  }

  void attach(json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      has_root_ = true;
      return;
    }
    Frame& parent = stack_.back();
    if (parent.value.is_array()) {
      parent.value.push_back(std::move(value));
      return;
    }
    parent.expecting_key = true;
    if (parent.value.contains(parent.key)) {
      report_duplicate(parent);
      return;
    }
    parent.value[parent.key] = std::move(value);
  }

  void report_duplicate(const Frame& map) {
    const std::string pointer = pointer_append(map.pointer, map.key);
    const Location first = sources_.find(pointer).key;
    out_.push_back({path_, map.key_at, Severity::kError,
                    "duplicate key '" + map.key + "' (first defined at line " +
                        std::to_string(first.line) + ")",
                    "yaml-duplicate-key", "", pointer});
  }

  const std::string& path_;
  std::string_view text_;
  Diagnostics& out_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, json> anchors_;
  json root_;
  bool has_root_ = false;
  SourceMap sources_;
  std::size_t nodes_ = 0;
  Location document_start_;
};

Diagnostic failure_diagnostic(const std::string& path, std::string_view text, Location at,
                              std::string message, std::string rule) {
  std::string excerpt = at.line > 0 ? std::string(line_text(text, at.line)) : "";
  return {path, at, Severity::kError, std::move(message), std::move(rule), std::move(excerpt)};
}

// YAML forbids tabs in indentation; yaml-cpp accepts some of them, so look for them here.
std::optional<Location> find_tab_indent(std::string_view text) {
  int line = 1;
  for (std::size_t start = 0; start < text.size(); ++line) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    for (std::size_t i = start; i < end && (text[i] == ' ' || text[i] == '\t'); ++i) {
      if (text[i] == '\t') return Location{line, static_cast<int>(i - start) + 1};
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<YamlDocument> parse(const std::string& path, std::string_view text,
                                  Diagnostics& out) {
  std::istringstream stream{std::string(text)};
  YAML::Parser parser(stream);
  TreeBuilder builder(path, text, out);
  if (!parser.HandleNextDocument(builder) || !builder.has_root()) {
    out.push_back({path,
                   {},
                   Severity::kError,
                   "file is empty: an entry is one YAML mapping",
                   "yaml-structure",
                   ""});
    return std::nullopt;
  }
  Diagnostics ignored;
  TreeBuilder extra(path, text, ignored);
  if (parser.HandleNextDocument(extra)) {
    out.push_back(failure_diagnostic(path, text, extra.document_start(),
                                     "several YAML documents in one file: an entry is one document",
                                     "yaml-structure"));
  }
  YamlDocument document = builder.take();
  if (!document.value.is_object()) {
    out.push_back(
        failure_diagnostic(path, text, document.sources.find("").value,
                           "an entry must be a mapping of keys to values, not " +
                               std::string(document.value.is_array() ? "a list" : "a single value"),
                           "yaml-structure"));
    return std::nullopt;
  }
  return document;
}

}  // namespace

bool plain_scalar_is_text(const std::string& text) {
  const json value = resolve_plain(text);
  return value.is_string() && !text.empty();
}

namespace {

void put_int(std::string& out, std::int32_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::int32_t get_int(std::string_view bytes, std::size_t& at) {
  std::int32_t value = 0;
  if (at + sizeof value > bytes.size()) throw std::out_of_range("truncated source map");
  std::memcpy(&value, bytes.data() + at, sizeof value);
  at += sizeof value;
  return value;
}

// Calls `visit(pointer, source)` for each record of a packed source map, in order. A damaged
// map gives what it read so far, never a crash.
template <typename Visit>
void for_each_source(std::string_view bytes, Visit visit) {
  try {
    for (std::size_t at = 0; at < bytes.size();) {
      const auto length = static_cast<std::size_t>(get_int(bytes, at));
      if (length > bytes.size() - at) break;
      const std::string_view pointer = bytes.substr(at, length);
      at += length;
      NodeSource source;
      source.key.line = get_int(bytes, at);
      source.key.column = get_int(bytes, at);
      source.value.line = get_int(bytes, at);
      source.value.column = get_int(bytes, at);
      visit(pointer, source);
    }
  } catch (const std::out_of_range&) {
  }
}

}  // namespace

void SourceMap::set(std::string_view pointer, NodeSource source) {
  put_int(packed_, static_cast<std::int32_t>(pointer.size()));
  packed_ += pointer;
  for (int value : {source.key.line, source.key.column, source.value.line, source.value.column})
    put_int(packed_, value);
}

std::optional<NodeSource> SourceMap::find_exact(std::string_view pointer) const {
  std::optional<NodeSource> found;
  for_each_source(packed_, [&](std::string_view at, const NodeSource& source) {
    if (at == pointer) found = source;
  });
  return found;
}

NodeSource SourceMap::find(std::string_view pointer) const {
  while (true) {
    if (const auto found = find_exact(pointer)) return *found;
    const std::size_t slash = pointer.rfind('/');
    if (slash == std::string_view::npos) return {};
    pointer = pointer.substr(0, slash);
  }
}

SourceMap SourceMap::only(const std::function<bool(std::string_view pointer)>& keep) const {
  SourceMap out;
  for_each_source(packed_, [&](std::string_view pointer, const NodeSource& source) {
    if (keep(pointer)) out.set(pointer, source);
  });
  return out;
}

SourceMap SourceMap::unpack(std::string bytes) {
  SourceMap map;
  map.packed_ = std::move(bytes);
  return map;
}

std::optional<YamlDocument> load_yaml(const std::string& path, std::string_view text,
                                      Diagnostics& out) {
  if (text.size() > kMaxFileBytes) {
    out.push_back({path,
                   {},
                   Severity::kError,
                   "file is " + std::to_string(text.size()) + " bytes; entries are limited to " +
                       std::to_string(kMaxFileBytes) + " bytes",
                   "yaml-structure",
                   ""});
    return std::nullopt;
  }
  if (const auto bad = find_invalid_utf8(text)) {
    const LineColumn at = line_column_at(text, *bad);
    out.push_back(
        {path,
         {at.line, at.column},
         Severity::kError,
         "bytes that are not valid UTF-8 (first at byte offset " + std::to_string(*bad) + ")",
         "yaml-encoding",
         ""});
    return std::nullopt;
  }
  if (const auto tab = find_tab_indent(text)) {
    out.push_back(failure_diagnostic(
        path, text, *tab, "tab character in indentation: YAML allows only spaces", "yaml-syntax"));
    return std::nullopt;
  }
  try {
    return parse(path, text, out);
  } catch (const LoadFailure& failure) {
    out.push_back(failure_diagnostic(path, text, failure.at, failure.message, failure.rule));
  } catch (const YAML::Exception& e) {
    out.push_back(failure_diagnostic(path, text, location_of(e.mark, text),
                                     "YAML syntax error: " + e.msg, "yaml-syntax"));
  }
  return std::nullopt;
}

}  // namespace kbc
