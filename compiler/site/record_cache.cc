#include "site/record_cache.h"

#include <charconv>

#include "base/digest.h"
#include "base/json_text.h"
#include "render/record.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

std::string record_key(const Entry& entry, const std::vector<Language>& languages,
                       const Evidence* evidence) {
  Digest key;
  key.add("made record 4").add(entry.path).add(entry.digest).add(languages.size());
  for (const Language& language : languages) key.add(language.code).add(language.base ? 1 : 0);
  key.add(evidence ? evidence->to_json().dump() : "");
  return key.hex();
}

// Stored as "<digest>\n<size of the text>\n<text><the row as JSON text>", the row read back
// through simdjson (base/json_text.h): nlohmann's CBOR reader takes a string a byte at a time,
// which made reading a record back as slow as making it. (A row with a rate that is not a
// finite number has no JSON text, and is made again on every build.)
std::optional<MadeRecord> cached(const ParseCache& cache, const std::string& key) {
  const std::optional<std::string> bytes = cache.find_record(key);
  if (!bytes) return std::nullopt;
  const std::string_view stored = *bytes;
  const std::size_t digest_end = stored.find('\n');
  const std::size_t size_end =
      digest_end == std::string_view::npos ? digest_end : stored.find('\n', digest_end + 1);
  if (size_end == std::string_view::npos) return std::nullopt;
  std::size_t size = 0;
  const std::string_view size_text = stored.substr(digest_end + 1, size_end - digest_end - 1);
  const auto [end, error] = std::from_chars(size_text.begin(), size_text.end(), size);
  if (error != std::errc() || end != size_text.end() || stored.size() - size_end - 1 < size)
    return std::nullopt;
  try {
    std::optional<RecordRow> row =
        row_from_json(ordered_json_from_text(stored.substr(size_end + 1 + size)));
    if (!row) return std::nullopt;
    return MadeRecord{std::string(stored.substr(size_end + 1, size)),
                      std::string(stored.substr(0, digest_end)), std::move(*row)};
  } catch (const std::exception&) {
    return std::nullopt;  // damaged: made again
  }
}

void store(ParseCache& cache, const std::string& key, const MadeRecord& made) {
  cache.store_record(key, made.digest + "\n" + std::to_string(made.text.size()) + "\n" + made.text +
                              row_to_json(made.row).dump());
}

}  // namespace

MadeRecord made_record(const Entry& entry, const std::vector<Language>& languages,
                       const Evidence* evidence, ParseCache* cache,
                       std::optional<ordered_json>& record) {
  record.reset();
  const std::string key = cache ? record_key(entry, languages, evidence) : "";
  if (cache) {
    if (std::optional<MadeRecord> found = cached(*cache, key)) return std::move(*found);
  }
  record = published_record(entry, languages, evidence);
  MadeRecord made{record_text(*record), "", record_row(*record, languages)};
  made.digest = digest_of(made.text);
  if (cache) store(*cache, key, made);
  return made;
}

}  // namespace kbc
