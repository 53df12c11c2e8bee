#include "site/record_cache.h"

#include <stdexcept>

#include "base/digest.h"
#include "base/json_text.h"
#include "render/record.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

std::string record_key(const Entry& entry, const std::vector<Language>& languages,
                       const Evidence* evidence) {
  Digest key;
  key.add("made record 6").add(entry.path).add(entry.digest).add(languages.size());
  for (const Language& language : languages) key.add(language.code).add(language.base ? 1 : 0);
  key.add(evidence ? evidence->to_json().dump() : "");
  return key.hex();
}

// Stored framed (base/json_text.h): the digest of the record's text as the head, then the
// record as kb.json holds it and the row as JSON text, read back through simdjson (nlohmann's
// CBOR reader takes a string a byte at a time, which made reading a record back as slow as
// making it). A row with a rate that is not a finite number has no JSON text, and is made again
// on every build.
std::optional<MadeRecord> cached(const ParseCache& cache, const std::string& key) {
  const std::optional<std::string> bytes = cache.find_record(key);
  const std::optional<Framed> stored = bytes ? unframed(*bytes) : std::nullopt;
  if (!stored || stored->parts.size() != 2) return std::nullopt;
  try {
    std::optional<RecordRow> row = row_from_json(ordered_json_from_text(stored->parts[1]));
    if (!row) return std::nullopt;
    return MadeRecord{std::string(stored->parts[0]), stored->head.at("digest").get<std::string>(),
                      std::move(*row)};
  } catch (const std::exception&) {
    return std::nullopt;  // damaged: made again
  }
}

void store(ParseCache& cache, const std::string& key, const MadeRecord& made) {
  cache.store_record(
      key, framed({{"digest", made.digest}}, {made.indented, row_to_json(made.row).dump()}));
}

}  // namespace

MadeRecord made_record(const Entry& entry, const std::vector<Language>& languages,
                       const Evidence* evidence, ParseCache* cache,
                       std::optional<ordered_json>& record, const WholeEntry& whole) {
  record.reset();
  const std::string key = cache ? record_key(entry, languages, evidence) : "";
  if (cache) {
    if (std::optional<MadeRecord> found = cached(*cache, key)) return std::move(*found);
  }
  if (entry.slim && !whole) throw std::logic_error("kbc: no whole entry for " + entry.path);
  record = entry.slim ? published_record(whole(entry), languages, evidence)
                      : published_record(entry, languages, evidence);
  const std::string text = record_text(*record);
  MadeRecord made{indented_record(text), digest_of(text), record_row(*record, languages)};
  if (cache) store(*cache, key, made);
  return made;
}

}  // namespace kbc
