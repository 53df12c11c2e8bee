#include "match/match_record.h"

#include <algorithm>

namespace kbc {
namespace {

std::string text_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::vector<const nlohmann::json*> objects_in(const nlohmann::json& object, const char* key) {
  std::vector<const nlohmann::json*> out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const nlohmann::json& item : *it) {
    if (item.is_object()) out.push_back(&item);
  }
  return out;
}

std::vector<std::string> texts_in(const nlohmann::json& object, const char* key) {
  std::vector<std::string> out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const nlohmann::json& item : *it) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

// Keeps `action` as the record's best workaround when its rate is the highest so far (the first
// on a tie), or as the next best.
void offer_workaround(MatchRecord& record, MatchAction&& action) {
  if (!record.best_workaround || action.rate > record.best_workaround->rate) {
    if (record.best_workaround) record.next_workaround = std::move(record.best_workaround);
    record.best_workaround = std::move(action);
  } else if (!record.next_workaround || action.rate > record.next_workaround->rate) {
    record.next_workaround = std::move(action);
  }
}

MatchRecord match_record(const nlohmann::json& object) {
  MatchRecord record;
  record.id = text_field(object, "id");
  record.signature = text_field(object, "signature");
  record.regex = text_field(object, "regex");
  record.fix_success_rate = number_field(object, "fix_success_rate");
  for (const nlohmann::json* item : objects_in(object, "workarounds")) {
    offer_workaround(record, {text_field(*item, "action"), text_field(*item, "how"),
                              text_field(*item, "condition"), number_field(*item, "success_rate")});
  }
  for (const nlohmann::json* item : objects_in(object, "dead_ends")) {
    record.dead_ends.push_back(
        {text_field(*item, "action"), "", "", number_field(*item, "fail_rate")});
  }
  record.aliases = texts_in(object, "aliases");
  record.tags = texts_in(object, "tags");
  record.error_code = text_field(object, "error_code");
  return record;
}

std::vector<MatchRecord> match_records(const KnowledgeBase& kb) {
  std::vector<const Entry*> valid;
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok) valid.push_back(&entry);
  }
  std::stable_sort(valid.begin(), valid.end(),
                   [](const Entry* a, const Entry* b) { return a->id() < b->id(); });
  std::vector<MatchRecord> records;
  for (const Entry* entry : valid) records.push_back(match_record(entry->data));
  return records;
}

}  // namespace kbc
