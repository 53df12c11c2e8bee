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

}  // namespace kbc
