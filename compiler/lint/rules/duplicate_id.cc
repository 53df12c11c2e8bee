// entry-duplicate-id: two files that declare one id would publish to the same place.
#include "lint/rules/rules.h"

namespace kbc::rules {

void duplicate_id(const Entry& entry, const LintContext& context, Reporter& report) {
  const auto it = context.kb.by_id.find(entry.id());
  if (it == context.kb.by_id.end() || it->second.size() < 2) return;
  for (std::size_t other : it->second) {
    const Entry& twin = context.kb.entries[other];
    if (&twin == &entry) continue;
    report.at_value(entry, "/id", "id '" + entry.id() + "' is also declared by " + twin.path);
  }
}

}  // namespace kbc::rules
