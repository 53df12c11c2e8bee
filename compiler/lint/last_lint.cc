#include "lint/last_lint.h"

#include "model/parse_cache.h"

namespace kbc {

using nlohmann::json;

json LastLint::findings_json() const {
  return {{"digest", digest}, {"benign", benign}, {"findings", diagnostics_to_json(findings)}};
}

json LastLint::facts_json() const {
  json facts = json::object();
  for (const auto& [path, entry] : entries) {
    json hits = json::array();
    for (const auto& [owner, pointer] : entry.hits) hits.push_back({owner, pointer});
    facts[path] = {entry.digest,    entry.compiled,     entry.atoms,      entry.required,
                   std::move(hits), entry.benign_lines, entry.some_benign};
  }
  return {{"digest", digest}, {"entries", std::move(facts)}};
}

std::optional<LastLint> LastLint::from_json(const json& stored) {
  try {
    LastLint last;
    last.digest = stored.at("digest").get<std::string>();
    last.benign = stored.at("benign").get<std::string>();
    last.findings = diagnostics_from_json(stored.at("findings"));
    return last;
  } catch (const std::exception&) {
    return std::nullopt;  // damaged or foreign: lint everything
  }
}

bool LastLint::add_facts(const json& stored) {
  try {
    if (stored.at("digest").get<std::string>() != digest) return false;  // another lint's
    std::map<std::string, EntryFacts> read;
    for (const auto& [path, facts] : stored.at("entries").items()) {
      EntryFacts& entry = read[path];
      entry.digest = facts.at(0).get<std::string>();
      entry.compiled = facts.at(1).get<bool>();
      entry.atoms = facts.at(2).get<std::vector<std::string>>();
      entry.required = facts.at(3).get<std::vector<std::string>>();
      for (const json& hit : facts.at(4))
        entry.hits.emplace_back(hit.at(0).get<std::string>(), hit.at(1).get<std::string>());
      entry.benign_lines = facts.at(5).get<int>();
      entry.some_benign = facts.at(6).get<std::vector<std::uint32_t>>();
    }
    entries = std::move(read);
    return true;
  } catch (const std::exception&) {
    return false;  // damaged or foreign: lint everything
  }
}

}  // namespace kbc
