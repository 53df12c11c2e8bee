// entry-id-path: the id is the file's path under entries/, and its first segment is the domain,
// so that ids, files and output paths can never disagree.
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

void id_path(const Entry& entry, const EntryContext&, Reporter& report) {
  const auto* id = entry.find("/id");
  if (id && id->is_string() && entry.id() != entry.id_from_path) {
    report.at_value(entry, "/id",
                    "id '" + entry.id() + "' does not match the file's path; expected '" +
                        entry.id_from_path + "'");
  }
  const auto* domain = entry.find("/domain");
  const std::string first_segment = entry.id_from_path.substr(0, entry.id_from_path.find('/'));
  if (domain && domain->is_string() && domain->get<std::string>() != first_segment) {
    report.at_value(entry, "/domain",
                    "domain '" + domain->get<std::string>() +
                        "' differs from the id's first segment '" + first_segment + "'");
  }
}

}  // namespace

constinit const Rule kEntryIdPath = {
    .id = "entry-id-path",
    .severity = Severity::kError,
    .summary =
        "the id differs from the file's path under entries/, or the domain from the id's first "
        "segment",
    .local = id_path,
    .required = true,
};

}  // namespace kbc::rules
