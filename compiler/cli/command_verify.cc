// `kbc verify [ID...] [--root DIR] [--capture] [--format text|json] [--today YYYY-MM-DD]`
//
// Runs the recipes of the entries (the `reproduce` blocks) in bubblewrap's sandbox
// (verify/sandbox.h), checks each one's output against its regex, and records what it found in
// verify.lock (model/evidence.h), one record per entry. A recipe whose needs are not met here (a
// GPU, a Debian package, a Python module) is skipped, saying which, and its record is kept.
#include <re2/re2.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <map>
#include <utility>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "cli/command.h"
#include "cli/diagnostic_output.h"
#include "load/yaml_loader.h"
#include "match/regex_index.h"
#include "model/recipe.h"
#include "pipeline.h"
#include "verify/capture.h"
#include "verify/environment.h"
#include "verify/sandbox.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

constexpr std::size_t kTailLines = 20;
constexpr std::size_t kLongestKeptLine = 1000;

struct Outcome {
  const Entry* entry = nullptr;
  std::string status;  // reproduced, failed, skipped or stale
  std::string reason;
  std::string line;
  std::vector<std::string> tail;
  double seconds = 0;
  bool captured = false;
};

// An outcome decided before the recipe ran (or without running it).
Outcome outcome_of(const Entry* entry, std::string status, std::string reason) {
  Outcome outcome;
  outcome.entry = entry;
  outcome.status = std::move(status);
  outcome.reason = std::move(reason);
  return outcome;
}

std::string cut(std::string_view line, std::size_t limit) {
  return line.size() <= limit ? std::string(line) : printable_utf8(line.substr(0, limit)) + "…";
}

// What this machine offers recipes, found out once each.
class Machine {
 public:
  explicit Machine(std::string path) : path_(std::move(path)) {}

  const std::string& bwrap() {
    if (bwrap_.empty()) bwrap_ = find_program("bwrap");
    if (bwrap_.empty())
      throw ToolError(
          "kbc verify runs recipes in bubblewrap's sandbox, and there is no bwrap on PATH: "
          "install the Debian package bubblewrap");
    return bwrap_;
  }
  const std::optional<GpuInfo>& gpu() {
    if (!gpu_probed_) gpu_ = nvidia_gpu();
    gpu_probed_ = true;
    return gpu_;
  }
  std::optional<std::string> package(const std::string& name) {
    if (!packages_.count(name)) packages_[name] = debian_package_version(name);
    return packages_[name];
  }
  // The version of each module python3 imports in the sandbox ("" when it has none), or the
  // reason it cannot.
  struct Module {
    bool present = false;
    std::string version_or_reason;
  };
  const Module& module(const std::string& name) {
    if (!modules_.count(name)) probe_module(name);
    return modules_[name];
  }
  const std::string& python_version() {
    if (python_.empty()) module("sys");
    return python_;
  }
  const std::string& path() const { return path_; }
  // The OS, kernel and machine, read once.
  const ordered_json& environment() {
    if (environment_.empty()) environment_ = machine_environment();
    return environment_;
  }

 private:
  void probe_module(const std::string& name) {
    SandboxRequest request;
    request.bwrap = bwrap();
    request.command = {"python3", "/recipe/probe.py", name};
    request.script_path = "/recipe/probe.py";
    request.script =
        "import importlib, platform, sys\n"
        "print('kbc-python\\t' + platform.python_version())\n"
        "try:\n"
        "    m = importlib.import_module(sys.argv[1])\n"
        "    print('kbc-module\\t' + str(getattr(m, '__version__', '')))\n"
        "except Exception as e:\n"
        "    print('kbc-missing\\t' + type(e).__name__ + ': ' + str(e).split('\\n')[0])\n";
    request.path_variable = path_;
    request.limits.timeout_s = 60;
    Module module{false, "python3 did not run"};
    request.on_line = [&](std::string_view line) {
      if (line.starts_with("kbc-python\t")) python_ = std::string(line.substr(11));
      if (line.starts_with("kbc-module\t")) module = {true, std::string(line.substr(11))};
      if (line.starts_with("kbc-missing\t")) module = {false, std::string(line.substr(12))};
    };
    const SandboxResult result = run_in_sandbox(request);
    if (result.ending == SandboxResult::Ending::kNotStarted)
      throw ToolError("kbc verify: " + describe(result, request.limits));
    modules_[name] = module;
  }

  std::string path_;
  std::string bwrap_;
  bool gpu_probed_ = false;
  std::optional<GpuInfo> gpu_;
  std::map<std::string, std::optional<std::string>> packages_;
  std::map<std::string, Module> modules_;
  std::string python_;
  ordered_json environment_;
};

// Why the recipe cannot run here ("" when it can), filling in the versions it found.
std::string unmet_needs(const Recipe& recipe, Machine& machine, ordered_json& environment) {
  std::vector<std::string> missing;
  if (recipe.gpu) {
    if (const auto& gpu = machine.gpu())
      environment["gpu"] = {{"model", gpu->model}, {"driver", gpu->driver}};
    else
      return "needs a GPU (nvidia-smi found none)";
  }
  ordered_json packages = ordered_json::object();
  for (const auto& package : recipe.packages) {
    if (const auto version = machine.package(package))
      packages[package] = *version;
    else
      missing.push_back(package);
  }
  if (!missing.empty())
    return "needs the Debian package" + std::string(missing.size() > 1 ? "s " : " ") +
           joined_list(missing, "and") + ", not installed here";
  if (!packages.empty()) environment["packages"] = packages;
  if (recipe.language == "python" || !recipe.python_modules.empty()) {
    ordered_json modules = ordered_json::object();
    for (const auto& name : recipe.python_modules) {
      const auto& module = machine.module(name);
      if (!module.present)
        return "needs the Python module " + name + " (" + module.version_or_reason + ")";
      modules[name] = module.version_or_reason;
    }
    const std::string& python = machine.python_version();
    if (python.empty()) return "needs python3, which the sandbox cannot run";
    environment["python"] = python;
    if (!modules.empty()) environment["python_modules"] = modules;
  }
  return {};
}

Outcome run_recipe(const Entry& entry, const Recipe& recipe, Machine& machine,
                   ordered_json environment, const std::string& today, EvidenceLock& lock) {
  Outcome outcome;
  outcome.entry = &entry;
  const RE2 regex(recipe.expect, entry_regex_options());
  if (!regex.ok()) {
    outcome.status = "failed";
    outcome.reason = "its regex does not compile: " + regex.error();
    return outcome;
  }
  SandboxRequest request;
  request.bwrap = machine.bwrap();
  const bool python = recipe.language == "python";
  request.script_path = python ? "/recipe/recipe.py" : "/recipe/recipe.sh";
  request.command = {python ? "python3" : "sh", request.script_path};
  request.script = recipe.script;
  request.gpu = recipe.gpu;
  request.path_variable = machine.path();
  request.limits.timeout_s = recipe.timeout_s;
  // CUDA reserves far more address space than it uses: a GPU recipe gets no RLIMIT_AS, and
  // more memory in all (pinned buffers, the CUDA libraries).
  if (recipe.gpu) {
    request.limits.memory_bytes = 0;
    request.limits.total_memory_bytes = 16ULL << 30;
  }
  std::vector<std::string> tail;
  request.on_line = [&](std::string_view line) {
    // The last line that matches: a Python traceback quotes the source line that raised the
    // error (`raise AssertionError("...")`) before the error itself.
    if (const std::string_view text = trim(line); RE2::PartialMatch(text, regex))
      outcome.line = cut(text, kLongestKeptLine);
    tail.push_back(cut(line, 300));
    if (tail.size() > kTailLines) tail.erase(tail.begin());
  };
  const SandboxResult result = run_in_sandbox(request);
  if (result.ending == SandboxResult::Ending::kNotStarted)
    throw ToolError("kbc verify: " + describe(result, request.limits));
  outcome.seconds = result.seconds;
  outcome.tail = tail;
  Evidence evidence;
  evidence.recipe_digest = recipe.digest;
  evidence.date = today;
  evidence.environment = std::move(environment);
  if (!outcome.line.empty()) {
    outcome.status = "reproduced";
    evidence.line = outcome.line;
  } else {
    outcome.status = "failed";
    outcome.reason = "no line of its output matches " +
                     std::string(recipe.expect_is_regex ? "the entry's regex" : "expect") +
                     "; the recipe " + describe(result, request.limits);
    evidence.reason = outcome.reason;
    evidence.output_tail = tail;
  }
  evidence.status = outcome.status;
  lock[entry.id()] = std::move(evidence);
  return outcome;
}

void print_text(const std::vector<Outcome>& outcomes, double seconds, bool lock_written) {
  std::map<std::string, std::size_t> counts;
  for (const Outcome& outcome : outcomes) {
    ++counts[outcome.status];
    std::cout << outcome.status << std::string(11 - outcome.status.size(), ' ')
              << outcome.entry->id();
    if (outcome.seconds > 0) {
      char time[32];
      std::snprintf(time, sizeof time, " (%.1f s)", outcome.seconds);
      std::cout << time;
    }
    if (!outcome.reason.empty()) std::cout << ": " << outcome.reason;
    std::cout << "\n";
    if (!outcome.line.empty())
      std::cout << "           " << printable_utf8(outcome.line)
                << (outcome.captured ? "  [added to samples]" : "") << "\n";
    if (outcome.status == "failed")
      for (const auto& line : outcome.tail)
        std::cout << "           | " << printable_utf8(line) << "\n";
  }
  char time[32];
  std::snprintf(time, sizeof time, "%.1f s", seconds);
  std::cout << counts["reproduced"] << " reproduced, " << counts["failed"] << " failed, "
            << counts["skipped"] << " skipped, " << counts["stale"] << " stale in " << time
            << (lock_written ? "; evidence written to verify.lock" : "") << "\n";
}

void print_json(const std::vector<Outcome>& outcomes, double seconds, bool lock_written) {
  ordered_json results = ordered_json::array();
  std::map<std::string, std::size_t> counts;
  for (const Outcome& outcome : outcomes) {
    ++counts[outcome.status];
    ordered_json result = {{"id", outcome.entry->id()},   {"path", outcome.entry->path},
                           {"status", outcome.status},    {"reason", outcome.reason},
                           {"line", outcome.line},        {"seconds", outcome.seconds},
                           {"captured", outcome.captured}};
    if (outcome.status == "failed") result["output_tail"] = outcome.tail;
    results.push_back(std::move(result));
  }
  ordered_json summary = ordered_json::object();
  for (const char* status : {"reproduced", "failed", "skipped", "stale"})
    summary[status] = counts[status];
  summary["seconds"] = seconds;
  summary["lock_written"] = lock_written;
  std::cout << ordered_json{{"kbc_verify", 1}, {"results", results}, {"summary", summary}}.dump(
                   2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
}

std::vector<const Entry*> selected_entries(const KnowledgeBase& kb,
                                           const std::vector<std::string>& ids) {
  std::vector<const Entry*> selected;
  if (ids.empty()) {
    for (const Entry& entry : kb.entries)
      if (entry.shape_ok && entry.find("/reproduce")) selected.push_back(&entry);
  } else {
    std::vector<std::string> known;
    for (const Entry& entry : kb.entries) known.push_back(entry.id());
    for (const std::string& id : ids) {
      const Entry* entry = kb.find(id);
      if (!entry) {
        const auto near = closest_match(id, known);
        throw ToolError("kbc verify: no entry " + id +
                        (near ? " (did you mean " + *near + "?)" : std::string()));
      }
      if (!entry->shape_ok)
        throw ToolError("kbc verify: " + entry->path + " has errors: run kbc lint");
      if (!entry->find("/reproduce"))
        throw ToolError("kbc verify: " + id + " has no reproduce block");
      selected.push_back(entry);
    }
  }
  std::sort(selected.begin(), selected.end(),
            [](const Entry* a, const Entry* b) { return a->id() < b->id(); });
  selected.erase(std::unique(selected.begin(), selected.end()), selected.end());
  return selected;
}

// Runs the recipes of `selected` in order, recording their evidence in `lock`.
std::vector<Outcome> run_recipes(const KnowledgeBase& kb, const std::vector<const Entry*>& selected,
                                 const std::string& today, EvidenceLock& lock) {
  const char* path = std::getenv("PATH");
  Machine machine(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::vector<Outcome> outcomes;
  for (const Entry* entry : selected) {
    RecipeProblem problem;
    const auto recipe = read_recipe(*entry, kb.recipe_files, &problem);
    if (!recipe) {
      outcomes.push_back(outcome_of(entry, "failed", "the recipe cannot run: " + problem.message));
      continue;
    }
    ordered_json environment = machine.environment();
    const std::string unmet = unmet_needs(*recipe, machine, environment);
    if (unmet.empty()) {
      outcomes.push_back(run_recipe(*entry, *recipe, machine, environment, today, lock));
      continue;
    }
    const auto recorded = lock.find(entry->id());
    if (recorded != lock.end() && recorded->second.recipe_digest != recipe->digest)
      outcomes.push_back(outcome_of(entry, "stale",
                                    "the recipe changed since its evidence of " +
                                        recorded->second.date + ", and it cannot run here: it " +
                                        unmet));
    else
      outcomes.push_back(outcome_of(entry, "skipped", unmet));
  }
  return outcomes;
}

// Writes verify.lock when its text changes; true when it did.
bool write_lock(const FileSystem& fs, const std::string& root, const EvidenceLock& lock) {
  const std::string path = join_path(root, kEvidenceFile);
  const std::string text = evidence_lock_text(lock);
  const bool exists = fs.size(path).has_value();
  if (exists ? fs.read(path) == text : lock.empty()) return false;
  if (!replace_file(path, text)) throw ToolError("kbc verify: cannot write " + path);
  return true;
}

// Adds the line of each reproduced outcome to its entry's samples when it is new there.
void capture_samples(const FileSystem& fs, const std::string& root,
                     std::vector<Outcome>& outcomes) {
  for (Outcome& outcome : outcomes) {
    if (outcome.status != "reproduced") continue;
    const Entry& entry = *outcome.entry;
    bool known = outcome.line == entry.text("/signature");
    for (const auto& sample : entry.list("/samples"))
      known = known || (sample.is_string() && sample.get<std::string>() == outcome.line);
    if (known) continue;
    const std::string file = join_path(root, entry.path);
    const auto after = with_sample(fs.read(file), entry, outcome.line);
    // Written only when the file, read back, has the line as its last sample.
    Diagnostics problems;
    const auto reloaded = after ? load_yaml(entry.path, *after, problems) : std::nullopt;
    const nlohmann::json* samples =
        reloaded && problems.empty() && reloaded->value.contains("samples")
            ? &reloaded->value["samples"]
            : nullptr;
    if (!samples || !samples->is_array() || samples->empty() || samples->back() != outcome.line) {
      std::cerr << "kbc verify: " << entry.path
                << ": cannot add the line to samples (not a block-style list): add it by hand\n";
      continue;
    }
    if (!replace_file(file, *after)) throw ToolError("kbc verify: cannot write " + file);
    outcome.captured = true;
  }
}

}  // namespace

int run_verify(const Arguments& arguments) {
  const auto started = std::chrono::steady_clock::now();
  const std::string root = arguments.value("--root");
  const std::string today = date_text(today_option(arguments, "kbc verify"));
  const RealFileSystem fs;
  Diagnostics diagnostics;
  const KnowledgeBase kb = load_entries(fs, root, !arguments.has("--no-cache"), diagnostics);
  for (const Diagnostic& diagnostic : diagnostics)
    if (diagnostic.rule == "evidence-file")
      throw ToolError("kbc verify: " + diagnostic.path + ":" + std::to_string(diagnostic.at.line) +
                      ":" + std::to_string(diagnostic.at.column) + ": " + diagnostic.message);
  const std::vector<const Entry*> selected = selected_entries(kb, arguments.positional);
  EvidenceLock lock = kb.evidence;
  std::vector<Outcome> outcomes = run_recipes(kb, selected, today, lock);
  if (arguments.positional.empty()) {
    // Records of entries that no longer exist or have no recipe go.
    for (auto it = lock.begin(); it != lock.end();) {
      const Entry* entry = kb.find(it->first);
      it = entry && entry->find("/reproduce") ? std::next(it) : lock.erase(it);
    }
  }
  const bool written = write_lock(fs, root, lock);
  if (arguments.has("--capture")) capture_samples(fs, root, outcomes);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (arguments.value("--format") == "json")
    print_json(outcomes, seconds, written);
  else
    print_text(outcomes, seconds, written);
  for (const Outcome& outcome : outcomes)
    if (outcome.status == "failed") return 1;
  return 0;
}

}  // namespace kbc
