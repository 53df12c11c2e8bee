// Reading a page's mustache data in tests: kainjow's objects cannot be listed, so a value is
// found by its path.
#pragma once

#include <algorithm>
#include <string>

#include "render/mustache_data.h"

namespace kbc_test {

// The value at `path` in a page's data, a dotted path with list positions
// ("related.0.links.1.href"): a text as itself, a flag as "true" or "false", a list as
// "(list of N)", "(absent)" where there is nothing (as for an empty text, which the page leaves
// out so that {{#key}} sections skip it).
inline std::string at(const kbc::MustacheData& page, const std::string& path) {
  const kbc::MustacheData* data = &page;
  for (std::size_t begin = 0; data && begin <= path.size();) {
    const std::size_t end = std::min(path.find('.', begin), path.size());
    const std::string part = path.substr(begin, end - begin);
    if (data->is_list()) {
      const std::size_t i = std::stoul(part);
      data = i < data->list_value().size() ? &data->list_value()[i] : nullptr;
    } else {
      data = data->is_object() ? data->get(part) : nullptr;
    }
    begin = end + 1;
  }
  if (!data) return "(absent)";
  if (data->is_string()) return data->string_value();
  if (data->is_bool()) return data->is_true() ? "true" : "false";
  if (data->is_list()) return "(list of " + std::to_string(data->list_value().size()) + ")";
  return "(object)";
}

}  // namespace kbc_test
