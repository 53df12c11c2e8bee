// `kbc stats [--root DIR] [--format text|json] [--today YYYY-MM-DD] [--no-cache]`
//
// A report, not a check: it loads and validates the entries (no lint rules) and prints the
// figures of stats/kb_stats.h. Entries with problems are counted, never a reason to fail, so the
// exit status is 0 unless kbc itself fails or is misused (2).
#include <chrono>
#include <iostream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "cli/command.h"
#include "pipeline.h"
#include "stats/kb_stats.h"
#include "stats/stats_text.h"

namespace kbc {

int run_stats(const Arguments& arguments) {
  const std::chrono::sys_days today = today_option(arguments, "kbc stats");
  const std::string root = arguments.value("--root");
  const RealFileSystem fs;
  Diagnostics ignored;  // kbc lint reports them; the figures count the entries they concern
  const KnowledgeBase kb = load_entries(fs, root, !arguments.has("--no-cache"), ignored);
  const nlohmann::ordered_json stats = knowledge_base_stats(kb, today);
  if (arguments.value("--format") == "json")
    std::cout << stats.dump(2) << "\n";
  else
    std::cout << format_stats_text(stats);
  return 0;
}

}  // namespace kbc
