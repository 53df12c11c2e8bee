// Render: an entry as the published JSON record (the shape of seeds/001).
//
// Every record has the same keys in the same order, with null, [] or {} where the entry leaves
// an optional key out, so consumers never test for presence. Authoring-only keys (samples,
// counter_samples) stay out; the translated dead_ends (dead_ends_zh) and the item keys
// common_misconception and tradeoff appear only where the entry has them. Each language but the
// base has its translated keys where schema/entry.schema.json has the _zh ones, in the
// knowledge base's order of languages.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "model/entry.h"
#include "model/evidence.h"
#include "model/languages.h"

namespace kbc {

// The record of a schema-valid entry of a knowledge base in `languages`, with the fields that
// `evidence` (kbc verify's current, reproduced evidence of it, if any) derives.
nlohmann::ordered_json published_record(
    const Entry& entry, const std::vector<Language>& languages = default_languages(),
    const Evidence* evidence = nullptr);

// Applies current, reproduced evidence to a published record: verification_tier becomes
// "verified", last_confirmed the later of the entry's and the evidence's date, and
// evidence_count one more than the entry's (the reproduction is one more piece of evidence).
void apply_evidence(nlohmann::ordered_json& record, const Evidence& evidence);

// The string at `key` of a record (or one of its items); "" for null, missing or not text.
std::string string_field(const nlohmann::ordered_json& object, const char* key);

// The text of `key` in `language` (`<key>_zh` in Chinese) when the record has one, else the base
// language's.
std::string localized_field(const nlohmann::ordered_json& record, const char* key,
                            const Language& language);

// The translation in `language` of the action of item i of `list` ("workarounds", "dead_ends"):
// the i-th text of the translated list (workarounds_zh); "" where there is none, and in the base
// language.
std::string translated_action(const nlohmann::ordered_json& record, const char* list, std::size_t i,
                              const Language& language);

// The record as written to api/<id>.json: two-space indented, ending in a newline.
std::string record_text(const nlohmann::ordered_json& record);

// kb.json: the array of the records, as the dump of that array with two-space indents would
// write it, made from their record_text (each indented one level further) without dumping
// them again. It is "[\n", each record's indented_record after its separator ("  " for the
// first, ",\n  " for the others), then "\n]\n" ("[]\n" without records), which a build writes a
// piece at a time (bundle_pieces).
std::string bundle_text(const std::vector<std::string_view>& record_texts);
// A record's text indented one level further, without its final newline: its part of kb.json
// after the separator.
std::string indented_record(std::string_view record_text);
// The record_text that indented_record made `indented` from.
std::string unindented_record(std::string_view indented);
// kb.json as the pieces to write one after the other, given each record's indented_record.
std::vector<std::string_view> bundle_pieces(const std::vector<std::string_view>& indented);

}  // namespace kbc
