// entry-unreachable: `kbc match` given the entry's own signature ranks another entry first (or
// finds nothing), so no lookup by that error message can ever return this entry.
#include "base/text.h"
#include "lint/rules/rules.h"

namespace kbc::rules {
namespace {

std::string percent(const Entry& entry) {
  const auto* rate = entry.find("/fix_success_rate");
  const double value = rate && rate->is_number() ? rate->get<double>() : 0;
  return percent_text(value);
}

void entry_unreachable(const Entry& entry, const LintContext& context, Reporter& report) {
  if (!entry.shape_ok) return;
  const std::size_t self = context.index_of(entry);
  const std::size_t winner = context.winners[self];
  if (winner == self) return;
  if (winner == kNoEntry) {
    report.at_value(entry, "/signature",
                    "kbc match finds nothing for this signature, so no lookup can return the "
                    "entry; write the signature as the error's one line, as it is printed");
    return;
  }
  const Entry& other = context.kb.entries[winner];
  // Appended piece by piece: GCC 12 warns wrongly (-Wrestrict) on `"'" + std::string + ...`.
  std::string where = "'";
  where.append(other.id()).append("' (").append(other.path).append(":");
  where.append(std::to_string(other.value_at("/signature").line)).append(")");
  if (ascii_lower(trim(other.text("/signature"))) == ascii_lower(trim(entry.text("/signature")))) {
    report.at_value(entry, "/signature",
                    "unreachable: " + where +
                        " has the same signature and comes first for it (fix rate " +
                        percent(other) + " against " + percent(entry) +
                        ", then id order); make each signature say what tells the errors apart, "
                        "or merge the entries");
    return;
  }
  report.at_value(entry, "/signature",
                  "unreachable: kbc match ranks " + where +
                      " first for this entry's own signature; tighten that entry's regex, or make "
                      "this signature the error's one line, as it is printed");
}

}  // namespace

constinit const Rule kEntryUnreachable = {
    .id = "entry-unreachable",
    .severity = Severity::kError,
    .summary =
        "kbc match ranks another entry first for the entry's own signature (named), so no lookup "
        "returns it",
    .cross_entry = entry_unreachable,
};

}  // namespace kbc::rules
