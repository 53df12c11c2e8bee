#include "site/match_figures.h"

#include <algorithm>

#include "base/digest.h"
#include "base/memory.h"
#include "base/parallel.h"
#include "base/text.h"
#include "match/breadth.h"
#include "match/rank.h"
#include "match/regex_index.h"
#include "render/record.h"

namespace kbc {
namespace {

// Regexes compiled at once: as lint's chunks (lint/rule.h), for the same reason.
constexpr std::size_t kBreadthChunk = 4096;

std::string texts_digest(const std::vector<std::string_view>& ids,
                         const std::vector<std::string_view>& signatures,
                         const std::vector<BenignLine>& benign) {
  Digest digest;
  digest.add("breadth texts 1").add(benign.size());
  for (const BenignLine& line : benign) digest.add(line.text);
  digest.add(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) digest.add(ids[i]).add(signatures[i]);
  return digest.hex();
}

std::string regex_key(std::string_view regex, std::string_view id) {
  return Digest().add(regex).add(error_of(id)).hex().substr(0, 32);
}

}  // namespace

nlohmann::json BreadthMemo::to_json() const {
  nlohmann::json penalties_json = nlohmann::json::object();
  for (const auto& [key, penalty] : penalties) penalties_json[key] = penalty;
  return {{"texts", texts}, {"penalties", std::move(penalties_json)}};
}

std::optional<BreadthMemo> BreadthMemo::from_json(const nlohmann::json& stored) {
  if (!stored.is_object() || !stored.contains("texts") || !stored["texts"].is_string() ||
      !stored.contains("penalties") || !stored["penalties"].is_object())
    return std::nullopt;
  BreadthMemo memo;
  memo.texts = stored["texts"].get<std::string>();
  for (const auto& [key, penalty] : stored["penalties"].items()) {
    if (!penalty.is_number_integer()) return std::nullopt;
    memo.penalties[key] = penalty.get<int>();
  }
  return memo;
}

MatchFigures match_figures(const SiteModel& model, const std::vector<BenignLine>* benign,
                           BreadthMemo* memo) {
  const std::vector<BenignLine>& lines = benign ? *benign : builtin_benign_lines();
  const std::size_t n = model.size();
  std::vector<std::string_view> ids(n), signatures(n), regexes(n);
  std::vector<std::string> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = model.row(i).id;
    signatures[i] = model.row(i).signature;
    regexes[i] = model.row(i).regex;
  }
  const std::string texts = texts_digest(ids, signatures, lines);
  const bool known = memo && memo->texts == texts;
  MatchFigures figures{std::vector<int>(n, 0)};
  std::vector<std::size_t> unknown;  // the records whose regex must be measured
  for (std::size_t i = 0; i < n; ++i) {
    if (is_blank(regexes[i])) continue;  // no regex: no breadth
    keys[i] = regex_key(regexes[i], ids[i]);
    if (known) {
      if (const auto it = memo->penalties.find(keys[i]); it != memo->penalties.end()) {
        figures.breadth_penalty[i] = it->second;
        continue;
      }
    }
    unknown.push_back(i);
  }
  std::optional<BreadthTexts> breadth_texts;  // the same for every chunk
  if (!unknown.empty()) breadth_texts.emplace(signatures, lines);
  for (std::size_t begin = 0; begin < unknown.size(); begin += kBreadthChunk) {
    const std::size_t end = std::min(unknown.size(), begin + kBreadthChunk);
    std::vector<std::optional<std::string_view>> patterns(n);
    for (std::size_t k = begin; k < end; ++k) patterns[unknown[k]] = regexes[unknown[k]];
    const RegexIndex index(patterns, RegexIndex::DistinctTexts{});
    // A few regexes (a build after an edit) search the texts directly; more are prefiltered,
    // as a direct search reads all the texts for each regex.
    const std::size_t direct =
        end - begin <= RegexBreadth::kDirectEntries ? RegexBreadth::kDirectEntries : 0;
    const RegexBreadth breadth(
        index, [](std::size_t i) { return i; }, ids, *breadth_texts, direct);
    const auto measure = [&](std::size_t k) {
      const Breadth b = breadth.of(unknown[k]);
      figures.breadth_penalty[unknown[k]] = breadth_penalty(b.benign_lines, b.other_errors);
    };
    parallel_blocks(end - begin, [&](std::size_t from, std::size_t to) {
      for (std::size_t k = begin + from; k < begin + to; ++k) measure(k);
    });
    return_free_memory();  // the chunk's regexes
  }
  if (memo) {
    BreadthMemo next{texts, {}};
    for (std::size_t i = 0; i < n; ++i) {
      if (!keys[i].empty()) next.penalties[keys[i]] = figures.breadth_penalty[i];
    }
    next.changed = memo->texts != next.texts || memo->penalties != next.penalties;
    *memo = std::move(next);
  }
  return figures;
}

}  // namespace kbc
