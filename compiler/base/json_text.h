// JSON text read back into nlohmann values through simdjson's DOM parser, for what kbc keeps in
// its caches: nlohmann's own readers take a string a byte at a time, and reading an entry back
// from CBOR that way was 9% of the CPU time of a build after an edit at 25,000 entries; simdjson
// and the copy into nlohmann's values take half of that.
//
// Numbers come back as nlohmann's parser makes them: a non-negative integer as unsigned, a
// negative one as signed, anything else as a double. Text that is not JSON (or numbers beyond
// 64 bits) throws std::runtime_error.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

nlohmann::json json_from_text(std::string_view text);
nlohmann::ordered_json ordered_json_from_text(std::string_view text);

// Whether `value` holds a number that JSON text cannot (NaN or an infinity: dump() writes them
// as null), so that it must not be kept as JSON text.
bool has_non_finite_number(const nlohmann::json& value);

// A cache file's bytes: a line of JSON text (`head`, an object, with "parts" set to the sizes
// of the parts) and then the parts as they are, so that long texts are kept without escaping
// and read back without parsing.
std::string framed(nlohmann::json head, std::initializer_list<std::string_view> parts);
struct Framed {
  nlohmann::json head;
  std::vector<std::string_view> parts;  // into the bytes given to unframed
};
// What framed() made of `bytes`; nullopt for anything else (a damaged or foreign file).
std::optional<Framed> unframed(std::string_view bytes);

}  // namespace kbc
