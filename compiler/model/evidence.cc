#include "model/evidence.h"

#include <algorithm>

#include "base/text.h"

namespace kbc {

namespace {

using nlohmann::ordered_json;

Location location_of_offset(std::string_view text, std::size_t offset) {
  const LineColumn at = line_column_at(text, offset);
  return {at.line, at.column};
}

// The line of `"<id>": {` in the file, for a problem with that record.
Location location_of_record(std::string_view text, const std::string& id) {
  const std::string key = ordered_json(id).dump() + ":";
  const auto at = text.find(key);
  return at == std::string_view::npos ? Location{1, 1} : location_of_offset(text, at);
}

std::string string_or_empty(const ordered_json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

ordered_json Evidence::to_json() const {
  ordered_json out = ordered_json::object();
  out["status"] = status;
  out["recipe_digest"] = recipe_digest;
  out["date"] = date;
  out["environment"] = environment;
  if (reproduced()) {
    out["line"] = line;
  } else {
    out["reason"] = reason;
    out["output_tail"] = output_tail;
  }
  return out;
}

EvidenceLock parse_evidence_lock(std::string_view text, Diagnostics& out) {
  EvidenceLock lock;
  const auto problem = [&](Location at, std::string message) {
    out.push_back({kEvidenceFile, at, Severity::kError, std::move(message), "evidence-file", ""});
  };
  ordered_json document;
  try {
    document = ordered_json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    problem(location_of_offset(text, error.byte == 0 ? 0 : error.byte - 1),
            "not valid JSON: " + std::string(error.what()));
    return lock;
  }
  if (!document.is_object() || document.value("kbc_verify_lock", 0) != 1 ||
      !document.contains("entries") || !document["entries"].is_object()) {
    problem({1, 1}, "not a kbc verify lock: expected {\"kbc_verify_lock\": 1, \"entries\": {...}}");
    return lock;
  }
  for (const auto& [id, record] : document["entries"].items()) {
    Evidence evidence;
    if (record.is_object()) {
      evidence.status = string_or_empty(record, "status");
      evidence.recipe_digest = string_or_empty(record, "recipe_digest");
      evidence.date = string_or_empty(record, "date");
      evidence.line = string_or_empty(record, "line");
      evidence.reason = string_or_empty(record, "reason");
      if (record.contains("environment") && record["environment"].is_object())
        evidence.environment = record["environment"];
      if (record.contains("output_tail") && record["output_tail"].is_array())
        for (const auto& line : record["output_tail"])
          if (line.is_string()) evidence.output_tail.push_back(line.get<std::string>());
    }
    if ((evidence.status != "reproduced" && evidence.status != "failed") ||
        evidence.recipe_digest.empty() || evidence.date.empty()) {
      problem(location_of_record(text, id),
              "the record of " + id +
                  " needs a status (reproduced or failed), a recipe_digest and a date");
      continue;
    }
    lock.emplace(id, std::move(evidence));
  }
  return lock;
}

std::string evidence_lock_text(const EvidenceLock& lock) {
  ordered_json document = ordered_json::object();
  document["kbc_verify_lock"] = 1;
  document["entries"] = ordered_json::object();
  for (const auto& [id, evidence] : lock) document["entries"][id] = evidence.to_json();
  return document.dump(2) + "\n";
}

std::string environment_summary(const ordered_json& environment) {
  std::vector<std::string> parts;
  const std::string os = string_or_empty(environment, "os");
  if (!os.empty()) parts.push_back(os);
  const std::string arch = string_or_empty(environment, "arch");
  if (!arch.empty()) parts.push_back(arch);
  for (const char* list : {"python_modules", "packages"}) {
    const auto it = environment.find(list);
    if (it == environment.end() || !it->is_object()) continue;
    for (const auto& [name, version] : it->items())
      if (version.is_string()) parts.push_back(name + " " + version.get<std::string>());
  }
  const auto gpu = environment.find("gpu");
  if (gpu != environment.end() && gpu->is_object()) {
    std::string text = string_or_empty(*gpu, "model");
    const std::string driver = string_or_empty(*gpu, "driver");
    if (!driver.empty()) text += " (driver " + driver + ")";
    if (!text.empty()) parts.push_back(text);
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

}  // namespace kbc
