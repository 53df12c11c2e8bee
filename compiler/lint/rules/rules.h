// Each lint rule that checks entries, defined in its own file with its check; rule_list.cc
// lists them.
#pragma once

#include "lint/rule.h"

namespace kbc::rules {

extern const Rule kEntryBlankText;
extern const Rule kEntryIdPath;
extern const Rule kEntryDuplicateId;
extern const Rule kEntryRateFinite;
extern const Rule kEntryResolvableRate;
extern const Rule kEntryDuplicateAction;
extern const Rule kEntryHowRepeatsAction;
extern const Rule kTextWhitespace;
extern const Rule kDateInvalid;
extern const Rule kDateOrder;
extern const Rule kSourceUrl;
extern const Rule kRegexSyntax;
extern const Rule kRegexNoMatch;
extern const Rule kRegexCounterSample;
extern const Rule kRegexOverlap;
extern const Rule kRegexTooBroad;
extern const Rule kRegexJs;
extern const Rule kRegexBacktracking;
extern const Rule kEntryUnreachable;
extern const Rule kXrefUnknown;
extern const Rule kXrefSelf;
extern const Rule kI18nLength;
extern const Rule kI18nMissing;
extern const Rule kRecipeInvalid;
extern const Rule kEvidenceStale;
extern const Rule kEvidenceFailed;
extern const Rule kEvidenceRegex;

// Helpers shared by several rules.

// Calls `visit(pointer, item)` for each item of the list at `list_pointer`.
template <typename Visit>
void for_each_item(const Entry& entry, std::string_view list_pointer, Visit visit) {
  const auto& items = entry.list(list_pointer);
  for (std::size_t i = 0; i < items.size(); ++i) {
    visit(std::string(list_pointer) + "/" + std::to_string(i), items[i]);
  }
}

// The transition_graph lists, each holding items with an error_id.
inline constexpr std::string_view kGraphLists[] = {"/transition_graph/leads_to",
                                                   "/transition_graph/preceded_by",
                                                   "/transition_graph/frequently_confused_with"};

}  // namespace kbc::rules
