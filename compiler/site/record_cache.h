// What a build makes of one entry before the site: the record's text as kb.json holds it (its
// api/<id>.json text indented one level further), the digest of the api/<id>.json text and the
// row the site reads (site/record_row.h). A build after an edit
// takes the unchanged entries' from the parse cache instead of making them again: making the
// record, its text and its row was a quarter of the CPU time of such a build at 25,000 entries.
//
// They are stored under a key of everything they are made from: the entry's path and bytes,
// the languages and kbc verify's evidence for the entry (the cache's folder names this build
// of kbc and the schema).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/entry.h"
#include "model/evidence.h"
#include "model/languages.h"
#include "model/parse_cache.h"
#include "site/record_row.h"

namespace kbc {

struct MadeRecord {
  std::string indented;  // indented_record(record_text(record))
  std::string digest;    // digest_of(record_text(record))
  RecordRow row;
};

// `entry` whole, for a slim one (Entry::slim) whose record is to be made.
using WholeEntry = std::function<Entry(const Entry&)>;

// The record of `entry` as published with `evidence`, from `cache` when it holds it (and then
// stored there when it did not). `record` gets the record as a value when it was made here,
// and is left empty when it came from the cache. A slim entry's record is made from `whole`'s
// entry; without `whole`, made_record throws std::logic_error for it.
MadeRecord made_record(const Entry& entry, const std::vector<Language>& languages,
                       const Evidence* evidence, ParseCache* cache,
                       std::optional<nlohmann::ordered_json>& record,
                       const WholeEntry& whole = nullptr);

}  // namespace kbc
