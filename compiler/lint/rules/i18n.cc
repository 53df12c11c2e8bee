// i18n-length and i18n-missing: the Chinese texts line up with the English ones and exist
// wherever the English ones do.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

struct Translated {
  const char* english;
  const char* chinese;
};
constexpr Translated kLists[] = {{"/workarounds", "/workarounds_zh"},
                                 {"/dead_ends", "/dead_ends_zh"}};
constexpr Translated kTexts[] = {{"/signature", "/signature_zh"},
                                 {"/root_cause", "/root_cause_zh"}};

}  // namespace

void i18n_length(const Entry& entry, const LintContext&, Reporter& report) {
  for (const auto& [english, chinese] : kLists) {
    const auto* translations = entry.find(chinese);
    if (!translations || !translations->is_array()) continue;
    const std::size_t expected = entry.list(english).size(), actual = translations->size();
    if (actual != expected) {
      report.at_key(entry, chinese,
                    std::string(chinese + 1) + " has " + std::to_string(actual) + " items but " +
                        (english + 1) + " has " + std::to_string(expected));
    }
  }
}

void i18n_missing(const Entry& entry, const LintContext&, Reporter& report) {
  for (const auto& [english, chinese] : kTexts) {
    const auto* translation = entry.find(chinese);
    if (!is_blank(entry.text(english)) && (!translation || translation->is_null())) {
      report.at_key(entry, english,
                    std::string(english + 1) + " has no Chinese text (" + (chinese + 1) + ")");
    } else if (translation && translation->is_string() && is_blank(entry.text(chinese))) {
      report.at_value(entry, chinese, std::string(chinese + 1) + " is blank");
    }
  }
  for (const auto& [english, chinese] : kLists) {
    const auto* translations = entry.find(chinese);
    if (!entry.list(english).empty() && !translations) {
      report.at_key(entry, english,
                    std::string(english + 1) + " have no Chinese text (" + (chinese + 1) + ")");
    }
    for_each_item(entry, chinese, [&](const std::string& item, const auto& text) {
      if (text.is_string() && is_blank(entry.text(item)))
        report.at_value(entry, item, "blank Chinese text");
    });
  }
}

}  // namespace kbc::rules
