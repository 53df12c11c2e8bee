#include "match/matcher.h"

#include <algorithm>
#include <limits>

#include "base/text.h"
#include "base/utf8.h"
#include "match/best_hits.h"
#include "match/log_scan.h"
#include "match/regex_index.h"

namespace kbc {
namespace {

// The literal text that finds a signature (ignoring case): the signature trimmed, when it is one
// line.
std::optional<std::string_view> signature_literal(std::string_view signature) {
  signature = trim(signature);
  if (signature.empty() || signature.find('\n') != std::string_view::npos) return std::nullopt;
  return signature;
}

// A line of a log that is matched only against the entries of such lines (see matcher.h).
bool low_severity_line(std::string_view line) {
  line = trim(line);
  return declares_low_severity(line) && !looks_like_error(line);
}

}  // namespace

Matcher::Matcher(std::vector<MatchRecord> records, MatchOptions options)
    : records_(std::move(records)), options_(options) {
  std::vector<std::optional<std::string_view>> patterns;
  std::vector<bool> literal;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const MatchRecord& record = records_[i];
    patterns.push_back(is_blank(record.regex) ? std::nullopt
                                              : std::optional<std::string_view>(record.regex));
    patterns.push_back(options_.signatures ? signature_literal(record.signature) : std::nullopt);
    literal.insert(literal.end(), {false, true});
    regex_specificity_.push_back(regex_specificity(record.regex));
    signature_specificity_.push_back(static_cast<int>(code_points(trim(record.signature))));
    fix_rate_.push_back(rate_permille(record.fix_success_rate));
  }
  codes_ = std::vector<Codes>(records_.size());
  index_ = std::make_unique<RegexIndex>(patterns, literal, error_words(), options_.plans);
  for (std::size_t i = 0; i < records_.size(); ++i) {
    const std::string_view signature = trim(records_[i].signature);
    if (!low_severity_line(signature.substr(0, signature.find('\n'))))
      patterns[2 * i] = patterns[2 * i + 1] = std::nullopt;
  }
  low_index_ = std::make_unique<RegexIndex>(patterns, literal, error_words(), options_.plans);
  alternatives_ = std::vector<Alternatives>(records_.size());
  std::vector<std::string_view> ids, signatures;
  for (const MatchRecord& record : records_) {
    ids.push_back(record.id);
    signatures.push_back(record.signature);
  }
  breadth_ = std::make_unique<RegexBreadth>(
      *index_, [](std::size_t record) { return 2 * record; }, std::move(ids), std::move(signatures),
      options_.benign ? *options_.benign : builtin_benign_lines());
}

int Matcher::regex_penalty(std::size_t record) const {
  const Breadth breadth = breadth_->of(record);
  return breadth_penalty(breadth.benign_lines, breadth.other_errors);
}

int Matcher::hit_specificity(std::size_t record, std::string_view span) const {
  Alternatives& alternatives = alternatives_[record];
  std::call_once(alternatives.compiled, [&] {
    for (const auto& [specificity, pattern] : specific_alternatives(records_[record].regex)) {
      auto regex = std::make_unique<RE2>(pattern, entry_regex_options());
      if (regex->ok()) alternatives.regexes.emplace_back(specificity, std::move(regex));
    }
  });
  for (const auto& [specificity, regex] : alternatives.regexes) {
    if (RE2::FullMatch(re2::StringPiece(span.data(), span.size()), *regex)) return specificity;
  }
  return regex_specificity_[record];
}

const std::vector<std::string>& Matcher::codes(std::size_t record) const {
  Codes& codes = codes_[record];
  std::call_once(codes.found, [&] {
    const auto add = [&](std::string_view text) {
      for (std::string& word : near_words(text)) {
        if (is_code_word(word) &&
            std::find(codes.words.begin(), codes.words.end(), word) == codes.words.end())
          codes.words.push_back(std::move(word));
      }
    };
    const MatchRecord& r = records_[record];
    add(r.signature);
    for (const std::string& alias : r.aliases) add(alias);
    add(r.error_code);
  });
  return codes.words;
}

bool Matcher::holds_code(std::size_t record, std::string_view line) const {
  thread_local std::string lower;
  ascii_lower(line, lower);
  return std::any_of(codes(record).begin(), codes(record).end(), [](const std::string& code) {
    return find_word(lower, code) != std::string::npos;
  });
}

const NearIndex& Matcher::near_index() const {
  std::call_once(near_built_, [this] {
    std::vector<NearPhrases> phrases;
    for (const MatchRecord& record : records_) {
      NearPhrases entry;
      entry.phrases.push_back(record.signature);
      entry.phrases.insert(entry.phrases.end(), record.aliases.begin(), record.aliases.end());
      if (!record.error_code.empty()) entry.phrases.push_back(record.error_code);
      std::string tags;
      for (const std::string& tag : record.tags) tags += tag + " ";
      if (!tags.empty()) entry.phrases.push_back(tags);
      phrases.push_back(std::move(entry));
    }
    near_ = std::make_unique<NearIndex>(phrases);
  });
  return *near_;
}

std::vector<Hit> Matcher::near_hits(const std::vector<NearLine>& lines, std::size_t top) const {
  BestHits best;
  for (const NearLine& line : lines) {
    if (line.kind == LineKind::context) continue;
    for (const NearHit& near : near_index().match(line.text)) {
      const Rank rank{near.score,           line.kind == LineKind::plain ? 0 : 1, 0, 0, 0,
                      fix_rate_[near.entry]};  // error_line: the line has an error word
      Hit hit{near.entry, rank, false, line.line_number, {}, 0, 0, 1, line.kind, true};
      best.offer(*this, std::move(hit), line.text);
    }
  }
  return best.ranked(*this, top, 0);
}

Matcher::~Matcher() = default;

std::vector<std::pair<std::string, std::string>> Matcher::regex_errors() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    if (!index_->error(2 * i).empty()) out.emplace_back(records_[i].id, index_->error(2 * i));
  }
  return out;
}

bool Matcher::before(const Hit& a, const Hit& b) const {
  if (a.rank != b.rank) return a.rank > b.rank;
  if (a.record != b.record) {
    const std::string& id_a = records_[a.record].id;
    const std::string& id_b = records_[b.record].id;
    return id_a != id_b ? id_a < id_b : a.record < b.record;
  }
  return a.line_number < b.line_number;
}

bool Matcher::scan_piece(std::string_view piece, std::size_t line_number, bool after_frame,
                         bool log, BestHits& best, const RegexIndex& index,
                         RegexIndex::Scratch& scratch) const {
  thread_local std::string buffer;
  const std::string_view line = normalized_line(trim(piece), buffer);
  if (line.empty()) return false;
  const std::vector<std::size_t>& candidates = index.candidates(line, scratch);
  if ((scratch.marked() || !log) && best.near_lines.size() < kNearLines) {
    const LineKind kind = line_kind(line, after_frame, scratch.marked());
    if (kind != LineKind::context) best.keep_near(line_number, line, kind);
  }
  offer_hits(line, line_number, after_frame, candidates, best, index, scratch);
  return is_python_frame(line);
}

void Matcher::offer_hits(std::string_view line, std::size_t line_number, bool after_frame,
                         const std::vector<std::size_t>& candidates, BestHits& best,
                         const RegexIndex& index, RegexIndex::Scratch& scratch) const {
  if (candidates.empty()) return;
  const int error_line = scratch.marked() ? 1 : 0;  // the error words are the index's markers
  std::optional<LineKind> kind;
  std::size_t line_code_points = 0;
  // Offers the hit of a pattern, if it matches; returns its coverage (-1: no hit).
  const auto offer = [&](std::size_t pattern) {
    const std::optional<std::string_view> span = index.match(pattern, line, scratch);
    if (!span || span->empty()) return -1;
    if (line_code_points == 0) line_code_points = code_points(line);
    if (!kind) kind = line_kind(line, after_frame, error_line == 1);
    const std::size_t record = pattern / 2;
    const bool by_signature = pattern % 2 == 1;
    const int specificity =
        by_signature ? signature_specificity_[record] : hit_specificity(record, *span);
    const int coverage = coverage_permille(code_points(*span), line_code_points);
    int score = hit_score(by_signature, specificity, line_code_points, *kind);
    if (!by_signature && !codes(record).empty() && holds_code(record, line)) score += kCodeBonus;
    const Rank rank{score,       error_line,           coverage,
                    specificity, by_signature ? 1 : 0, fix_rate_[record]};
    const std::size_t begin = static_cast<std::size_t>(span->data() - line.data());
    best.offer(*this,
               Hit{record,
                   rank,
                   by_signature,
                   line_number,
                   {},
                   begin,
                   begin + span->size(),
                   1,
                   *kind,
                   false},
               line);
    return rank.coverage;
  };
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::size_t pattern = candidates[c];
    if (pattern % 2 == 1 || c + 1 == candidates.size() || candidates[c + 1] != pattern + 1) {
      offer(pattern);
      continue;
    }
    // Both patterns of the record: its signature first. When that covers the whole line, the
    // regex's hit cannot rank higher unless its specificity is higher (its literal text is
    // within the line, so it is not), and is not sought (an error message that is exactly a
    // signature then costs no regex search).
    const std::size_t record = pattern / 2;
    ++c;
    if (offer(pattern + 1) < 1000 || regex_specificity_[record] > signature_specificity_[record])
      offer(pattern);
  }
}

// Matches the complete lines of `text`, numbering them from `first_line`.
bool Matcher::scan_lines(std::string_view text, std::size_t first_line, bool log, bool continued,
                         bool after_frame, BestHits& best, Scratch& scratch) const {
  std::size_t line_number = first_line;
  thread_local std::string buffer;
  for (bool first = true; !text.empty(); first = false) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (log && !(first && continued) && line.size() <= kMaxLineBytes) {
      // A line that declares a low severity and has no error word (low_severity_line), found
      // with the low index's candidates in one pass.
      const std::string_view trimmed = trim(line);
      if (declares_low_severity(trimmed)) {
        const std::string_view normal = normalized_line(trimmed, buffer);
        const std::vector<std::size_t>& candidates = low_index_->candidates(normal, scratch.low);
        if (!scratch.low.marked()) {
          offer_hits(normal, line_number, false, candidates, best, *low_index_, scratch.low);
          after_frame = false;
          ++best.low_lines;
          ++line_number;
          continue;
        }
      }
    }
    for (; line.size() > kMaxLineBytes; line.remove_prefix(kMaxLineBytes)) {
      scan_piece(line.substr(0, kMaxLineBytes), line_number, after_frame, log, best, *index_,
                 scratch.all);
      after_frame = false;
    }
    after_frame = scan_piece(line, line_number, after_frame, log, best, *index_, scratch.all);
    ++line_number;
  }
  return after_frame;
}

std::vector<Hit> Matcher::match_line(std::string_view line) const {
  BestHits best;
  RegexIndex::Scratch scratch;
  for (; line.size() > kMaxLineBytes; line.remove_prefix(kMaxLineBytes))
    scan_piece(line.substr(0, kMaxLineBytes), 1, false, false, best, *index_, scratch);
  scan_piece(line, 1, false, false, best, *index_, scratch);
  return best.ranked(*this, std::numeric_limits<std::size_t>::max(),
                     std::numeric_limits<int>::min());
}

std::vector<Hit> Matcher::match_text(std::string_view text, std::size_t top, int min_score) const {
  LogScan scan(*this);
  scan.feed(text);
  return scan.finish(top, min_score);
}

}  // namespace kbc
