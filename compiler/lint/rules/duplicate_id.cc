// entry-duplicate-id: two files that declare one id would publish to the same place.
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void duplicate_id(const Entry& entry, const LintContext& context, Reporter& report) {
  const auto it = context.kb.by_id.find(entry.id());
  if (it == context.kb.by_id.end() || it->second.size() < 2) return;
  for (std::size_t other : it->second) {
    const Entry& twin = context.kb.entries[other];
    if (&twin == &entry) continue;
    report.at_value(entry, "/id", "id '" + entry.id() + "' is also declared by " + twin.path);
  }
}

}  // namespace

constinit const Rule kEntryDuplicateId = {
    .id = "entry-duplicate-id",
    .severity = Severity::kError,
    .summary = "two files declare the same id",
    .cross_entry = duplicate_id,
    .required = true,
};

}  // namespace kbc::rules
