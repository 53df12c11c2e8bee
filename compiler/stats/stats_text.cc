#include "stats/stats_text.h"

#include <algorithm>
#include <vector>

#include "stats/kb_stats.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;
using Row = std::vector<std::string>;

std::string number(const ordered_json& value) { return std::to_string(value.get<long long>()); }

// `part` of `whole` (counts) as a whole percentage, rounded half up in integers; "-" when there
// is no whole.
std::string share(const ordered_json& part, const ordered_json& whole) {
  const long long p = part.get<long long>(), w = whole.get<long long>();
  return w == 0 ? "-" : std::to_string((200 * p + w) / (2 * w)) + "%";
}

// Rows indented by two spaces, columns two apart: the first left-aligned, the others right.
std::string table(const std::vector<Row>& rows) {
  std::vector<std::size_t> widths;
  for (const Row& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - row[c].size(), ' ');
      line += "  " + (c == 0 ? row[c] + pad : pad + row[c]);
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

// The items of a list, four spaces in, the first `limit` of them and then how many more.
std::string item_lines(const std::vector<std::string>& items, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < std::min(limit, items.size()); ++i) out += "    " + items[i] + "\n";
  if (items.size() > limit)
    out += "    ... and " + std::to_string(items.size() - limit) + " more\n";
  return out;
}

std::vector<std::string> ids(const ordered_json& list) {
  return list.at("entries").get<std::vector<std::string>>();
}

std::string header(const ordered_json& stats, std::size_t limit) {
  std::string out = "kbc stats: " + number(stats["files"]) + " entry files, " +
                    number(stats["entries"]) + " entries counted, as of " +
                    stats["today"].get<std::string>() + "\n";
  const ordered_json& left_out = stats["left_out"];
  if (left_out["count"] == 0) return out;
  out += number(left_out["count"]) +
         " left out of every figure below: not valid YAML or rejected by the schema (see kbc "
         "lint)\n";
  return out + item_lines(ids(left_out), limit);
}

std::string domains_and_tiers(const ordered_json& stats) {
  Row head = {"domain"};
  for (const auto& [tier, count] : stats["tiers"].items()) head.push_back(tier);
  head.push_back("total");
  std::vector<Row> rows = {head};
  for (const auto& [domain, counts] : stats["domains"].items()) {
    rows.push_back({domain});
    for (const auto& count : counts) rows.back().push_back(number(count));
  }
  rows.push_back({"total"});
  for (const auto& count : stats["tiers"]) rows.back().push_back(number(count));
  rows.back().push_back(number(stats["entries"]));
  return "\nEntries by domain and verification tier\n" + table(rows);
}

std::string language(const std::string& lang, const ordered_json& coverage) {
  const ordered_json& entries = coverage["entries"];
  std::string out = "\nTranslation (" + lang + ")\n" +
                    table({{"entries with every field translated", number(entries["complete"])},
                           {"entries with some fields translated", number(entries["partial"])},
                           {"entries with no field translated", number(entries["none"])}});
  std::vector<Row> rows = {{"field", "English", "translated", "%"}};
  for (const auto& [field, counts] : coverage["fields"].items()) {
    rows.push_back({field, number(counts["english"]), number(counts["translated"]),
                    share(counts["translated"], counts["english"])});
    if (counts.contains("items_english")) {
      rows.push_back({"  items", number(counts["items_english"]),
                      number(counts["items_translated"]),
                      share(counts["items_translated"], counts["items_english"])});
    }
  }
  const ordered_json& all = coverage["all_fields"];
  rows.push_back({"all fields", number(all["english"]), number(all["translated"]),
                  share(all["translated"], all["english"])});
  return out + table(rows);
}

std::string translations(const ordered_json& stats) {
  std::string out;
  for (const auto& [lang, coverage] : stats["translations"].items())
    out += language(lang, coverage);
  return out;
}

std::string staleness(const ordered_json& stats, std::size_t limit) {
  std::string out =
      "\nStale entries (by last_confirmed, as of " + stats["today"].get<std::string>() + ")\n";
  for (const int days : kStaleDays) {
    const ordered_json& list = stats["stale"]["over_" + std::to_string(days) + "_days"];
    out += "  confirmed more than " + std::to_string(days) + " days ago: " + number(list["count"]) +
           "\n";
    std::vector<std::string> lines;
    for (const auto& item : list["entries"])
      lines.push_back(item["last_confirmed"].get<std::string>() + "  " +
                      item["id"].get<std::string>());
    out += item_lines(lines, limit);
  }
  const ordered_json& undated = stats["stale"]["not_a_date"];
  if (undated["count"] == 0) return out;
  return out + "  last_confirmed not a calendar date: " + number(undated["count"]) + "\n" +
         item_lines(ids(undated), limit);
}

std::string links(const ordered_json& stats, std::size_t limit) {
  const ordered_json& links = stats["links"];
  return "\nTransition graph\n  entries that link to no other entry: " +
         number(links["no_outgoing"]["count"]) + "\n" +
         item_lines(ids(links["no_outgoing"]), limit) +
         "  of those, linked to by no entry either: " + number(links["isolated"]["count"]) + "\n" +
         item_lines(ids(links["isolated"]), limit);
}

std::string regex_overlap(const ordered_json& stats) {
  const ordered_json& overlap = stats["regex_overlap"];
  return "\nRegex overlap (a regex that matches another entry's signature or sample)\n" +
         table({{"entries whose regex matches another entry",
                 number(overlap["entries_matching_others"])},
                {"entries matched by another entry's regex", number(overlap["entries_matched"])},
                {"overlaps (entry A's regex matches entry B)", number(overlap["overlaps"])},
                {"  declared in A's frequently_confused_with", number(overlap["declared"])},
                {"  not declared (regex-overlap warnings)", number(overlap["undeclared"])},
                {"pairs of entries that overlap either way", number(overlap["pairs"])}});
}

}  // namespace

std::string format_stats_text(const ordered_json& stats, std::size_t list_limit) {
  return header(stats, list_limit) + domains_and_tiers(stats) + translations(stats) +
         staleness(stats, list_limit) + links(stats, list_limit) + regex_overlap(stats);
}

}  // namespace kbc
