// The languages of a knowledge base (kbc.yaml's `languages`): which keys of an entry hold which
// language's text, and the entry schema that follows from them.
//
// The first language is the base language: its texts are the keys without a suffix (signature,
// root_cause, workarounds, dead_ends). Every other language has its own copy of those keys,
// ending in _<code> (signature_ja): the translated keys. schema/entry.schema.json writes them for
// Chinese (signature_zh, ...) as the template of every language's; entry_schema() puts the
// knowledge base's own in their place, so adding a language is configuration, not code.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

struct Language {
  std::string code;          // "zh": the folder of its pages, its keys' suffix, its strings file
  std::string html_lang;     // "zh-CN": <html lang>, hreflang and inLanguage
  std::string name;          // "中文": its own name, in the language switcher
  std::string english_name;  // "Chinese": its name in kbc's messages, the schema and `kbc new`
  bool base = false;         // the first language: its keys have no suffix

  // The key that holds the text of `base_key` in this language: "signature" in the base
  // language, "signature_zh" in Chinese.
  std::string key(std::string_view base_key) const;
};

// The `languages` list that stands for kbc.yaml's when it has none: the default of
// schema/kbc.schema.json (English, then Chinese).
const nlohmann::json& default_language_list();

// default_language_list(), named by kbc's own UI strings.
const std::vector<Language>& default_languages();

// The languages of a `languages` list as kbc.yaml writes it ([{code, name?, html_lang?}, ...]),
// the first the base. A language's name is `name`, else language_name of its UI strings (the
// object `strings(code)` returns), else the code; its English name is english_name of its
// strings; html_lang is the code unless set. `strings` may give nullopt, and kbc's own strings
// stand in for what a knowledge base's leave out.
using StringsLookup = std::function<std::optional<nlohmann::json>(const std::string& code)>;
std::vector<Language> languages_from(const nlohmann::json& list, const StringsLookup& strings);

// kbc's own templates/strings/<code>.json, parsed; nullopt when it has none.
std::optional<nlohmann::json> built_in_strings(const std::string& code);

// A key that each language but the base has its own copy of.
struct TranslatedKey {
  std::string key;  // "workarounds"
  bool list;        // its copies are lists of texts, one per item of its list
};

// The translated keys, in the schema's order: signature, root_cause, workarounds, dead_ends.
const std::vector<TranslatedKey>& translated_keys();

// schema/entry.schema.json as built into kbc, parsed once: the schema of the default languages.
const nlohmann::ordered_json& builtin_entry_schema();

// The entry schema of a knowledge base in `languages`: schema/entry.schema.json with its _zh
// keys replaced, where they stand, by each other language's, in the order of `languages`, their
// descriptions naming that language.
nlohmann::ordered_json entry_schema(const std::vector<Language>& languages);

// entry_schema() as text: the built-in file itself when the languages change nothing in it, as
// the default ones do, else the derived schema indented by two spaces.
std::string entry_schema_text(const std::vector<Language>& languages);

}  // namespace kbc
