// End-to-end tests: the real kbc binary on knowledge bases made in temporary folders.
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;

namespace {

// Every file under `dir`, by relative path.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    if (item.is_regular_file()) files[fs::relative(item.path(), dir).string()] = read(item.path());
  }
  return files;
}

const std::string kBroken =
    "id: cuda/broken-entry\nsignature: 'CUDA error: broken'\nregex: 'CUDA error: broken'\n"
    "domain: cuda\ncategory: runtime_error\nroot_cause: Something.\n"
    "dead_ends:\n- action: ''\n  why_fails: It does not help.\n  fail_rate: 0.5\n"
    "workarounds: []\nverification_tier: ai_generated\nconfidence: 0.5\nfix_success_rate: 0.5\n"
    "resolvable: 'true'\nfirst_seen: '2024-01-01'\nlast_confirmed: '2024-01-01'\n"
    "last_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n";

}  // namespace

TEST_CASE("kbc --version names the version and the commit it was built from") {
  const Run version = kbc("--version");
  CHECK(version.status == 0);
  INFO(version.output);
  std::smatch parts;
  REQUIRE(std::regex_match(
      version.output, parts,
      std::regex(R"(kbc (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n)")));
  // In a git checkout, the commit is HEAD's (a source archive says "unknown").
  const Run head =
      shell("git -C " + std::string(KBC_SOURCE_DIR) + " rev-parse --short=12 HEAD 2>/dev/null");
  if (head.status == 0) CHECK(parts[2].str().substr(0, 12) == head.output.substr(0, 12));
  const Run completion = kbc("completion pwsh");
  CHECK(completion.status == 2);
  CHECK(completion.output.find("unknown shell 'pwsh'") != std::string::npos);
}

TEST_CASE("kbc lint is clean on the shipped entries") {
  const Run run = kbc("lint --root " + std::string(KBC_SOURCE_DIR));
  CHECK(run.status == 0);
  CHECK(run.output.find("0 errors, 0 warnings") != std::string::npos);
}

TEST_CASE("kbc build writes the bundle, records and pages, byte-identical from run to run") {
  TempKb kb;
  const Run first = kbc("build " + kb.arg());
  REQUIRE(first.status == 0);
  const auto files = snapshot(kb.root / "dist");
  CHECK(files.count("kb.json"));
  CHECK(files.count("api/cuda/cudnn-bn-epsilon-too-small.json"));
  CHECK(files.count("md/en/cuda/cudnn-bn-epsilon-too-small.md"));
  CHECK(files.count("md/zh/cuda/cudnn-bn-epsilon-too-small.md"));
  const auto bundle = nlohmann::json::parse(files.at("kb.json"));
  REQUIRE(bundle.size() >= 4);
  for (std::size_t i = 1; i < bundle.size(); ++i) CHECK(bundle[i - 1]["id"] < bundle[i]["id"]);
  for (const auto& record : bundle) {
    CHECK_FALSE(record.contains("samples"));
    CHECK_FALSE(record.contains("counter_samples"));
  }
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(snapshot(kb.root / "dist") == files);
}

TEST_CASE("the timings option prints the wall and CPU time of each phase, only when asked") {
  TempKb kb;
  const Run plain = kbc("build " + kb.arg());
  REQUIRE(plain.status == 0);
  CHECK(plain.output.find("timings") == std::string::npos);
  const Run timed = kbc("build --timings --no-cache " + kb.arg());  // not skipped as unchanged
  REQUIRE(timed.status == 0);
  const std::size_t report = timed.output.find(
      "timings (seconds; the peak memory so far at the phase's end):\n    wall     cpu  peak MB\n");
  REQUIRE(report != std::string::npos);
  std::size_t at = report;
  for (const char* phase : {"load", "lint", "records and Markdown", "site", "  entry pages",
                            "link check", "write output", "total"}) {
    INFO(phase);
    static const std::string kFigure = " *[0-9]+\\.[0-9]{3} +[0-9]+\\.[0-9]{3} +[1-9][0-9]*  ";
    std::smatch found;
    const std::string rest = timed.output.substr(at);
    REQUIRE(std::regex_search(rest, found, std::regex(kFigure + phase + "\n")));
    at += found.position(0) + found.length(0);
  }
  const Run lint = kbc("lint --timings " + kb.arg(), false);  // stdout only
  CHECK(lint.output.find("timings") == std::string::npos);
  const std::string lint_report = kbc("lint --timings --no-cache " + kb.arg()).output;
  CHECK(lint_report.find("  regex index\n") != std::string::npos);
}

TEST_CASE("a failed build leaves the previous output exactly as it was") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const auto before = snapshot(kb.root / "dist");
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  const Run failed = kbc("build " + kb.arg());
  CHECK(failed.status == 1);
  CHECK(failed.output.find("broken-entry.yaml:8:11: error: dead_ends[0] has a blank action") !=
        std::string::npos);
  CHECK(snapshot(kb.root / "dist") == before);
  check_no_staging_left(kb.root);
}

TEST_CASE("build --out with a trailing slash, or a link to a folder, replaces it like any folder") {
  TempKb kb;
  const std::string slash = (kb.root / "site").string() + "/";
  for (int build = 0; build < 2; ++build)
    REQUIRE(kbc("build " + kb.arg() + " --out " + slash).status == 0);
  CHECK(fs::exists(kb.root / "site/kb.json"));
  // A deploy folder reached through a link: the folder it points to is replaced, the link stays.
  fs::create_directory(kb.root / "deploy");
  fs::create_directory_symlink("deploy", kb.root / "live");
  for (int build = 0; build < 3; ++build) {
    REQUIRE(kbc("build " + kb.arg() + " --out " + (kb.root / "live").string()).status == 0);
    CHECK(fs::is_symlink(kb.root / "live"));
    CHECK(fs::exists(kb.root / "deploy/kb.json"));
  }
  for (const auto& item : fs::directory_iterator(kb.root))
    CHECK(item.path().filename().string().find(".live") == std::string::npos);
}

TEST_CASE("an output that cannot be written is a tool failure that says why, exit 2") {
  TempKb kb;
  write(kb.root / "file", "a file");
  const Run under_file = kbc("build " + kb.arg() + " --out " + (kb.root / "file/site").string());
  CHECK(under_file.status == 2);
  CHECK(under_file.output.find("cannot write the output") != std::string::npos);
  CHECK(under_file.output.find("internal error") == std::string::npos);
  const Run is_file = kbc("build " + kb.arg() + " --out " + (kb.root / "file").string());
  CHECK(is_file.status == 2);
  CHECK(is_file.output.find("exists and is not a folder") != std::string::npos);
  const Run empty = kbc("build " + kb.arg() + " --out ''");
  CHECK(empty.status == 2);
  CHECK(empty.output.find("give --out a folder") != std::string::npos);
  CHECK(read(kb.root / "file") == "a file");
}

TEST_CASE("a broken template is a tool failure with its message, however many entries") {
  TempKb kb;
  const std::string entry = read(kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml");
  const std::string id = "id: cuda/cudnn-bn-epsilon-too-small";
  REQUIRE(entry.find(id) != std::string::npos);
  // Past 100 entries the pages are rendered on several threads.
  const std::string regex = "regex: '";
  REQUIRE(entry.find("\nsamples:") == std::string::npos);  // else each copy needs its own
  for (int i = 0; i < 150; ++i) {
    const std::string name = "copy-" + std::to_string(i);
    std::string copy = entry;  // a signature and regex of its own
    copy.replace(copy.find(regex), regex.size(), regex + name + " .*");
    copy.replace(copy.find("signature: '"), 12, "signature: '" + name + " ");
    copy.replace(copy.find(id), id.size(), "id: cuda/" + name);
    write(kb.root / ("entries/cuda/" + name + ".yaml"), copy);
  }
  for (const std::string name : {"page.md.mustache", "site/entry.html.mustache"}) {
    write(kb.root / "templates" / name, "{{#dead_ends}}\n");
    const Run run = kbc("build " + kb.arg());
    INFO(run.output);
    CHECK(run.status == 2);
    CHECK(run.output.find("templates/" + name + ": Unclosed section") != std::string::npos);
    CHECK_FALSE(fs::exists(kb.root / "dist"));
    fs::remove(kb.root / "templates" / name);
  }
}

TEST_CASE("a write that fails halfway (a full disk) is exit 2, the old output kept, nothing left") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const auto before = snapshot(kb.root / "dist");
  const fs::path entry = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string text = read(entry);
  text.replace(text.find("root_cause: '"), 13, "root_cause: 'Changed. ");
  write(entry, text);
  // No file may grow past 16 KiB: the bundle and the site's index cannot be written.
  const Run full =
      shell("ulimit -f 16; " + std::string(KBC_BINARY) + " build --no-cache " + kb.arg() + " 2>&1");
  INFO(full.output);
  CHECK(full.status == 2);
  CHECK(full.output.find("File too large") != std::string::npos);
  CHECK(full.output.find("internal error") == std::string::npos);
  CHECK(snapshot(kb.root / "dist") == before);
  check_no_staging_left(kb.root);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
}

TEST_CASE("build --keep-going builds the entries without errors and still fails") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  const Run run = kbc("build --keep-going " + kb.arg() + " --out " + (kb.root / "out").string());
  CHECK(run.status == 1);
  CHECK(fs::exists(kb.root / "out/api/cuda/cudnn-bn-epsilon-too-small.json"));
  CHECK_FALSE(fs::exists(kb.root / "out/api/cuda/broken-entry.json"));
  CHECK(read(kb.root / "out/kb.json").find("broken-entry") == std::string::npos);
}

TEST_CASE("build refuses to replace a folder it did not write") {
  TempKb kb;
  write(kb.root / "precious/notes.txt", "keep me");
  const Run run = kbc("build " + kb.arg() + " --out " + (kb.root / "precious").string());
  CHECK(run.status == 2);
  CHECK(run.output.find("refusing to replace") != std::string::npos);
  CHECK(read(kb.root / "precious/notes.txt") == "keep me");
}

TEST_CASE("lint with FILE arguments reports on those files, with cross-entry rules intact") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  const std::string good =
      (kb.root / "entries/cuda/cudnn-execution-failed-nonfinite.yaml").string();
  const Run only_good = kbc("lint " + kb.arg() + " " + good);
  CHECK(only_good.status == 0);  // its links resolve, and the broken file is not reported
  CHECK(only_good.output.find("broken-entry") == std::string::npos);
  CHECK(only_good.output.find("in 1 file") != std::string::npos);
  const Run only_broken =
      kbc("lint " + kb.arg() + " " + (kb.root / "entries/cuda/broken-entry.yaml").string());
  CHECK(only_broken.status == 1);
}

TEST_CASE("usage errors exit 2 with a did-you-mean") {
  const Run command = kbc("lnt");
  CHECK(command.status == 2);
  CHECK(command.output.find("did you mean 'lint'") != std::string::npos);
  const Run option = kbc("lint --rot .");
  CHECK(option.status == 2);
  CHECK(option.output.find("did you mean '--root'") != std::string::npos);
  CHECK(kbc("build --root /nonexistent/kb").status == 2);
  CHECK(kbc("lint --root").status == 2);
  CHECK(kbc("").status == 2);
  CHECK(kbc("--help").status == 0);
  CHECK(kbc("build --help").output.find("--keep-going") != std::string::npos);
}

TEST_CASE("lint --list-rules prints every rule id") {
  const Run run = kbc("lint --list-rules");
  CHECK(run.status == 0);
  for (const char* id : {"yaml-syntax", "schema-unknown-key", "entry-blank-text", "regex-overlap",
                         "xref-unknown", "i18n-missing", "source-url", "text-whitespace"}) {
    CHECK(run.output.find(id) != std::string::npos);
  }
}

TEST_CASE("import writes entries, refuses to overwrite, and round-trips through build") {
  TempKb kb;
  fs::remove_all(kb.root / "entries");
  fs::create_directories(kb.root / "entries");
  const std::string record = std::string(KBC_TEST_DATA) +
                             "/golden/seed001/expected/api/cuda/cudnn-bn-epsilon-too-small.json";
  REQUIRE(kbc("import " + record + " " + kb.arg()).status == 0);
  CHECK(fs::exists(kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml"));
  const Run again = kbc("import " + record + " " + kb.arg());
  CHECK(again.status == 1);
  CHECK(again.output.find("--force") != std::string::npos);
  CHECK(kbc("import --force " + record + " " + kb.arg()).status == 0);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(read(kb.root / "dist/api/cuda/cudnn-bn-epsilon-too-small.json") == read(record));
  // A bundle imports too.
  fs::remove_all(kb.root / "entries");
  fs::create_directories(kb.root / "entries");
  CHECK(kbc("import " + (kb.root / "dist/kb.json").string() + " " + kb.arg()).status == 0);
  CHECK(fs::exists(kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml"));
}

TEST_CASE("import refuses malformed JSON and unsafe ids") {
  TempKb kb;
  write(kb.root / "bad.json", "{\"id\": \"cuda/x\",\n  \"signature\": }");
  const Run bad = kbc("import " + (kb.root / "bad.json").string() + " " + kb.arg());
  CHECK(bad.status == 1);
  CHECK(bad.output.find("bad.json:2:") != std::string::npos);
  write(kb.root / "evil.json", "{\"id\": \"../../etc/passwd\"}");
  CHECK(kbc("import " + (kb.root / "evil.json").string() + " " + kb.arg()).status == 1);
  CHECK_FALSE(fs::exists(kb.root / "etc"));
}

TEST_CASE("bad input gets a diagnostic and exit 1, never a crash") {
  TempKb kb;
  const fs::path dir = kb.root / "entries/cuda";
  write(dir / "tabs.yaml", "id: cuda/tabs\ndead_ends:\n\t- action: x\n");
  write(dir / "dup.yaml", kBroken + "locale: zh\n");
  write(dir / "empty.yaml", "");
  write(dir / "docs.yaml", kBroken + "---\nid: x\n");
  write(dir / "list.yaml", "- a\n");
  write(dir / "latin1.yaml", "id: cuda/latin1\nsignature: caf\xe9\n");
  write(dir / "nan.yaml", "id: cuda/nan\nconfidence: .nan\n");
  write(dir / "date.yaml", "id: cuda/date\nfirst_seen: '2023-02-30'\n");
  write(dir / "deep.yaml", "a: " + std::string(100000, '[') + "\n");
  write(dir / "huge.yaml", "a: '" + std::string(3 << 20, 'x') + "'\n");
  write(dir / "..hidden.yaml", kBroken);
  std::string bomb = "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n";
  for (int i = 1; i < 12; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int k = 1; k < 10; ++k) bomb += "," + prev;
    bomb += "]\n";
  }
  write(dir / "bomb.yaml", bomb);
  const Run run = kbc("lint " + kb.arg());
  CHECK(run.status == 1);
  for (const char* expected :
       {"tabs.yaml:3:1: error: tab character", "dup.yaml:21:1: error: duplicate key 'locale'",
        "empty.yaml: error: file is empty", "docs.yaml:21:1: error: several YAML documents",
        "list.yaml:1:1: error: an entry must be a mapping",
        "latin1.yaml:2:15: error: bytes that are not valid UTF-8",
        "nan.yaml:2:13: error: confidence must be a finite number",
        "date.yaml:2:13: error: '2023-02-30' is not a calendar date", "deep.yaml:1:",
        "huge.yaml: error: file is", "bomb.yaml:", "..hidden.yaml:1:5: error: id"}) {
    INFO(expected);
    CHECK(run.output.find(expected) != std::string::npos);
  }
  CHECK(kbc("build " + kb.arg()).status == 1);
  CHECK_FALSE(fs::exists(kb.root / "dist"));
}

TEST_CASE("an id, a domain or a regex of any length gets a diagnostic in every command") {
  TempKb kb;
  const fs::path file = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string entry = read(file);
  const auto set = [&](const std::string& key, const std::string& value) {
    const std::size_t at = entry.find("\n" + key + ": ") + 1;
    entry.replace(at, entry.find('\n', at) - at, key + ": '" + value + "'");
  };
  // std::regex recursed once per character of an id: 30,000 overflowed the stack.
  set("id", "cuda/" + std::string(30000, 'A'));
  set("domain", std::string(30000, 'b'));
  set("regex", std::string(200000, 'r'));  // quadratic in FilteredRE2 when compiled
  write(file, entry);
  const Run lint = kbc("lint " + kb.arg());
  CHECK(lint.status == 1);
  for (const char* expected :
       {"1:5: error: id is 30005 characters long; the most is 200 [schema]",
        "1:5: error: id text of 30005 characters does not match the pattern",
        "error: domain is 30000 characters long; the most is 64 [schema]",
        "error: regex is 200000 characters long; the most is 1000 [schema]",
        "error: regex does not compile under RE2: longer than 4000 bytes, so not compiled"}) {
    INFO(expected);
    CHECK(lint.output.find(expected) != std::string::npos);
  }
  CHECK(kbc("build " + kb.arg()).status == 1);
  CHECK(kbc("match " + kb.arg() + " 'CUDNN_STATUS_BAD_PARAM'").status < 2);
  const Run made = kbc("new cuda/" + std::string(30000, 'a') + " " + kb.arg());
  CHECK(made.status == 2);
  CHECK(made.output.find("not a valid id") != std::string::npos);
  write(kb.root / "record.json",
        "{\"id\": \"cuda/" + std::string(30000, 'A') + "\", \"signature\": \"x\"}");
  CHECK(kbc("import " + (kb.root / "record.json").string() + " " + kb.arg()).status == 1);
}

TEST_CASE("a benign file over 1 MiB is a config-benign error") {
  TempKb kb;
  write(kb.root / "kbc.yaml", "benign:\n  - logs/big.log\n");
  write(kb.root / "logs/big.log", std::string((1 << 20) + 1, 'x'));
  const Run lint = kbc("lint " + kb.arg());
  CHECK(lint.status == 1);
  CHECK(lint.output.find("benign file 'logs/big.log' is 1048577 bytes; the limit is 1048576 "
                         "[config-benign]") != std::string::npos);
}

TEST_CASE("text written with the YAML escapes \\N and \\_ builds, as UTF-8") {
  TempKb kb;
  const fs::path file = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string entry = read(file);
  const std::size_t at = entry.find("\nroot_cause: ") + 1;
  entry.replace(at, entry.find('\n', at) - at, "root_cause: \"Epsilon\\_too\\Nsmall.\"");
  write(file, entry);
  CHECK(kbc("lint " + kb.arg()).status == 0);
  const Run build = kbc("build " + kb.arg());
  INFO(build.output);
  REQUIRE(build.status == 0);
  CHECK(read(kb.root / "dist/kb.json").find("Epsilon\u00a0too\u0085small.") != std::string::npos);
}

namespace {

// A valid entry that leads to cuda/broken-entry.
const std::string kLeadsToBroken =
    "id: cuda/leads-to-broken\nsignature: 'CUDA error: leads on'\nregex: 'CUDA error: leads on'\n"
    "domain: cuda\ncategory: runtime_error\nroot_cause: 'Shown as <script>alert(1)</script>.'\n"
    "dead_ends: []\nworkarounds: []\nverification_tier: ai_generated\nconfidence: 0.5\n"
    "fix_success_rate: 0.5\nresolvable: 'true'\nfirst_seen: '2024-01-01'\n"
    "last_confirmed: '2024-01-01'\nlast_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n"
    "transition_graph:\n  leads_to:\n  - error_id: cuda/broken-entry\n    probability: 0.5\n";

}  // namespace

TEST_CASE("build writes the site in both languages, with its search index and extras") {
  TempKb kb;
  const Run run = kbc("build " + kb.arg());
  REQUIRE(run.status == 0);
  CHECK(run.output.find("no base_url") != std::string::npos);
  const auto files = snapshot(kb.root / "dist");
  const auto bundle = nlohmann::json::parse(files.at("kb.json"));
  for (const std::string language : {"en", "zh"}) {
    for (const char* page : {"index.html", "search.html", "404.html", "domains/cuda.html"})
      CHECK(files.count("site/" + language + "/" + page));
    for (const auto& record : bundle) {
      const std::string id = record["id"];
      CHECK(files.count("site/" + language + "/entries/" + id + ".html"));
      CHECK(files.count("site/md/" + language + "/" + id + ".md"));
    }
    const auto meta = nlohmann::json::parse(files.at("site/" + language + "/search/meta.json"));
    CHECK(meta["docs"] == bundle.size());
    CHECK(files.count("site/" + language + "/search/t0.json"));
    CHECK(files.count("site/" + language + "/search/d0.json"));
  }
  for (const char* extra :
       {"site/index.html", "site/robots.txt", "site/llms.txt", "site/schema/entry.schema.json",
        "site/assets/style.css", "site/assets/search.js",
        "site/api/cuda/cudnn-bn-epsilon-too-small.json"})
    CHECK(files.count(extra));
  CHECK_FALSE(files.count("site/sitemap.xml"));  // needs a base_url
  const std::string zh = files.at("site/zh/entries/cuda/cudnn-bn-epsilon-too-small.html");
  CHECK(zh.find("<html lang=\"zh-CN\">") != std::string::npos);
  CHECK(zh.find("hreflang=\"x-default\"") != std::string::npos);
  // The same page in English, linked (the markup is the golden site's, tests/golden/site/).
  CHECK(zh.find("href=\"../../../en/entries/cuda/cudnn-bn-epsilon-too-small.html\"") !=
        std::string::npos);
  CHECK(zh.find("\"@type\":\"TechArticle\"") != std::string::npos);
  CHECK(zh.find("canonical") == std::string::npos);  // with a base_url it has one (below)
  const std::string root = files.at("site/index.html");
  CHECK(root.find("href=\"en/index.html\"") != std::string::npos);
  CHECK(root.find("href=\"zh/index.html\"") != std::string::npos);
  CHECK(files.at("site/api/cuda/cudnn-bn-epsilon-too-small.json") ==
        files.at("api/cuda/cudnn-bn-epsilon-too-small.json"));
}

TEST_CASE("a base URL adds canonical links, a sitemap with alternates and Atom feeds") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg() + " --base-url https://kb.example/docs").status == 0);
  const auto files = snapshot(kb.root / "dist");
  const std::string sitemap = files.at("site/sitemap.xml");
  CHECK(sitemap.find(
            "<loc>https://kb.example/docs/zh/entries/cuda/cudnn-bn-epsilon-too-small.html</loc>") !=
        std::string::npos);
  CHECK(sitemap.find("hreflang=\"zh-CN\"") != std::string::npos);
  CHECK(files.at("site/robots.txt").find("Sitemap: https://kb.example/docs/sitemap.xml") !=
        std::string::npos);
  for (const char* language : {"en", "zh"}) {
    const std::string feed = files.at(std::string("site/") + language + "/feed.xml");
    CHECK(feed.find("<feed xmlns=\"http://www.w3.org/2005/Atom\"") != std::string::npos);
    CHECK(count(feed, "<entry>") >= 4);
  }
  CHECK(files.at("site/en/entries/cuda/cudnn-bn-epsilon-too-small.html")
            .find("<link rel=\"canonical\" href=\"https://kb.example/docs/en/entries/cuda/"
                  "cudnn-bn-epsilon-too-small.html\">") != std::string::npos);
  // Links between pages stay relative.
  CHECK(files.at("site/en/index.html").find("<a href=\"https://kb.example") == std::string::npos);
}

TEST_CASE("build checks --base-url as kbc.yaml's base_url is checked") {
  TempKb kb;
  for (const std::string url : {"https:///x", "ftp://kb.example", "https://kb.example/a b",
                                "https://kb.example/?q", "kb.example"}) {
    INFO(url);
    const Run run = kbc("build " + kb.arg() + " --base-url '" + url + "'");
    CHECK(run.status == 2);
    CHECK(run.output.find("--base-url must be an absolute http(s) URL") != std::string::npos);
    write(kb.root / "kbc.yaml", "base_url: '" + url + "'\n");
    CHECK(kbc("lint " + kb.arg()).status == 1);
    fs::remove(kb.root / "kbc.yaml");
  }
  CHECK(kbc("build " + kb.arg() + " --base-url http://kb.example:8080/docs/").status == 0);
}

TEST_CASE("kbc.yaml sets the title and base_url, and its mistakes are diagnosed like an entry's") {
  TempKb kb;
  write(kb.root / "kbc.yaml", "title: GPU errors\nbase_url: https://kb.example/\n");
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(read(kb.root / "dist/site/en/index.html").find("<h1>GPU errors</h1>") != std::string::npos);
  CHECK(fs::exists(kb.root / "dist/site/sitemap.xml"));

  write(kb.root / "kbc.yaml", "title: GPU errors\nbase_ur: https://kb.example/\n");
  const Run typo = kbc("lint " + kb.arg());
  CHECK(typo.status == 1);
  CHECK(typo.output.find("kbc.yaml:2:1: error: unknown key 'base_ur'; did you mean 'base_url'?") !=
        std::string::npos);
  write(kb.root / "kbc.yaml", "base_url: ftp://kb.example/\n");
  const Run scheme = kbc("lint " + kb.arg());
  CHECK(scheme.status == 1);
  CHECK(scheme.output.find("kbc.yaml:1:11: error:") != std::string::npos);
}

TEST_CASE("a broken link in the site fails the build and leaves the output as it was") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const auto before = snapshot(kb.root / "dist");
  write(kb.root / "templates/site/not_found.html.mustache",
        "<h1>{{t.not_found_title}}</h1>\n<p><a href=\"{{up}}en/nowhere.html\">home</a></p>\n");
  const Run run = kbc("build " + kb.arg());
  CHECK(run.status == 1);
  CHECK(run.output.find("site/en/404.html:") != std::string::npos);
  CHECK(run.output.find("error: broken link to '../en/nowhere.html' (and 1 more link(s) to the "
                        "same file) [site-link]") != std::string::npos);
  CHECK(snapshot(kb.root / "dist") == before);
}

TEST_CASE("the site shows raw HTML in an entry as text and left-out entries without links") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  write(kb.root / "entries/cuda/leads-to-broken.yaml", kLeadsToBroken);
  const Run run = kbc("build --keep-going " + kb.arg() + " --out " + (kb.root / "out").string());
  CHECK(run.status == 1);
  const std::string page = read(kb.root / "out/site/en/entries/cuda/leads-to-broken.html");
  CHECK(page.find("Shown as &lt;script&gt;alert(1)&lt;/script&gt;.") != std::string::npos);
  CHECK(page.find("<script>alert") == std::string::npos);
  CHECK(page.find("<span class=\"unavailable\">cuda/broken-entry</span>") != std::string::npos);
  CHECK(page.find("entries/cuda/broken-entry.html") == std::string::npos);
}

namespace {

// kBroken with a key the schema does not know, on its last line (21).
const std::string kBrokenWithUnknownKey = kBroken + "extra_key: 1\n";

const std::string kBlankAction = "dead_ends[0] has a blank action: name the fix that does not work";

// Runs kbc with stdout and stderr on a pseudo-terminal, as in an interactive shell, with
// NO_COLOR set to `no_color` (unset when empty) and TERM=xterm. Newlines come back as "\n".
Run kbc_on_terminal(const std::vector<std::string>& args, const std::string& no_color) {
  std::vector<std::string> words = {KBC_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (no_color.empty()) {
      unsetenv("NO_COLOR");
    } else {
      setenv("NO_COLOR", no_color.c_str(), 1);
    }
    setenv("TERM", "xterm", 1);
    unsetenv("CI");  // an interactive shell, not a CI job (which gets no progress bar)
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(terminal, buffer, sizeof buffer)) > 0;) output.append(buffer, n);
  close(terminal);
  int status = 0;
  waitpid(pid, &status, 0);
  output.erase(std::remove(output.begin(), output.end(), '\r'), output.end());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), output};
}

}  // namespace

TEST_CASE("lint --format json prints one document with pointers, from the cache too") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBrokenWithUnknownKey);
  for (const char* pass : {"first run", "second run, from the parse cache"}) {
    INFO(pass);
    const Run run = kbc("lint --format json " + kb.arg());
    CHECK(run.status == 1);
    const auto out = nlohmann::json::parse(run.output);  // nothing else on stdout or stderr
    CHECK(out["version"] == 1);
    const auto& diagnostics = out["diagnostics"];
    const auto is = [&](const char* rule) {
      return std::find_if(diagnostics.begin(), diagnostics.end(),
                          [&](const auto& d) { return d["rule"] == rule; });
    };
    REQUIRE(is("entry-blank-text") != diagnostics.end());
    const auto& blank = *is("entry-blank-text");
    CHECK(blank["path"] == "entries/cuda/broken-entry.yaml");
    CHECK(blank["line"] == 8);
    CHECK(blank["column"] == 11);
    CHECK(blank["severity"] == "error");
    CHECK(blank["message"] == kBlankAction);
    CHECK(blank["pointer"] == "/dead_ends/0/action");
    REQUIRE(is("schema-unknown-key") != diagnostics.end());
    CHECK((*is("schema-unknown-key"))["line"] == 21);
    CHECK((*is("schema-unknown-key"))["pointer"] == "/extra_key");
    int errors = 0;
    for (const auto& d : diagnostics) errors += d["severity"] == "error";
    CHECK(out["summary"]["errors"] == errors);
    CHECK(out["summary"]["warnings"] == static_cast<int>(diagnostics.size()) - errors);
    std::size_t files = 0;
    for (const auto& [path, text] : snapshot(kb.root / "entries")) files += path.ends_with(".yaml");
    CHECK(out["summary"]["files"] == files);
  }
}

TEST_CASE("lint --format sarif names every rule and points each result at its rule and line") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBrokenWithUnknownKey);
  const Run run = kbc("lint --format sarif " + kb.arg());
  CHECK(run.status == 1);
  const auto log = nlohmann::json::parse(run.output);
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  REQUIRE(log["runs"].size() == 1);
  const auto& driver = log["runs"][0]["tool"]["driver"];
  CHECK(driver["name"] == "kbc");
  CHECK(driver["version"].get<std::string>().find('.') != std::string::npos);
  const auto listed = lines_of(kbc("lint --list-rules").output);
  REQUIRE(driver["rules"].size() == listed.size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const std::string id = driver["rules"][i]["id"];
    CHECK(listed[i].starts_with(id + " "));
    CHECK(listed[i].find(driver["rules"][i]["shortDescription"]["text"].get<std::string>()) !=
          std::string::npos);
  }
  const auto& results = log["runs"][0]["results"];
  REQUIRE_FALSE(results.empty());
  bool found = false;
  for (const auto& result : results) {
    CHECK(driver["rules"][result["ruleIndex"].get<std::size_t>()]["id"] == result["ruleId"]);
    if (result["ruleId"] != "entry-blank-text") continue;
    found = true;
    CHECK(result["level"] == "error");
    CHECK(result["message"]["text"] == kBlankAction);
    const auto& location = result["locations"][0]["physicalLocation"];
    CHECK(location["artifactLocation"]["uri"] == "entries/cuda/broken-entry.yaml");
    CHECK(location["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
    CHECK(location["region"]["startLine"] == 8);
    CHECK(location["region"]["startColumn"] == 11);
  }
  CHECK(found);
}

TEST_CASE("lint --format github prints a workflow command per finding, then the summary") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBrokenWithUnknownKey);
  const Run run = kbc("lint --format=github " + kb.arg());
  CHECK(run.status == 1);
  const auto lines = lines_of(run.output);
  REQUIRE(lines.size() >= 3);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    INFO(lines[i]);
    CHECK((lines[i].starts_with("::error file=") || lines[i].starts_with("::warning file=")));
  }
  CHECK(std::count(lines.begin(), lines.end(),
                   "::error file=entries/cuda/broken-entry.yaml,line=8,col=11,"
                   "title=entry-blank-text::" +
                       kBlankAction) == 1);
  CHECK(std::count(lines.begin(), lines.end(),
                   "::error file=entries/cuda/broken-entry.yaml,line=21,col=1,"
                   "title=schema-unknown-key::unknown key 'extra_key'") == 1);
  CHECK(lines.back().find(" errors, ") != std::string::npos);
  CHECK(lines.back().starts_with("::") == false);
}

TEST_CASE("lint and build refuse a --format or --color they do not know, with a did-you-mean") {
  const Run format = kbc("lint --format srif");
  CHECK(format.status == 2);
  CHECK(format.output.find("did you mean 'sarif'") != std::string::npos);
  const Run color = kbc("lint --color=alwys");
  CHECK(color.status == 2);
  CHECK(color.output.find("did you mean 'always'") != std::string::npos);
  CHECK(kbc("build --color sometimes").status == 2);
  CHECK(kbc("build --format json").status == 2);  // --format is lint's alone
  CHECK(kbc("lint --help").output.find("--format FORMAT") != std::string::npos);
}

TEST_CASE("in a pipe text stays plain unless --color always, with no source lines either way") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  const std::string heading =
      "entries/cuda/broken-entry.yaml:8:11: error: " + kBlankAction + " [entry-blank-text]\n";
  const Run plain = kbc("lint " + kb.arg());
  CHECK(plain.status == 1);
  CHECK(plain.output.find('\x1b') == std::string::npos);
  const std::size_t at = plain.output.find(heading);
  REQUIRE(at != std::string::npos);
  CHECK(plain.output.substr(at + heading.size(), 2) != "  ");  // no source line below it
  CHECK(plain.output == kbc("lint --color never --format text " + kb.arg()).output);
  const Run colored = kbc("lint --color always " + kb.arg());
  CHECK(colored.output.find("\x1b[1mentries/cuda/broken-entry.yaml:8:11:\x1b[0m "
                            "\x1b[1;31merror:\x1b[0m " +
                            kBlankAction) != std::string::npos);
  CHECK(colored.output.find("- action: ''") == std::string::npos);
  const Run build = kbc("build --color always " + kb.arg());
  CHECK(build.status == 1);
  CHECK(build.output.find("\x1b[1;31merror:\x1b[0m " + kBlankAction) != std::string::npos);
}

TEST_CASE("on a terminal text shows every finding's source line, coloured unless NO_COLOR") {
  TempKb kb;
  write(kb.root / "entries/cuda/broken-entry.yaml", kBroken);
  const std::string source = "  - action: ''\n            ^\n";  // the caret under column 11
  const Run colored = kbc_on_terminal({"lint", "--root", kb.root.string()}, "");
  CHECK(colored.status == 1);
  CHECK(colored.output.find("\x1b[1;31merror:\x1b[0m " + kBlankAction) != std::string::npos);
  CHECK(colored.output.find("  - action: ''\n            \x1b[1;32m^\x1b[0m\n") !=
        std::string::npos);
  const Run plain = kbc_on_terminal({"lint", "--root", kb.root.string()}, "1");
  CHECK(plain.status == 1);
  CHECK(plain.output.find('\x1b') == std::string::npos);
  CHECK(plain.output.find(kBlankAction + " [entry-blank-text]\n" + source) != std::string::npos);
  const Run forced = kbc_on_terminal({"lint", "--color=always", "--root", kb.root.string()}, "1");
  CHECK(forced.output.find("\x1b[1;31merror:") != std::string::npos);
  const Run build = kbc_on_terminal({"build", "--root", kb.root.string()}, "1");
  CHECK(build.status == 1);
  CHECK(build.output.find(kBlankAction + " [entry-blank-text]\n" + source) != std::string::npos);
}

TEST_CASE(
    "a symbolic link under entries/ is reported, never followed: no secret, no file outside") {
  TempKb kb;
  const fs::path outside = kb.root / "outside";
  fs::create_directories(outside / "cuda");
  fs::copy(kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml",
           outside / "cuda/linked-in.yaml");
  fs::create_directory_symlink(outside / "cuda", kb.root / "entries/linked");
  fs::create_symlink("/proc/self/environ", kb.root / "entries/cuda/environ.yaml");
  fs::create_symlink(outside / "cuda/linked-in.yaml", kb.root / "entries/cuda/linked-in.yaml");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lint", "--root", kb.root.string()},
        std::vector<std::string>{"lint", "--root", kb.root.string(),
                                 (kb.root / "entries/cuda/environ.yaml").string()},
        std::vector<std::string>{"build", "--keep-going", "--root", kb.root.string()}}) {
    setenv("KBC_TEST_SECRET", "s3cr3t-t0ken", 1);
    const Run run = kbc_on_terminal(args, "1");
    unsetenv("KBC_TEST_SECRET");
    INFO(run.output);
    CHECK(run.status == 1);
    CHECK(run.output.find("s3cr3t-t0ken") == std::string::npos);
    CHECK(run.output.find("entries/cuda/environ.yaml:1:1: error: a symbolic link") !=
          std::string::npos);
  }
  const Run lint = kbc("lint --root " + kb.root.string());
  CHECK(lint.output.find("entries/linked:1:1: error: a symbolic link") != std::string::npos);
  CHECK(lint.output.find("entries/cuda/linked-in.yaml:1:1: error: a symbolic link") !=
        std::string::npos);
  // --keep-going built the other entries, and nothing from outside.
  const std::string bundle = read(kb.root / "dist/kb.json");
  CHECK(bundle.find("cuda/cudnn-bn-epsilon-too-small") != std::string::npos);
  CHECK(bundle.find("linked-in") == std::string::npos);
}

TEST_CASE("a .yml file under entries/ is reported with the name to give it") {
  TempKb kb;
  fs::rename(kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml",
             kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yml");
  const Run lint = kbc("lint --root " + kb.root.string());
  CHECK(lint.status == 1);
  CHECK(lint.output.find("entries/cuda/cudnn-bn-epsilon-too-small.yml:1:1: error: kbc reads only "
                         "files ending in .yaml: rename it to cudnn-bn-epsilon-too-small.yaml "
                         "[entry-file]") != std::string::npos);
  const Run one = kbc("lint --root " + kb.root.string() + " " +
                      (kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yml").string());
  CHECK(one.status == 1);
  CHECK(one.output.find("[entry-file]") != std::string::npos);
}

TEST_CASE("the parse cache never changes what lint reports: edits, renames, deletions, damage") {
  TempKb kb;
  const auto same_as_uncached = [&](const std::string& files = "") {
    return lint_same_as_uncached(kb, files);
  };
  CHECK(same_as_uncached().status == 0);
  REQUIRE(fs::is_directory(kb.root / ".kbc-cache"));
  CHECK(read(kb.root / ".kbc-cache/.gitignore") == "*\n");

  // An edit that breaks an entry.
  const fs::path entry = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  const std::string original = read(entry);
  std::string broken = original;
  broken.replace(broken.find("fail_rate: 0.3"), 14, "fail_rate: 3.0");
  write(entry, broken);
  const Run edited = same_as_uncached();
  CHECK(edited.status == 1);
  CHECK(edited.output.find("[schema]") != std::string::npos);
  // Back to the original bytes: the old result is valid again.
  write(entry, original);
  CHECK(same_as_uncached().status == 0);

  // A rename: same bytes under another path, so another id-path result.
  const fs::path renamed = kb.root / "entries/cuda/renamed.yaml";
  fs::rename(entry, renamed);
  const Run moved = same_as_uncached();
  CHECK(moved.output.find("entries/cuda/renamed.yaml:1:5: error:") != std::string::npos);
  fs::rename(renamed, entry);

  // A file kbc refuses (no entry, in no digest) appears, then goes: reported as it is now.
  write(kb.root / "entries/cuda/refused.yml", original);
  CHECK(same_as_uncached().output.find("refused.yml:1:1: error:") != std::string::npos);
  fs::remove(kb.root / "entries/cuda/refused.yml");
  CHECK(same_as_uncached().status == 0);

  // A deletion of an entry others link to.
  const std::string zero_batch =
      read(kb.root / "entries/tensorflow/cudnn-bad-param-zero-batch.yaml");
  fs::remove(kb.root / "entries/tensorflow/cudnn-bad-param-zero-batch.yaml");
  CHECK(same_as_uncached().output.find("[xref-unknown]") != std::string::npos);
  write(kb.root / "entries/tensorflow/cudnn-bad-param-zero-batch.yaml", zero_batch);

  // Damaged cache files are misses, not crashes.
  for (const auto& item : fs::recursive_directory_iterator(kb.root / ".kbc-cache")) {
    if (item.is_regular_file() && item.path().filename() != ".gitignore")
      write(item.path(), "\x9f garbage");
  }
  CHECK(same_as_uncached().status == 0);
  for (const auto& item : fs::recursive_directory_iterator(kb.root / ".kbc-cache")) {
    if (item.is_regular_file() && item.path().filename() != ".gitignore")
      write(item.path(), read(item.path()).substr(0, fs::file_size(item.path()) / 2));
  }
  CHECK(same_as_uncached().status == 0);
  // With FILE arguments, the cross-entry rules still see every entry.
  write(entry, broken);
  CHECK(same_as_uncached(" " + entry.string()).status == 1);
}

namespace {

// `text` with the first line that starts with `key` replaced by `line`.
std::string with_line(std::string text, const std::string& key, const std::string& line) {
  const std::size_t after_newline = text.find("\n" + key);
  REQUIRE((text.starts_with(key) || after_newline != std::string::npos));
  const std::size_t at = text.starts_with(key) ? 0 : after_newline + 1;
  text.replace(at, text.find('\n', at) - at, line);
  return text;
}

}  // namespace

// A whole lint after an edit reuses what the last one learnt about the unchanged entries
// (lint/last_lint.h): each step changes what the cross-entry rules find, in one direction or the
// other, and each lint must report what a lint without the cache reports.
TEST_CASE("a lint after an edit re-checks what the edit changes in other entries") {
  TempKb kb;
  CHECK(lint_same_as_uncached(kb).status == 0);
  const fs::path cublas = kb.root / "entries/cuda/cublas-status-alloc-failed.yaml";
  const fs::path execution = kb.root / "entries/cuda/cudnn-execution-failed-nonfinite.yaml";
  const std::string cublas_text = read(cublas), execution_text = read(execution);

  // A changed regex now matches other entries' signatures.
  write(cublas, with_line(cublas_text, "regex:", "regex: '(?i)cudnn|CUBLAS'"));
  Run run = lint_same_as_uncached(kb);
  CHECK(run.output.find("[regex-overlap]") != std::string::npos);
  // A changed signature is now matched by an unchanged regex (and has lost its own).
  write(cublas, with_line(cublas_text, "signature:",
                          "signature: 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED'"));
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find("cudnn-execution-failed-nonfinite.yaml:4:8: warning: regex also matches "
                        "the signature of 'cuda/cublas-status-alloc-failed'") != std::string::npos);
  CHECK(run.output.find("[entry-unreachable]") != std::string::npos);
  // The entry whose regex matched it changes in a way that does not touch its regex.
  write(execution, execution_text + "# a comment\n");
  CHECK(lint_same_as_uncached(kb).output.find("[regex-overlap]") != std::string::npos);
  // An unchanged regex that needs its required atom and one of two others (two clauses in its
  // RegexPlan): a signature with the required one alone is not its, one with both is.
  const std::string overlap =
      "regex also matches the signature of 'cuda/cublas-status-alloc-failed'";
  write(execution, with_line(execution_text, "regex:",
                             "regex: 'CUDNN_STATUS_EXECUTION_FAILED.*(?:nonfinite|NaN)'"));
  CHECK(lint_same_as_uncached(kb).output.find(overlap) == std::string::npos);
  write(cublas, with_line(cublas_text, "signature:",
                          "signature: 'cuDNN error: CUDNN_STATUS_EXECUTION_FAILED (NaN)'"));
  CHECK(lint_same_as_uncached(kb).output.find(overlap) != std::string::npos);
  // A regex that no longer compiles, then the entry that matched it is deleted.
  write(execution, with_line(execution_text, "regex:", "regex: 'CUDNN_(STATUS'"));
  CHECK(lint_same_as_uncached(kb).output.find("[regex-syntax]") != std::string::npos);
  fs::remove(cublas);
  CHECK(lint_same_as_uncached(kb).output.find("[regex-overlap]") == std::string::npos);
  // A new entry, with another's signature and a regex that matches every signature.
  write(kb.root / "entries/cuda/copy.yaml",
        with_line(with_line(cublas_text, "id:", "id: cuda/copy"), "regex:", "regex: '.'"));
  CHECK(lint_same_as_uncached(kb).output.find("[regex-overlap]") != std::string::npos);
  // More new files than an edit makes: everything is linted again.
  for (int i = 0; i < 40; ++i) {
    const std::string id = "copy-" + std::to_string(i);
    write(kb.root / ("entries/cuda/" + id + ".yaml"),
          with_line(cublas_text, "id:", "id: cuda/" + id));
  }
  CHECK(lint_same_as_uncached(kb).output.find("[entry-unreachable]") != std::string::npos);
  write(execution, execution_text);
  CHECK(lint_same_as_uncached(kb).status == 1);
}

// An edited entry whose regex is the same keeps what the regex matched, and one whose signature
// and samples are the same keeps the regexes that match them (LastLint::EntryFacts::regex,
// texts): each step must still report what a lint without the cache reports.
TEST_CASE("a lint after an edit keeps what an unchanged regex or text matched") {
  TempKb kb;
  const fs::path cublas = kb.root / "entries/cuda/cublas-status-alloc-failed.yaml";
  const fs::path execution = kb.root / "entries/cuda/cudnn-execution-failed-nonfinite.yaml";
  const std::string cublas_text = read(cublas), execution_text = read(execution);
  const std::string broad = with_line(cublas_text, "regex:", "regex: '(?i)cudnn|CUBLAS'");
  write(cublas, broad);
  CHECK(lint_same_as_uncached(kb).output.find("[regex-overlap]") != std::string::npos);
  // Its file changes, not its regex or texts: its matches are the last lint's.
  write(cublas, "# a comment\n" + broad);
  Run run = lint_same_as_uncached(kb);
  CHECK(run.output.find("[regex-overlap]") != std::string::npos);
  // Its signature changes, not its regex: another's unchanged regex now matches it.
  const std::string renamed = with_line(
      broad, "signature:", "signature: 'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED'");
  write(cublas, renamed);
  const std::string matched =
      "regex also matches the signature of 'cuda/cublas-status-alloc-failed'";
  CHECK(lint_same_as_uncached(kb).output.find(matched) != std::string::npos);
  // The entry whose regex matches it changes around its regex: the match stays.
  write(execution, execution_text + "# a comment\n");
  CHECK(lint_same_as_uncached(kb).output.find(matched) != std::string::npos);
  // Its regex changes, not its texts: the other regexes' matches of them stay, its own go.
  write(cublas, with_line(renamed, "regex:", "regex: 'CUBLAS_STATUS_ALLOC_FAILED'"));
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find(matched) != std::string::npos);
  // And both at once, in two files.
  write(cublas, cublas_text);
  write(execution, execution_text);
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find(matched) == std::string::npos);
  CHECK(run.status == 0);
}

// An entry whose signature is two lines competes with the regexes that match either line; a lint
// after an edit reuses the last lint's choice only while no candidate changed and no changed
// entry joins (lint/signature_winners.cc). The steps change what comes first for it.
TEST_CASE("a lint after an edit ranks a signature of two lines as a lint without the cache does") {
  TempKb kb;
  const fs::path cublas = kb.root / "entries/cuda/cublas-status-alloc-failed.yaml";
  const fs::path execution = kb.root / "entries/cuda/cudnn-execution-failed-nonfinite.yaml";
  const std::string cublas_text = read(cublas), execution_text = read(execution);
  // Its own regex matches neither line: nothing comes first for it.
  write(kb.root / "entries/cuda/two-lines.yaml",
        with_line(with_line(with_line(cublas_text, "id:", "id: cuda/two-lines"), "signature:",
                            "signature: \"ZQXJ went wrong\\nwhile running the first nn.Linear "
                            "of the model\""),
                  "regex:", "regex: 'ZQXJ nowhere'"));
  const std::string nothing = "two-lines.yaml:2:12: error: kbc match finds nothing";
  CHECK(lint_same_as_uncached(kb).output.find(nothing) != std::string::npos);
  // An unchanged entry's regex is edited to match the second line: it joins, and comes first.
  write(execution, with_line(execution_text, "regex:",
                             "regex: '[Cc]uDNN error: CUDNN_STATUS_EXECUTION_FAILED|while running "
                             "the first nn\\.Linear of the model'"));
  const std::string first =
      "two-lines.yaml:2:12: error: unreachable: kbc match ranks 'cuda/cudnn-execution-failed-";
  Run run = lint_same_as_uncached(kb);
  CHECK(run.output.find(first) != std::string::npos);
  CHECK(run.output.find(nothing) == std::string::npos);
  // An edit elsewhere: the choice stands.
  write(cublas, cublas_text + "# a comment\n");
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find(first) != std::string::npos);
  CHECK(run.output.find(nothing) == std::string::npos);
  // The entry that joined changes back: it leaves.
  write(execution, execution_text);
  CHECK(lint_same_as_uncached(kb).output.find(nothing) != std::string::npos);
}

// regex-too-broad reuses, in an unchanged file, what it found from the file and the benign corpus
// (and, where its regex matches the same texts of unchanged files, from those): each step must
// still report what a lint without the cache reports.
TEST_CASE("a lint after an edit reports regex-too-broad as a lint without the cache does") {
  TempKb kb(fs::path(KBC_TEST_DATA) / "lint/regex-too-broad/fail/entries");
  const fs::path option = kb.root / "entries/python/option.yaml";
  const fs::path version = kb.root / "entries/net/version.yaml";
  const std::string option_text = read(option), version_text = read(version);
  const Run first = lint_same_as_uncached(kb);
  CHECK(first.output.find("it matches 'python/option' (entries/python/option.yaml:2)") !=
        std::string::npos);
  // Another file changes: every finding of the unchanged ones is reused, none lost.
  write(version, "# a comment\n" + version_text);
  Run run = lint_same_as_uncached(kb);
  CHECK(run.output.find("ordinary output, 53 lines") != std::string::npos);
  CHECK(run.output.find("entries/net/version.yaml:5:8: warning: regex leaves the dot") !=
        std::string::npos);
  // The file a word-gap finding quotes moves its signature down a line: the finding follows.
  write(option, "# a comment\n" + option_text);
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find("it matches 'python/option' (entries/python/option.yaml:3)") !=
        std::string::npos);
  // Its signature no longer matches: the finding goes.
  write(option, with_line(option_text, "signature:", "signature: 'python: bad flag'"));
  run = lint_same_as_uncached(kb);
  CHECK(run.output.find("it matches 'python/option'") == std::string::npos);
}

namespace {

// The lines of `text`, without "path:line:col: " where a line has it.
std::vector<std::string> without_positions(const std::string& text) {
  static const std::regex kPosition("^[^ ]+:[0-9]+:[0-9]+: ");
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(std::regex_replace(line, kPosition, ""));
  return lines;
}

// What `kbc lint` says about an entry just made by `kbc new` without --date: one diagnostic per
// placeholder, and no other.
const std::vector<std::string> kScaffoldDiagnostics = {
    "error: signature is blank [entry-blank-text]",
    "error: category is blank [entry-blank-text]",
    "error: root_cause is blank [entry-blank-text]",
    "warning: dead_ends have no Chinese text (dead_ends_zh) [i18n-missing]",
    "error: dead_ends[0] has a blank action: name the fix that does not work [entry-blank-text]",
    "error: dead_ends[0].why_fails is blank [entry-blank-text]",
    "error: dead_ends[0].fail_rate must be a number, not null [schema]",
    "warning: workarounds have no Chinese text (workarounds_zh) [i18n-missing]",
    "error: workarounds[0].action is blank [entry-blank-text]",
    "error: workarounds[0].success_rate must be a number, not null [schema]",
    "error: confidence must be a number, not null [schema]",
    "error: fix_success_rate must be a number, not null [schema]",
    "error: first_seen text 'YYYY-MM-DD' does not match the pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ "
    "[schema]",
    "error: last_confirmed text 'YYYY-MM-DD' does not match the pattern "
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$ [schema]",
    "error: last_updated text 'YYYY-MM-DD' does not match the pattern "
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$ [schema]"};

}  // namespace

TEST_CASE("new writes entries/<id>.yaml with the schema line, the id and the domain") {
  TempKb kb;
  fs::copy(fs::path(KBC_SOURCE_DIR) / "schema", kb.root / "schema", fs::copy_options::recursive);
  const fs::path entry = kb.root / "entries/cuda/new-thing.yaml";
  const Run run = kbc("new cuda/new-thing " + kb.arg());
  CHECK(run.status == 0);
  CHECK(run.output == entry.string() + "\n");
  const std::string text = read(entry);
  CHECK(text.starts_with("# yaml-language-server: $schema=../../schema/entry.schema.json\n"));
  const YAML::Node node = YAML::Load(text);
  CHECK(node["id"].as<std::string>() == "cuda/new-thing");
  CHECK(node["domain"].as<std::string>() == "cuda");
  // Deterministic: the same id gives the same bytes.
  fs::remove(entry);
  REQUIRE(kbc("new cuda/new-thing " + kb.arg()).status == 0);
  CHECK(read(entry) == text);
  // A variant is one folder deeper; --date fills the three dates.
  REQUIRE(kbc("new pytorch/oom/variant --date 2024-02-29 " + kb.arg()).status == 0);
  const std::string variant = read(kb.root / "entries/pytorch/oom/variant.yaml");
  CHECK(variant.starts_with("# yaml-language-server: $schema=../../../schema/entry.schema.json\n"));
  CHECK(YAML::Load(variant)["domain"].as<std::string>() == "pytorch");
  CHECK(YAML::Load(variant)["last_updated"].as<std::string>() == "2024-02-29");
}

TEST_CASE("new points at the published schema without schema/, else at the schema's $id") {
  TempKb kb;
  write(kb.root / "kbc.yaml", "base_url: https://kb.example/docs\n");
  REQUIRE(kbc("new cuda/a " + kb.arg()).status == 0);
  CHECK(read(kb.root / "entries/cuda/a.yaml")
            .starts_with("# yaml-language-server: "
                         "$schema=https://kb.example/docs/schema/entry.schema.json\n"));
  fs::remove(kb.root / "kbc.yaml");
  REQUIRE(kbc("new cuda/b " + kb.arg()).status == 0);
  CHECK(read(kb.root / "entries/cuda/b.yaml")
            .starts_with(
                "# yaml-language-server: $schema=https://kbc.dev/schema/entry.schema.json\n"));
  // A knowledge base's own templates/entry.yaml.mustache replaces the built-in one.
  write(kb.root / "templates/entry.yaml.mustache", "# {{{schema}}}\nid: '{{{id}}}'\n");
  REQUIRE(kbc("new cuda/c " + kb.arg()).status == 0);
  CHECK(read(kb.root / "entries/cuda/c.yaml") ==
        "# https://kbc.dev/schema/entry.schema.json\nid: 'cuda/c'\n");
}

TEST_CASE("new refuses an entry that exists and leaves it as it was") {
  TempKb kb;
  write(kb.root / "entries/cuda/mine.yaml", "keep me");
  const Run run = kbc("new cuda/mine " + kb.arg());
  CHECK(run.status == 1);
  CHECK(run.output.find("entries/cuda/mine.yaml: error: the entry exists") != std::string::npos);
  CHECK(read(kb.root / "entries/cuda/mine.yaml") == "keep me");
  const fs::path shipped = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  const std::string before = read(shipped);
  CHECK(kbc("new cuda/cudnn-bn-epsilon-too-small " + kb.arg()).status == 1);
  CHECK(read(shipped) == before);
}

TEST_CASE("new refuses ids that are not valid and usage mistakes, and writes nothing") {
  TempKb kb;
  const auto before = snapshot(kb.root);
  for (const char* id : {"Cuda/x", "cuda/X", "cuda/../x", "../cuda/x", "cuda/x/..", "/cuda/x", "x",
                         "/x", "cuda/", "cuda/x/y/z", "cuda/x.yaml/"}) {
    INFO(id);
    const Run run = kbc(std::string("new '") + id + "' " + kb.arg());
    CHECK(run.status == 2);
    CHECK(run.output.find("is not a valid id") != std::string::npos);
  }
  CHECK_FALSE(fs::exists("/cuda/x.yaml"));
  CHECK(kbc("new " + kb.arg()).status == 2);
  CHECK(kbc("new cuda/a cuda/b " + kb.arg()).status == 2);
  CHECK(kbc("new cuda/a --date 2024-02-30 " + kb.arg()).status == 2);
  CHECK(kbc("new cuda/a --date 24-01-01 " + kb.arg()).status == 2);
  CHECK(kbc("new cuda/a --root " + (kb.root / "nowhere").string()).status == 2);
  CHECK(snapshot(kb.root) == before);
}

TEST_CASE("a new entry lints with one diagnostic per placeholder, and no other") {
  TempKb kb;  // the shipped entries too: the placeholder regex must not overlap theirs
  const fs::path entry = kb.root / "entries/cuda/new-thing.yaml";
  REQUIRE(kbc("new cuda/new-thing " + kb.arg()).status == 0);
  const Run run = kbc("lint " + kb.arg());
  CHECK(run.status == 1);
  std::vector<std::string> diagnostics = without_positions(run.output);
  REQUIRE_FALSE(diagnostics.empty());
  CHECK(diagnostics.back().starts_with("13 errors, 2 warnings in "));  // whole knowledge base
  diagnostics.pop_back();
  CHECK(diagnostics == kScaffoldDiagnostics);
  // Each diagnostic points at a line that holds a placeholder (or the list that lacks Chinese).
  std::vector<std::string> lines;
  std::istringstream text(read(entry));
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  const std::regex kLine("^entries/cuda/new-thing\\.yaml:([0-9]+):");
  std::istringstream output(run.output);
  for (std::string diagnostic; std::getline(output, diagnostic);) {
    std::smatch at;
    if (!std::regex_search(diagnostic, at, kLine)) continue;
    const std::string& line = lines.at(std::stoul(at[1]) - 1);
    INFO(diagnostic);
    CHECK(std::regex_search(line, std::regex("''|null|YYYY-MM-DD|^(dead_ends|workarounds):")));
  }
  // With --date the dates are done; once the signature is written, the placeholder regex fails.
  fs::remove(entry);
  REQUIRE(kbc("new cuda/new-thing --date 2024-06-01 " + kb.arg()).status == 0);
  std::string filled = read(entry);
  filled.replace(filled.find("signature: ''"), 13, "signature: 'CUDA error: brand new'");
  write(entry, filled);
  const Run dated = kbc("lint " + kb.arg() + " " + entry.string());
  CHECK(dated.output.find("YYYY-MM-DD") == std::string::npos);
  CHECK(dated.output.find("error: regex does not match the signature [regex-no-match]") !=
        std::string::npos);
  CHECK(dated.output.find("10 errors, 3 warnings in 1 file") != std::string::npos);
}

TEST_CASE("new --help and kbc --help describe new") {
  const Run help = kbc("new --help");
  CHECK(help.status == 0);
  CHECK(help.output.starts_with("usage: kbc new <id> [options]\n"));
  CHECK(help.output.find("--date YYYY-MM-DD") != std::string::npos);
  CHECK(help.output.find("--root DIR") != std::string::npos);
  CHECK(kbc("--help").output.find("\n  new ") != std::string::npos);
}

TEST_CASE("the pre-commit hook lints the entry files pre-commit passes it") {
  const YAML::Node hooks = YAML::LoadFile(std::string(KBC_SOURCE_DIR) + "/.pre-commit-hooks.yaml");
  REQUIRE(hooks.IsSequence());
  YAML::Node lint;
  for (const YAML::Node& hook : hooks) {
    if (hook["id"].as<std::string>() == "kbc-lint") lint = hook;
  }
  REQUIRE(lint.IsMap());
  CHECK(lint["entry"].as<std::string>() == "kbc lint");
  CHECK(lint["language"].as<std::string>() == "system");
  CHECK(lint["pass_filenames"].as<bool>());
  const std::string files = lint["files"].as<std::string>();
  CHECK(files == "^entries/.*\\.ya?ml$");
  const std::regex pattern(files);
  CHECK(std::regex_search("entries/cuda/x.yaml", pattern));
  CHECK(std::regex_search("entries/cuda/x/variant.yaml", pattern));
  CHECK(std::regex_search("entries/cuda/x.yml", pattern));  // reported: entry-file
  for (const char* other : {"kbc.yaml", "templates/entry.yaml.mustache", "docs/entries/cuda/x.yaml",
                            "entries/cuda/x.yaml.tmp"}) {
    INFO(other);
    CHECK_FALSE(std::regex_search(other, pattern));
  }
}

TEST_CASE("the scaffold has every required key of the schema, and the optional ones commented") {
  TempKb kb;
  REQUIRE(kbc("new cuda/every-key " + kb.arg()).status == 0);
  const std::string text = "\n" + read(kb.root / "entries/cuda/every-key.yaml");
  const auto schema =
      nlohmann::json::parse(read(fs::path(KBC_SOURCE_DIR) / "schema/entry.schema.json"));
  std::set<std::string> required(schema["required"].begin(), schema["required"].end());
  for (const auto& [key, value] : schema["properties"].items()) {
    INFO(key);
    if (required.count(key)) {
      CHECK(text.find("\n" + key + ": ") != std::string::npos);
    } else {
      CHECK(text.find("\n# " + key + ": ") != std::string::npos);
    }
  }
}

TEST_CASE("a build on a terminal draws its progress bar on stderr, and erases it at the end") {
  TempKb kb;
  // 250 more entries, each with its own id, signature and regex, so that the build lasts past
  // the bar's delay (300 ms: about 2 s here, 20 s under the sanitizers) without cross-entry
  // findings between them.
  const std::string model =
      read(fs::path(KBC_SOURCE_DIR) / "entries/cuda/cudnn-bn-epsilon-too-small.yaml");
  constexpr int kCopies = 250;
  for (int i = 0; i < kCopies; ++i) {
    const std::string name = "copy-" + std::to_string(i);
    std::string text = with_line(model, "id:", "id: cuda/" + name);
    text = with_line(text, "signature:", "signature: 'Copy " + std::to_string(i) + " failed'");
    text = with_line(text, "regex:", "regex: 'Copy " + std::to_string(i) + " failed'");
    write(kb.root / ("entries/cuda/" + name + ".yaml"), text);
  }
  const Run run = kbc_on_terminal(
      {"build", "--keep-going", "--root", kb.root.string(), "--out", (kb.root / "out").string()},
      "1");
  INFO(run.output.substr(0, 2000));
  CHECK(run.status <= 1);
  // A bar of the phase at work, "[====>   ] done/total", redrawn in place and erased.
  CHECK(std::regex_search(run.output,
                          std::regex(R"((loading|records|entry pages) +\[=*>? *\] \d+/\d+)")));
  CHECK(run.output.find("\033[K") != std::string::npos);
  // Its last word is the summary, on a line of its own: the bar left nothing before it.
  CHECK(run.output.find("\033[Kkbc build: ") != std::string::npos);
}
