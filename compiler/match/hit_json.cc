#include "match/hit_json.h"

#include "base/text.h"
#include "base/utf8.h"

namespace kbc {

nlohmann::ordered_json hit_json(const Matcher& matcher, const Hit& hit, std::size_t position) {
  const MatchRecord& record = matcher.records()[hit.record];
  nlohmann::ordered_json out;
  out["rank"] = position;
  out["id"] = record.id;
  out["signature"] = record.signature;
  out["line"] = hit.line_number;
  out["text"] = hit.line;
  out["match"] = {{"begin", code_points(std::string_view(hit.line).substr(0, hit.begin))},
                  {"end", code_points(std::string_view(hit.line).substr(0, hit.end))},
                  {"by", hit.near           ? "words"
                         : hit.by_signature ? "signature"
                                            : "regex"}};
  out["score"] = {{"error_line", hit.rank.error_line},    {"coverage", hit.rank.coverage},
                  {"specificity", hit.rank.specificity},  {"signature", hit.rank.signature},
                  {"fix_rate", hit.rank.fix_rate},        {"total", hit.rank.score},
                  {"line_kind", line_kind_name(hit.kind)}};
  out["near"] = hit.near;
  out["lines"] = hit.lines;
  out["fix_success_rate"] = record.fix_success_rate;
  const auto workaround = [](const std::optional<MatchAction>& fix) {
    if (!fix) return nlohmann::ordered_json();
    return nlohmann::ordered_json{{"action", fix->action},
                                  {"how", fix->how},
                                  {"success_rate", fix->rate},
                                  {"condition", fix->condition}};
  };
  out["workaround"] = workaround(record.best_workaround);
  out["next_workaround"] = workaround(record.next_workaround);
  out["breadth"] = nullptr;  // a regex's only
  if (!hit.near && !hit.by_signature) {
    const Breadth breadth = matcher.breadth(hit.record);
    out["breadth"] = {{"benign_lines", breadth.benign_lines},
                      {"other_errors", breadth.other_errors}};
  }
  out["dead_ends"] = nlohmann::ordered_json::array();
  for (const MatchAction& dead_end : record.dead_ends)
    out["dead_ends"].push_back({{"action", dead_end.action}, {"fail_rate", dead_end.rate}});
  return out;
}

nlohmann::ordered_json hits_json(const Matcher& matcher, const std::vector<Hit>& hits,
                                 std::size_t lines, int min_score) {
  nlohmann::ordered_json out;
  out["version"] = 1;
  out["entries"] = matcher.records().size();
  out["lines"] = lines;
  out["min_score"] = min_score;
  out["hits"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < hits.size(); ++i)
    out["hits"].push_back(hit_json(matcher, hits[i], i + 1));
  return out;
}

}  // namespace kbc
