#include "match/regex_plans.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "base/file_system.h"
#include "base/parallel.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

using nlohmann::json;
constexpr int kPlanFormat = 3;  // bump when what is stored changes

// The drops that look for minimal clauses ask the filter at most about this many times: each
// start asks once per atom, so a regex of up to 32 atoms is started from every one (the
// corpus's have 6 on average, 21 at most), and a hostile one of 400 from two (each question
// costs in proportion to the atoms: 32 starts took 0.57 s there).
constexpr int kClauseQuestions = 1024;

// Whether the only regex of `filter` passes for the text of `atoms` (indexes).
bool passes(const re2::FilteredRE2& filter, const std::vector<int>& atoms) {
  std::vector<int> passed;
  filter.AllPotentials(atoms, &passed);
  return !passed.empty();
}

// Clauses (RegexPlan) of the only regex of `filter`, whose `count` atoms pass and none do not.
// An atom is required when the others do not pass: a clause of one. The others are found from
// all the atoms (a clause, since none do not pass): each atom is dropped in turn, and put back
// when the atoms outside then pass, which leaves a minimal clause (dropping an atom later only
// adds to the atoms outside, which still pass). Started from each atom in turn, the drops find
// different ones: `K0 .*(DataBinding|symbol)` gives {`k0 `} from `databinding`, and the other
// two from `k0 `. On the corpus's signatures this lets 20,409 regexes with atoms through where
// "all the required atoms and one atom" let 508,816 (FilteredRE2 on each regex: 18,717).
std::vector<std::vector<int>> minimal_clauses(const re2::FilteredRE2& filter, int count) {
  std::set<std::vector<int>> clauses;
  std::vector<int> outside;
  for (int atom = 0; atom < count; ++atom) {
    outside.clear();
    for (int other = 0; other < count; ++other) {
      if (other != atom) outside.push_back(other);
    }
    if (!passes(filter, outside)) clauses.insert({atom});
  }
  const int starts = std::clamp(kClauseQuestions / count, 1, count);
  for (int start = 0; start < starts; ++start) {
    std::vector<bool> in(static_cast<std::size_t>(count), true);
    for (int step = 0; step < count; ++step) {
      const int atom = (start + step) % count;
      in[static_cast<std::size_t>(atom)] = false;
      outside.clear();
      for (int other = 0; other < count; ++other) {
        if (!in[static_cast<std::size_t>(other)]) outside.push_back(other);
      }
      if (passes(filter, outside)) in[static_cast<std::size_t>(atom)] = true;
    }
    std::vector<int> clause;
    for (int other = 0; other < count; ++other) {
      if (in[static_cast<std::size_t>(other)]) clause.push_back(other);
    }
    clauses.insert(std::move(clause));
  }
  return {clauses.begin(), clauses.end()};
}

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
  plan.clauses = minimal_clauses(filter, static_cast<int>(plan.atoms.size()));
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
      kept.plan.clauses = row.at(4).get<std::vector<std::vector<int>>>();
      if (kept.plan.clauses.empty() != kept.plan.atoms.empty()) return {};
      for (const std::vector<int>& clause : kept.plan.clauses) {
        for (const int atom : clause) {
          if (atom < 0 || static_cast<std::size_t>(atom) >= kept.plan.atoms.size()) return {};
        }
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
    plans.push_back({row->first, plan.unfiltered, plan.error, plan.atoms, plan.clauses});
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
