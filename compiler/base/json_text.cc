#include "base/json_text.h"

#include <simdjson.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kbc {
namespace {

template <typename Json>
Json value_of(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::ARRAY: {
      Json array = Json::array();
      auto& items = array.template get_ref<typename Json::array_t&>();
      const simdjson::dom::array source = element.get_array().value_unsafe();
      for (const simdjson::dom::element item : source) items.push_back(value_of<Json>(item));
      return array;
    }
    case element_type::OBJECT: {
      Json object = Json::object();
      const simdjson::dom::object source = element.get_object().value_unsafe();
      auto& fields = object.template get_ref<typename Json::object_t&>();
      for (const simdjson::dom::key_value_pair field : source) {
        if constexpr (std::is_same_v<Json, nlohmann::json>)  // dump() sorted the keys: no search
          fields.emplace_hint(fields.end(), std::string(field.key), value_of<Json>(field.value));
        else
          fields.emplace(std::string(field.key), value_of<Json>(field.value));
      }
      return object;
    }
    case element_type::INT64: {
      const std::int64_t number = element.get_int64().value_unsafe();
      if (number >= 0) return Json(static_cast<std::uint64_t>(number));
      return Json(number);
    }
    case element_type::UINT64:
      return Json(element.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return Json(element.get_double().value_unsafe());
    case element_type::STRING:
      return Json(std::string(element.get_string().value_unsafe()));
    case element_type::BOOL:
      return Json(element.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      break;
  }
  return Json(nullptr);
}

template <typename Json>
Json from_text(std::string_view text) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const auto error = parser.parse(text.data(), text.size()).get(root))
    throw std::runtime_error(std::string("not JSON: ") + simdjson::error_message(error));
  return value_of<Json>(root);
}

}  // namespace

nlohmann::json json_from_text(std::string_view text) { return from_text<nlohmann::json>(text); }

nlohmann::ordered_json ordered_json_from_text(std::string_view text) {
  return from_text<nlohmann::ordered_json>(text);
}

bool has_non_finite_number(const nlohmann::json& value) {
  if (value.is_number_float()) return !std::isfinite(value.get<double>());
  if (!value.is_structured()) return false;
  for (const nlohmann::json& item : value)
    if (has_non_finite_number(item)) return true;
  return false;
}

std::string framed(nlohmann::json head, std::initializer_list<std::string_view> parts) {
  nlohmann::json& sizes = head["parts"] = nlohmann::json::array();
  for (const std::string_view part : parts) sizes.push_back(part.size());
  std::string bytes = head.dump() + "\n";
  for (const std::string_view part : parts) bytes += part;
  return bytes;
}

std::optional<Framed> unframed(std::string_view bytes) {
  const std::size_t head_end = bytes.find('\n');
  if (head_end == std::string_view::npos) return std::nullopt;
  try {
    Framed out{json_from_text(bytes.substr(0, head_end)), {}};
    std::string_view rest = bytes.substr(head_end + 1);
    for (const nlohmann::json& size : out.head.at("parts")) {
      const auto length = size.get<std::size_t>();
      if (length > rest.size()) return std::nullopt;
      out.parts.push_back(rest.substr(0, length));
      rest.remove_prefix(length);
    }
    if (!rest.empty()) return std::nullopt;
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace kbc
