// `kbc serve [--root DIR] [--port N] [--no-cache] [--color WHEN]`
//
// Binds 127.0.0.1, builds the site in memory and serves it (serve/dev_server.h), then watches
// the sources (serve/source_watcher.h) and builds again as they change, until SIGINT or SIGTERM.
// The address goes to stdout once the site is served, so a script can read it; the findings of
// each build go to stderr, as `kbc build` prints them.
#include <signal.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>

#include "base/diagnostic.h"
#include "cli/command.h"
#include "cli/diagnostic_output.h"
#include "pipeline.h"
#include "serve/dev_server.h"
#include "serve/source_watcher.h"

namespace kbc {
namespace {

using std::chrono::milliseconds;

constexpr long kPollMilliseconds = 300;
constexpr milliseconds kSettle{60};  // sources unchanged this long before a build

struct ServeBuild {
  SiteUpdate update;         // for the server; its findings with their source lines
  Diagnostics printed;       // for the terminal
  std::size_t left_out = 0;  // files with errors, whose entries the tree leaves out
  milliseconds took{0};
};

int parse_port(const std::string& text) {
  int port = -1;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, port);
  if (text.empty() || error != std::errc() || stop != end || port < 0 || port > 65535) {
    throw ToolError("kbc serve: --port must be a number from 0 to 65535 (0: any free port), not '" +
                    text + "'");
  }
  return port;
}

// As `kbc build --keep-going`, into memory, for a site published at `base_url`. A failure of
// the tool is caught and reported like the findings: a bad edit never takes the server down.
ServeBuild build_site(const std::string& root, const std::string& base_url, bool cache) {
  ServeBuild out;
  const auto start = std::chrono::steady_clock::now();
  try {
    const RealFileSystem fs;
    const CheckedKnowledgeBase checked = check_knowledge_base(fs, root, {cache, {}});
    SiteConfig config = checked.config;
    config.base_url = base_url;
    const std::set<std::string> failed = paths_with_errors(checked.diagnostics);
    // The records of unchanged entries and the paste box's breadth figures of unchanged regexes
    // come from the last build's.
    std::optional<ParseCache> built_before;
    if (cache) built_before.emplace(root, entry_schema_text(checked.kb.languages));
    EmitOptions options;
    options.cache = built_before ? &*built_before : nullptr;
    BuiltOutput built = emit_outputs(checked.kb, failed, TemplateSet(fs, root), config, options);
    // The pages show each finding with its source line; the terminal, as kbc build, only when
    // it is a terminal. Broken links are in the output, which has no source to show.
    Diagnostics shown = checked.diagnostics;
    attach_source_lines(shown, fs, root);
    out.printed = is_terminal(STDERR_FILENO) ? shown : checked.diagnostics;
    for (Diagnostics* list : {&shown, &out.printed})
      list->insert(list->end(), built.problems.begin(), built.problems.end());
    out.update.diagnostics = std::move(shown);
    out.update.tree = std::make_shared<const OutputTree>(std::move(built.tree));
    out.update.entries = built.entries;
    for (const Language& language : checked.kb.languages)
      out.update.languages.push_back(language.code);
    out.left_out = failed.size();
  } catch (const ToolError& e) {
    out.update.failure = e.what();
  } catch (const std::exception& e) {
    out.update.failure = std::string("internal error: ") + e.what();
  }
  out.took = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
  return out;
}

std::string count(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The findings, then one line on what is served now.
void report(const ServeBuild& build, const BuildStatus& status, bool color) {
  std::cerr << format_text_diagnostics(build.printed, color);
  std::cerr << "kbc serve: build " << status.generation << ": ";
  const int errors = count_severity(build.printed, Severity::kError);
  if (!build.update.failure.empty()) {
    std::cerr << build.update.failure << "; still serving build " << status.site_generation;
  } else if (errors == 0) {
    std::cerr << count(build.update.entries, "entry", "entries") << ", "
              << count(count_severity(build.printed, Severity::kWarning), "warning", "warnings")
              << " in " << build.took.count() << " ms";
  } else {  // the entries with errors are left out, their pages show the errors
    std::cerr << count(errors, "error", "errors") << "; serving the "
              << count(build.update.entries, "entry", "entries") << " without errors ("
              << count(build.left_out, "file", "files") << " left out)";
  }
  std::cerr << std::endl;
}

std::string describe(const std::vector<std::string>& paths) {
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < 3; ++i) out += (i ? ", " : "") + paths[i];
  if (paths.size() > 3) out += " and " + std::to_string(paths.size() - 3) + " more";
  return out;
}

// Blocks SIGINT and SIGTERM in this thread and so in every thread started after it (the
// server's, the build's workers): the watch loop takes them with sigtimedwait, where stopping
// cleanly is ordinary code rather than a signal handler.
sigset_t block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

// True when a stop signal arrived within the poll interval.
bool stop_requested(const sigset_t& signals) {
  const timespec interval{0, kPollMilliseconds * 1'000'000};
  const int signal = sigtimedwait(&signals, nullptr, &interval);
  return signal == SIGINT || signal == SIGTERM;
}

}  // namespace

int run_serve(const Arguments& arguments) {
  if (!arguments.positional.empty())
    throw ToolError("kbc serve: unexpected argument " + arguments.positional[0]);
  const std::string root = arguments.value("--root");
  const int port = parse_port(arguments.value("--port"));
  const bool cache = !arguments.has("--no-cache");
  const bool color = use_color_on(*parse_color_mode(arguments.value("--color")), STDERR_FILENO);
  const sigset_t signals = block_stop_signals();
  ::signal(SIGPIPE, SIG_IGN);  // a closed connection or stdout is an error to handle, not death

  DevServer server;
  server.bind(port);
  SourceWatcher watcher(root);
  const ServeBuild first = build_site(root, server.url(), cache);
  if (!first.update.tree) throw ToolError("kbc serve: " + first.update.failure);
  report(first, server.publish(first.update), color);
  server.start();
  std::cout << "serving " << server.url() << " (rebuilds when entries/, templates/ or kbc.yaml "
            << "change; Ctrl+C stops)" << std::endl;
  while (!stop_requested(signals)) {
    const std::vector<std::string> changed = watcher.changes(kSettle);
    if (changed.empty()) continue;
    std::cerr << "kbc serve: " << describe(changed) << " changed" << std::endl;
    const ServeBuild build = build_site(root, server.url(), cache);
    report(build, server.publish(build.update), color);
  }
  server.stop();
  std::cerr << "kbc serve: stopped\n";
  return 0;
}

}  // namespace kbc
