// `kbc match [--root DIR | --bundle kb.json] [--top N] [--json] [--all-lines] [--no-cache]
//            [TEXT | -]`
//
// Finds the entries that explain an error message (TEXT) or the errors in a log read from
// standard input, ranked as match/rank.h says, and shows each with its best workaround and the
// dead ends to avoid. The entries come from a knowledge base's YAML (schema-valid entries; no
// lint) or from a published bundle, for consumers who have no YAML. Like grep, it exits 0 when
// something matched and 1 when nothing did; 2 is a usage or tool error.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <optional>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "base/timings.h"
#include "base/utf8.h"
#include "cli/command.h"
#include "cli/diagnostic_output.h"
#include "cli/entry_source.h"
#include "match/hit_json.h"
#include "match/log_scan.h"
#include "match/matcher.h"
#include "pipeline.h"

namespace kbc {
namespace {

constexpr std::size_t kShownLineCodePoints = 160;  // longer lines are cut around the match

std::size_t checked_top(const Arguments& arguments) {
  const std::string text = arguments.value("--top");
  std::size_t top = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), top);
  if (error != std::errc() || end != text.data() + text.size() || top == 0)
    throw ToolError("kbc match: --top must be a whole number from 1, not '" + text + "'");
  return top;
}

int checked_min_score(const Arguments& arguments) {
  const std::string text = arguments.value("--min-score");
  int score = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), score);
  if (error != std::errc() || end != text.data() + text.size())
    throw ToolError("kbc match: --min-score must be a whole number, not '" + text + "'");
  return score;
}

std::vector<MatchRecord> bundle_records(const std::string& path) {
  return read_bundle_match_records("match", path);
}

// The records of a knowledge base's schema-valid entries, and its benign files (kbc.yaml).
std::vector<MatchRecord> knowledge_base_records(const std::string& root, bool cache,
                                                std::vector<BenignFile>& benign) {
  const KnowledgeBase kb = load_lookup_entries("match", root, cache);
  benign = kb.benign;
  return match_records(kb);
}

// The line, cut to about kShownLineCodePoints code points around the match when longer, and
// under it a line of carets under the match. The line comes from the text matched, a log maybe:
// its control characters are shown as '?' (printable_utf8), and the carets count the columns a
// terminal gives each character (two for Chinese), its tabs kept.
struct ShownLine {
  std::string text;
  std::string carets;
};

ShownLine shown_line(const Hit& hit) {
  const std::string_view line = hit.line;
  const auto boundary = [&](std::size_t i) {
    return std::min(code_point_end(line, i), line.size());
  };
  std::size_t begin = 0, end = line.size();
  if (code_points(line) > kShownLineCodePoints) {
    begin = boundary(hit.begin > 40 ? hit.begin - 40 : 0);
    end = begin;
    for (std::size_t n = 0; end < line.size() && n < kShownLineCodePoints; ++n)
      end = boundary(end + 1);
  }
  const std::size_t from = std::clamp(hit.begin, begin, end);
  const std::size_t to = std::clamp(hit.end, from, end);
  const std::string before =
      (begin > 0 ? "..." : "") + printable_utf8(line.substr(begin, from - begin));
  const std::string match = printable_utf8(line.substr(from, to - from));
  const std::string after =
      printable_utf8(line.substr(to, end - to)) + (end < line.size() ? "..." : "");
  return {
      before + match + after,
      blank_width_of(before) + std::string(std::max<std::size_t>(1, display_width(match)), '^')};
}

// `text` with every line after the first indented by `indent`.
std::string indented(std::string_view text, const std::string& indent) {
  std::string out;
  for (const char c : trim(text)) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

void print_hit(const Matcher& matcher, const Hit& hit, std::size_t position) {
  const MatchRecord& record = matcher.records()[hit.record];
  std::cout << position << ". " << record.id << "  (" << (hit.near ? "near match, " : "")
            << "score " << hit.rank.score << ", fix rate " << percent_text(record.fix_success_rate)
            << ")\n";
  std::cout << "   signature  " << indented(record.signature, "              ") << "\n";
  std::string where = "line " + std::to_string(hit.line_number);
  where.resize(std::max<std::size_t>(where.size() + 1, 11), ' ');
  const ShownLine shown = shown_line(hit);
  std::cout << "   " << where << shown.text;
  if (hit.lines > 1) std::cout << "  (and " << hit.lines - 1 << " more lines)";
  if (!hit.near) std::cout << "\n   " << std::string(where.size(), ' ') << shown.carets;
  std::cout << "\n";
  const auto print_fix = [](const char* label, const MatchAction& fix) {
    std::cout << label << indented(fix.action, "              ") << " (" << percent_text(fix.rate)
              << " success)\n";
    if (!is_blank(fix.condition))
      std::cout << "              when " << indented(fix.condition, "                   ") << "\n";
    if (!is_blank(fix.how))
      std::cout << "                " << indented(fix.how, "                ") << "\n";
  };
  if (record.best_workaround) print_fix("   try        ", *record.best_workaround);
  if (record.next_workaround) print_fix("   or         ", *record.next_workaround);
  for (std::size_t i = 0; i < record.dead_ends.size(); ++i) {
    const MatchAction& dead_end = record.dead_ends[i];
    std::cout << (i == 0 ? "   avoid      " : "              ")
              << indented(dead_end.action, "              ") << " (fails "
              << percent_text(dead_end.rate) << ")\n";
  }
}

void print_text(const Matcher& matcher, const std::vector<Hit>& hits, const LogScan& scan) {
  if (!hits.empty() && hits[0].near) {
    std::cout << "no entry matches well enough; near matches (entries whose words the text "
                 "holds):\n\n";
  }
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (i > 0) std::cout << "\n";
    print_hit(matcher, hits[i], i + 1);
  }
  if (!hits.empty()) return;
  const std::size_t lines = scan.lines();
  std::cout << "no entry matches (" << lines << (lines == 1 ? " line, " : " lines, ")
            << matcher.records().size() << " entries)\n";
  if (const std::size_t low = scan.low_lines(); low > 0) {
    std::cout << low << (low == 1 ? " line" : " lines")
              << " marked INFO, DEBUG or TRACE without an error word met only the entries of such "
                 "lines; --all-lines matches every line\n";
  }
}

void print_json(const Matcher& matcher, const std::vector<Hit>& hits, std::size_t lines,
                int min_score) {
  // A log may hold bytes that are not UTF-8: they are written as U+FFFD.
  std::cout << hits_json(matcher, hits, lines, min_score)
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
}

// Up to `most` bytes of standard input into `text`; true when that is all of it.
bool read_stdin_start(std::size_t most, std::string& text) {
  if (is_terminal(STDIN_FILENO))
    std::cerr << "kbc match: reading the log from standard input (end it with Ctrl-D)\n";
  text.resize(most + 1);
  std::size_t size = 0;
  for (std::size_t n; size < text.size() &&
                      (n = std::fread(text.data() + size, 1, text.size() - size, stdin)) > 0;)
    size += n;
  if (std::ferror(stdin)) throw ToolError("kbc match: cannot read standard input");
  text.resize(size);
  return size <= most;
}

// The rest of standard input, in blocks, through `scan`.
void scan_stdin(LogScan& scan) {
  std::string block(1 << 20, '\0');
  for (std::size_t n; (n = std::fread(block.data(), 1, block.size(), stdin)) > 0;)
    scan.feed(std::string_view(block).substr(0, n));
  if (std::ferror(stdin)) throw ToolError("kbc match: cannot read standard input");
}

}  // namespace

int run_match(const Arguments& arguments) {
  if (arguments.positional.size() > 1)
    throw ToolError("kbc match: give one TEXT (quote it), or - to read standard input");
  if (arguments.values.count("--root") && arguments.values.count("--bundle"))
    throw ToolError("kbc match: give --root or --bundle, not both");
  const std::size_t top = checked_top(arguments);
  const int min_score = checked_min_score(arguments);
  const bool from_bundle = arguments.values.count("--bundle") > 0;
  const bool cache = !arguments.has("--no-cache");
  // A text of up to kPlannedBytes is matched by a matcher that compiles only the regexes that
  // may match it, whose plans the user's cache keeps (regex_plans.h); a longer log meets every
  // regex, compiled once.
  constexpr std::size_t kPlannedBytes = 64 << 10;
  const bool from_stdin = arguments.positional.empty() || arguments.positional[0] == "-";
  std::string text = from_stdin ? "" : arguments.positional[0];
  const bool whole = from_stdin ? read_stdin_start(kPlannedBytes, text) : true;
  const bool planned = whole && text.size() <= kPlannedBytes;
  const std::optional<std::string> plans_path =
      cache && planned ? user_regex_plans_path() : std::nullopt;
  RegexPlans& plans =
      kept_until_exit<RegexPlans>(plans_path ? RegexPlans::read(*plans_path) : RegexPlans());
  std::optional<Phase> phase("load");
  auto& benign_files = kept_until_exit<std::vector<BenignFile>>();
  std::vector<MatchRecord> records =
      from_bundle ? bundle_records(arguments.values.at("--bundle"))
                  : knowledge_base_records(arguments.value("--root"), cache, benign_files);
  phase.emplace("index");
  const auto& benign = kept_until_exit<std::vector<BenignLine>>(benign_lines_with(benign_files));
  const Matcher& matcher = kept_until_exit<Matcher>(
      std::move(records), MatchOptions{.benign = &benign, .plans = planned ? &plans : nullptr});
  if (plans_path && plans.changed()) plans.write(*plans_path);
  phase.emplace("scan");
  prepare_allocator_for_scan();
  if (const std::size_t bad = matcher.regex_errors().size(); bad > 0 && !from_bundle) {
    std::cerr << "kbc match: " << bad << (bad == 1 ? " entry has a regex" : " entries have regexes")
              << " that RE2 does not accept (kbc lint says which); they match by signature only\n";
  }
  LogScan scan(matcher, {.all_lines = arguments.has("--all-lines")});
  scan.feed(text);
  if (!whole) scan_stdin(scan);
  const std::vector<Hit> hits = scan.finish(top, min_score);
  phase.reset();
  if (arguments.has("--json")) {
    print_json(matcher, hits, scan.lines(), min_score);
  } else {
    print_text(matcher, hits, scan);
  }
  return hits.empty() || hits[0].near ? 1 : 0;
}

}  // namespace kbc
