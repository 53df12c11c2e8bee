#include "model/entry.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <stdexcept>

#include "base/json_pointer.h"
#include "model/languages.h"

namespace kbc {

const std::string& Entry::id() const {
  const auto it = data.find("id");
  return it != data.end() && it->is_string() ? it->get_ref<const std::string&>() : id_from_path;
}

namespace {

constexpr std::string_view kSlimKeys[] = {
    "id",        "signature", "regex", "samples",   "fix_success_rate", "transition_graph",
    "reproduce", "aliases",   "tags",  "error_code"};

// The first segment of `pointer`, as written ("" for the root).
std::string_view top_level_key(std::string_view pointer) {
  if (pointer.empty()) return {};
  pointer.remove_prefix(1);
  return pointer.substr(0, pointer.find('/'));
}

}  // namespace

bool Entry::is_slim_key(std::string_view key) {
  return std::find(std::begin(kSlimKeys), std::end(kSlimKeys), key) != std::end(kSlimKeys);
}

Entry Entry::slimmed() const {
  Entry out{path,
            id_from_path,
            nlohmann::json::object(),
            sources.only([](std::string_view pointer) {
              return pointer.empty() || is_slim_key(top_level_key(pointer));
            }),
            shape_ok,
            suppressions,
            digest,
            true};
  if (!data.is_object()) return out;
  for (const auto& [key, value] : data.items()) {
    if (is_slim_key(key)) out.data[key] = value;
  }
  return out;
}

// Rules look up nodes by pointer hundreds of thousands of times on a large knowledge base: the
// segments are read in place, and copied only when they hold an escape ("~0", "~1").
const nlohmann::json* Entry::find(std::string_view pointer) const {
  if (slim && !pointer.empty() && !is_slim_key(top_level_key(pointer)))
    throw std::logic_error("kbc: " + std::string(pointer) + " of the slim entry " + path +
                           " was read");
  const nlohmann::json* node = &data;
  std::string unescaped;
  for (std::size_t start = 1; !pointer.empty() && start <= pointer.size();) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    std::string_view segment = pointer.substr(start, end - start);
    start = end + 1;
    if (segment.find('~') != std::string_view::npos) {
      unescaped = unescape_pointer_segment(segment);
      segment = unescaped;
    }
    if (node->is_object()) {
      const auto it = node->find(segment);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      const char* const end_of_segment = segment.data() + segment.size();
      const auto [stop, error] = std::from_chars(segment.data(), end_of_segment, index);
      if (error != std::errc() || stop != end_of_segment || index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
  }
  return node;
}

std::string_view Entry::text(std::string_view pointer) const {
  const nlohmann::json* node = find(pointer);
  return node && node->is_string() ? std::string_view(node->get_ref<const std::string&>())
                                   : std::string_view();
}

const nlohmann::json& Entry::list(std::string_view pointer) const {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json* node = find(pointer);
  return node && node->is_array() ? *node : kEmpty;
}

std::string id_from_entry_path(std::string_view path) {
  constexpr std::string_view kPrefix = "entries/", kSuffix = ".yaml";
  if (path.starts_with(kPrefix)) path.remove_prefix(kPrefix.size());
  if (path.ends_with(kSuffix)) path.remove_suffix(kSuffix.size());
  return std::string(path);
}

bool is_valid_entry_id(const std::string& id) {
  static const nlohmann::ordered_json& schema =
      builtin_entry_schema().at("/properties/id"_json_pointer);
  // RE2, not std::regex: it recurses once per character, and a long id overflows the stack.
  static const RE2 pattern(schema.at("pattern").get<std::string>(), RE2::Quiet);
  return id.size() <= schema.at("maxLength").get<std::size_t>() && RE2::PartialMatch(id, pattern);
}

}  // namespace kbc
