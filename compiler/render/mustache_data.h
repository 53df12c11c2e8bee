// Building kainjow mustache data and rendering it, without the copies kainjow's own API makes.
//
// kainjow's basic_data::set and push_back take their argument by const reference and copy it
// deeply, so a page tree built level by level with them copies every subtree once per level;
// its context splits a dotted name ("t.home") into a vector of strings on every lookup; and
// render() goes through an ostringstream. Page rendering is the bulk of `kbc build`, so the
// pages are built with put/append (moves), looked up through Context and rendered into a
// string directly.
#pragma once

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kbc {

using MustacheData = kainjow::mustache::data;

inline MustacheData object_data() { return MustacheData(MustacheData::type::object); }
inline MustacheData list_data() { return MustacheData(MustacheData::type::list); }

// object[key] = value, moved. `object` must be an object.
void put(MustacheData& object, const std::string& key, MustacheData value);
// object[key] = text, unless the text is empty: as in to_mustache_data, {{#key}} sections skip
// empty texts.
void put_text(MustacheData& object, const std::string& key, std::string text);
// Appends `value`, moved. `list` must be a list.
void append(MustacheData& list, MustacheData value);
// Room for `size` items in `list`. kainjow's move constructor is not noexcept, so a list that
// grows copies every item it holds, deeply: a list of 50,000 sitemap URLs grown item by item
// spent most of its time copying.
void reserve(MustacheData& list, std::size_t size);

// JSON as mustache data. Nulls and empty strings are left out of objects, so that {{#key}}
// sections skip them; numbers become their JSON text.
MustacheData to_mustache_data(const nlohmann::json& value);

// A stack of data layers, searched from the top; a dotted name is resolved part by part in
// each layer in turn, as kainjow's own context does.
class MustacheContext : public kainjow::mustache::basic_context<std::string> {
 public:
  explicit MustacheContext(const MustacheData* base) { layers_.push_back(base); }
  void push(const MustacheData* data) override { layers_.push_back(data); }
  void pop() override { layers_.pop_back(); }
  const MustacheData* get(const std::string& name) const override;
  const MustacheData* get_partial(const std::string& name) const override;

 private:
  std::vector<const MustacheData*> layers_;
};

// The template rendered with `context`, as a string.
std::string render_mustache(kainjow::mustache::mustache& page_template,
                            kainjow::mustache::basic_context<std::string>& context);

}  // namespace kbc
