#include "render/mustache_data.h"

namespace kbc {

using nlohmann::json;

void put(MustacheData& object, const std::string& key, MustacheData value) {
  object[key] = std::move(value);
}

void put_text(MustacheData& object, const std::string& key, std::string text) {
  if (text.empty()) return;
  // kainjow copies a string it is given; as in append(), the string a string value refers to is
  // owned by it and not itself const, so moving the text into it is well defined.
  MustacheData value(MustacheData::type::string);
  const_cast<std::string&>(value.string_value()) = std::move(text);
  object[key] = std::move(value);
}

namespace {

// The items of a list. list_value() is the only access kainjow gives to them; the vector it
// refers to is owned by `list` and not itself const, so changing it through this is well defined.
kainjow::mustache::basic_list<std::string>& list_items(MustacheData& list) {
  return const_cast<kainjow::mustache::basic_list<std::string>&>(list.list_value());
}

}  // namespace

void append(MustacheData& list, MustacheData value) {
  list_items(list).push_back(std::move(value));
}

void reserve(MustacheData& list, std::size_t size) { list_items(list).reserve(size); }

MustacheData to_mustache_data(const json& value) {
  switch (value.type()) {
    case json::value_t::object: {
      MustacheData out{MustacheData::type::object};
      for (auto it = value.begin(); it != value.end(); ++it) {
        const json& item = it.value();
        if (item.is_null() || (item.is_string() && item.get_ref<const std::string&>().empty()))
          continue;
        put(out, it.key(), to_mustache_data(item));
      }
      return out;
    }
    case json::value_t::array: {
      MustacheData out{MustacheData::type::list};
      reserve(out, value.size());
      for (const json& item : value) append(out, to_mustache_data(item));
      return out;
    }
    case json::value_t::string:
      return MustacheData(value.get_ref<const std::string&>());
    case json::value_t::boolean:
      return MustacheData(value.get<bool>());
    default:
      return MustacheData(value.dump());
  }
}

const MustacheData* MustacheContext::get(const std::string& name) const {
  if (name == ".") return layers_.back();
  const std::size_t first_dot = name.find('.');
  for (auto layer = layers_.rbegin(); layer != layers_.rend(); ++layer) {
    if (first_dot == std::string::npos) {
      if (const MustacheData* found = (*layer)->get(name)) return found;
      continue;
    }
    thread_local std::string part;  // reused: no allocation per lookup
    const MustacheData* found = *layer;
    for (std::size_t begin = 0; found && begin <= name.size();) {
      const std::size_t end = std::min(name.find('.', begin), name.size());
      part.assign(name, begin, end - begin);
      found = found->get(part);
      begin = end + 1;
    }
    if (found) return found;
  }
  return nullptr;
}

const MustacheData* MustacheContext::get_partial(const std::string& name) const {
  for (auto layer = layers_.rbegin(); layer != layers_.rend(); ++layer) {
    if (const MustacheData* found = (*layer)->get(name)) return found;
  }
  return nullptr;
}

namespace {

// What kainjow's render(context, stream) needs of a stream: text appended to a string.
struct StringSink {
  std::string& out;
  StringSink& operator<<(const std::string& text) {
    out += text;
    return *this;
  }
};

}  // namespace

std::string render_mustache(kainjow::mustache::mustache& page_template,
                            kainjow::mustache::basic_context<std::string>& context) {
  std::string out;
  StringSink sink{out};
  page_template.render(context, sink);
  return out;
}

}  // namespace kbc
