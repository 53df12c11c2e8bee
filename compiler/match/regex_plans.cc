#include "match/regex_plans.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "base/file_system.h"
#include "base/parallel.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

using nlohmann::json;
constexpr int kPlanFormat = 2;  // bump when what is stored changes

// What the plans were computed by: this file's format and this build of kbc, whose RE2 and
// whose atom length make the atoms.
std::string made_by() {
  const std::string build = executable_identity();
  return build.empty() ? "" : std::to_string(kPlanFormat) + ":" + build;
}

}  // namespace

RegexPlan plan_regex(std::string_view pattern, re2::FilteredRE2& filter) {
  RegexPlan plan;
  if (pattern.size() > RegexIndex::kMaxPatternBytes) {
    plan.error = too_long_pattern_error();
    return plan;
  }
  const RE2::Options options = entry_regex_options();
  int id = -1;
  if (filter.Add(re2::StringPiece(pattern.data(), pattern.size()), options, &id) != RE2::NoError) {
    plan.error = RE2(re2::StringPiece(pattern.data(), pattern.size()), options).error();
    return plan;
  }
  filter.Compile(&plan.atoms);
  std::vector<int> passed;
  filter.AllPotentials({}, &passed);
  plan.unfiltered = !passed.empty();
  if (plan.unfiltered) {
    plan.atoms.clear();
    return plan;
  }
  // The filter is monotone (AND and OR of atoms): an atom without which all the others do not
  // pass is in every set of atoms that passes.
  std::vector<int> others;
  for (int atom = 0; atom < static_cast<int>(plan.atoms.size()); ++atom) {
    others.clear();
    for (int other = 0; other < static_cast<int>(plan.atoms.size()); ++other) {
      if (other != atom) others.push_back(other);
    }
    passed.clear();
    filter.AllPotentials(others, &passed);
    if (passed.empty()) plan.required.push_back(atom);
  }
  return plan;
}

RegexPlan plan_regex(std::string_view pattern) {
  re2::FilteredRE2 filter{RegexIndex::kMinAtomLength};
  return plan_regex(pattern, filter);
}

RegexPlans RegexPlans::read(const std::string& path) {
  RegexPlans out;
  const std::string by = made_by();
  const std::optional<std::string> bytes = read_whole_file(path);
  if (by.empty() || !bytes) return out;
  try {
    const json stored = json::from_cbor(*bytes);
    if (stored.at("by") != by) return out;  // another build: its atoms may differ
    for (const json& row : stored.at("plans")) {
      Kept& kept = out.plans_[row.at(0).get<std::string>()];
      kept.plan.unfiltered = row.at(1).get<bool>();
      kept.plan.error = row.at(2).get<std::string>();
      kept.plan.atoms = row.at(3).get<std::vector<std::string>>();
      kept.plan.required = row.at(4).get<std::vector<int>>();
      for (const int atom : kept.plan.required) {
        if (atom < 0 || static_cast<std::size_t>(atom) >= kept.plan.atoms.size()) return {};
      }
    }
  } catch (const std::exception&) {
    return {};  // damaged or foreign: compute them again
  }
  return out;
}

bool RegexPlans::write(const std::string& path) const {
  const std::string by = made_by();
  if (by.empty()) return false;
  std::vector<const std::pair<const std::string, Kept>*> rows;
  for (const auto& row : plans_) {
    if (row.second.used || plans_.size() <= kMostKept) rows.push_back(&row);
  }
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->first < b->first; });
  json plans = json::array();
  for (const auto* row : rows) {
    const RegexPlan& plan = row->second.plan;
    plans.push_back({row->first, plan.unfiltered, plan.error, plan.atoms, plan.required});
  }
  const std::vector<std::uint8_t> bytes = json::to_cbor({{"by", by}, {"plans", plans}});
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  return !error && replace_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                                       bytes.size()));
}

void RegexPlans::add(const std::vector<std::string_view>& patterns) {
  std::vector<std::string_view> missing;
  std::unordered_set<std::string_view> seen;
  for (const std::string_view pattern : patterns) {
    const auto it = plans_.find(std::string(pattern));
    if (it != plans_.end()) {
      it->second.used = true;
    } else if (seen.insert(pattern).second) {
      missing.push_back(pattern);
    }
  }
  if (missing.empty()) return;
  std::vector<RegexPlan> computed(missing.size());
  parallel_slices(missing.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) computed[i] = plan_regex(missing[i]);
  });
  for (std::size_t i = 0; i < missing.size(); ++i)
    plans_[std::string(missing[i])] = {std::move(computed[i]), true};
  changed_ = true;
}

const RegexPlan& RegexPlans::of(std::string_view pattern) const {
  return plans_.at(std::string(pattern)).plan;
}

std::optional<std::string> user_regex_plans_path() {
  for (const auto& [variable, under] :
       {std::pair{"XDG_CACHE_HOME", "kbc"}, std::pair{"HOME", ".cache/kbc"}}) {
    const char* value = std::getenv(variable);
    if (value && value[0] == '/') return join_path(join_path(value, under), "regex-plans");
  }
  return std::nullopt;
}

}  // namespace kbc
