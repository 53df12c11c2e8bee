// The check function of each lint rule; rule_list.cc ties them to ids and summaries.
#pragma once

#include "lint/rule.h"

namespace kbc::rules {

void blank_text(const Entry&, const LintContext&, Reporter&);
void id_path(const Entry&, const LintContext&, Reporter&);
void duplicate_id(const Entry&, const LintContext&, Reporter&);
void regex_syntax(const Entry&, const LintContext&, Reporter&);
void regex_no_match(const Entry&, const LintContext&, Reporter&);
void regex_counter_sample(const Entry&, const LintContext&, Reporter&);
void regex_overlap(const Entry&, const LintContext&, Reporter&);
void regex_js(const Entry&, const LintContext&, Reporter&);
void entry_unreachable(const Entry&, const LintContext&, Reporter&);
void xref_unknown(const Entry&, const LintContext&, Reporter&);
void xref_self(const Entry&, const LintContext&, Reporter&);
void date_invalid(const Entry&, const LintContext&, Reporter&);
void date_order(const Entry&, const LintContext&, Reporter&);
void rate_finite(const Entry&, const LintContext&, Reporter&);
void i18n_length(const Entry&, const LintContext&, Reporter&);
void i18n_missing(const Entry&, const LintContext&, Reporter&);
void how_repeats_action(const Entry&, const LintContext&, Reporter&);
void resolvable_rate(const Entry&, const LintContext&, Reporter&);
void source_url(const Entry&, const LintContext&, Reporter&);
void duplicate_action(const Entry&, const LintContext&, Reporter&);
void text_whitespace(const Entry&, const LintContext&, Reporter&);
void regex_too_broad(const Entry&, const LintContext&, Reporter&);

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
