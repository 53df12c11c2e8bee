// i18n-length and i18n-missing: the texts of every language but the base (the _zh ones in
// Chinese) line up with the base language's and exist wherever those do.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

// The translated keys of every language but the base: `visit(language, base pointer, its
// translation's pointer, whether they are lists)`.
template <typename Visit>
void for_each_translation(const std::vector<Language>& languages, Visit visit) {
  for (const Language& language : languages) {
    if (language.base) continue;
    for (const TranslatedKey& key : translated_keys())
      visit(language, "/" + key.key, "/" + language.key(key.key), key.list);
  }
}

void missing_text(const Entry& entry, const Language& language, const std::string& base,
                  const std::string& translated, Reporter& report) {
  const auto* translation = entry.find(translated);
  if (!is_blank(entry.text(base)) && (!translation || translation->is_null())) {
    report.at_key(entry, base,
                  base.substr(1) + " has no " + language.english_name + " text (" +
                      translated.substr(1) + ")");
  } else if (translation && translation->is_string() && is_blank(entry.text(translated))) {
    report.at_value(entry, translated, translated.substr(1) + " is blank");
  }
}

void missing_items(const Entry& entry, const Language& language, const std::string& base,
                   const std::string& translated, Reporter& report) {
  if (!entry.list(base).empty() && !entry.find(translated)) {
    report.at_key(entry, base,
                  base.substr(1) + " have no " + language.english_name + " text (" +
                      translated.substr(1) + ")");
  }
  for_each_item(entry, translated, [&](const std::string& item, const auto& text) {
    if (text.is_string() && is_blank(entry.text(item)))
      report.at_value(entry, item, "blank " + language.english_name + " text");
  });
}

void i18n_length(const Entry& entry, const EntryContext& context, Reporter& report) {
  for_each_translation(context.languages, [&](const Language&, const std::string& base,
                                              const std::string& translated, bool list) {
    const auto* translations = entry.find(translated);
    if (!list || !translations || !translations->is_array()) return;
    const std::size_t expected = entry.list(base).size(), actual = translations->size();
    if (actual != expected) {
      report.at_key(entry, translated,
                    translated.substr(1) + " has " + std::to_string(actual) + " items but " +
                        base.substr(1) + " has " + std::to_string(expected));
    }
  });
}

void i18n_missing(const Entry& entry, const EntryContext& context, Reporter& report) {
  for_each_translation(context.languages, [&](const Language& language, const std::string& base,
                                              const std::string& translated, bool list) {
    if (list)
      missing_items(entry, language, base, translated, report);
    else
      missing_text(entry, language, base, translated, report);
  });
}

}  // namespace

constinit const Rule kI18nLength = {
    .id = "i18n-length",
    .severity = Severity::kError,
    .summary =
        "a translated list (workarounds_zh, dead_ends_ja, ...) has a different length than its "
        "list",
    .local = i18n_length,
    .required = true,
};
constinit const Rule kI18nMissing = {
    .id = "i18n-missing",
    .severity = Severity::kWarning,
    .summary =
        "a translated text (signature_zh, ...) is missing or blank where the base language's "
        "exists",
    .local = i18n_missing,
};

}  // namespace kbc::rules
