// xref-unknown and xref-self: transition_graph links must lead to another existing entry.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

template <typename Visit>
void for_each_link(const Entry& entry, Visit visit) {
  for (std::string_view list : kGraphLists) {
    for_each_item(entry, list, [&](const std::string& item, const auto& link) {
      if (link.is_object() && link.contains("error_id") && link["error_id"].is_string()) {
        visit(item + "/error_id", link["error_id"].template get<std::string>());
      }
    });
  }
}

void xref_unknown(const Entry& entry, const LintContext& context, Reporter& report) {
  const auto& kb = context.kb;
  for_each_link(entry, [&](const std::string& pointer, const std::string& target) {
    if (target == entry.id() || kb.by_id.count(target) || kb.file_ids.count(target)) return;
    std::string message = "no entry has the id '" + target + "'";
    if (const auto suggestion = context.file_id_candidates().closest(target))
      message += "; did you mean '" + *suggestion + "'?";
    report.at_value(entry, pointer, message);
  });
}

void xref_self(const Entry& entry, const EntryContext&, Reporter& report) {
  for_each_link(entry, [&](const std::string& pointer, const std::string& target) {
    if (target == entry.id()) report.at_value(entry, pointer, "the entry links to itself");
  });
}

}  // namespace

constinit const Rule kXrefUnknown = {
    .id = "xref-unknown",
    .severity = Severity::kError,
    .summary = "a transition_graph error_id that names no entry",
    .cross_entry = xref_unknown,
};
constinit const Rule kXrefSelf = {
    .id = "xref-self",
    .severity = Severity::kError,
    .summary = "a transition_graph error_id that names the entry itself",
    .local = xref_self,
};

}  // namespace kbc::rules
