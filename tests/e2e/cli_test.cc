// End-to-end tests: the real kbc binary on knowledge bases made in temporary folders.
#include <stdlib.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct Run {
  int status;
  std::string output;  // stdout and stderr together
};

Run kbc(const std::string& args) {
  const std::string command = std::string(KBC_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), output};
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Every file under `dir`, by relative path.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    if (item.is_regular_file()) files[fs::relative(item.path(), dir).string()] = read(item.path());
  }
  return files;
}

// A temporary knowledge base holding a copy of the shipped entries/.
struct TempKb {
  fs::path root;
  TempKb() {
    std::string pattern = (fs::temp_directory_path() / "kbc-e2e-XXXXXX").string();
    root = mkdtemp(pattern.data());
    fs::copy(fs::path(KBC_SOURCE_DIR) / "entries", root / "entries", fs::copy_options::recursive);
  }
  ~TempKb() { fs::remove_all(root); }
  std::string arg() const { return "--root " + root.string(); }
};

const std::string kBroken =
    "id: cuda/broken-entry\nsignature: 'CUDA error: broken'\nregex: 'CUDA error: broken'\n"
    "domain: cuda\ncategory: runtime_error\nroot_cause: Something.\n"
    "dead_ends:\n- action: ''\n  why_fails: It does not help.\n  fail_rate: 0.5\n"
    "workarounds: []\nverification_tier: ai_generated\nconfidence: 0.5\nfix_success_rate: 0.5\n"
    "resolvable: 'true'\nfirst_seen: '2024-01-01'\nlast_confirmed: '2024-01-01'\n"
    "last_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n";

}  // namespace

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
  for (const auto& item : fs::directory_iterator(kb.root)) {
    CHECK(item.path().filename().string().find(".tmp") ==
          std::string::npos);  // no staging left over
  }
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

namespace {

// A valid entry that leads to cuda/broken-entry.
const std::string kLeadsToBroken =
    "id: cuda/leads-to-broken\nsignature: 'CUDA error: leads on'\nregex: 'CUDA error: leads on'\n"
    "domain: cuda\ncategory: runtime_error\nroot_cause: 'Shown as <script>alert(1)</script>.'\n"
    "dead_ends: []\nworkarounds: []\nverification_tier: ai_generated\nconfidence: 0.5\n"
    "fix_success_rate: 0.5\nresolvable: 'true'\nfirst_seen: '2024-01-01'\n"
    "last_confirmed: '2024-01-01'\nlast_updated: '2024-01-01'\nevidence_count: 1\nlocale: en\n"
    "transition_graph:\n  leads_to:\n  - error_id: cuda/broken-entry\n    probability: 0.5\n";

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

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
    const auto index = nlohmann::json::parse(files.at("site/" + language + "/search-index.json"));
    CHECK(index["docs"].size() == bundle.size());
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
  CHECK(zh.find("class=\"lang-switch\" "
                "href=\"../../../en/entries/cuda/cudnn-bn-epsilon-too-small.html\"") !=
        std::string::npos);
  CHECK(zh.find("\"@type\":\"TechArticle\"") != std::string::npos);
  CHECK(zh.find("canonical") == std::string::npos);
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

TEST_CASE("kbc.yaml sets the title and base_url; its mistakes are diagnosed like an entry's") {
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
  CHECK(run.output.find("error: broken link to '../en/nowhere.html' [site-link]") !=
        std::string::npos);
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

TEST_CASE("a rebuild recycles the previous output and ends up exactly like a fresh build") {
  TempKb kb;
  const fs::path dist = kb.root / "dist", spare = kb.root / ".dist.kbc-spare";
  std::string extra = kLeadsToBroken.substr(0, kLeadsToBroken.find("transition_graph:"));
  while (extra.find("leads-to-broken") != std::string::npos)
    extra.replace(extra.find("leads-to-broken"), 15, "extra-entry");
  write(kb.root / "entries/cuda/extra-entry.yaml", extra);
  for (int i = 0; i < 3; ++i) REQUIRE(kbc("build " + kb.arg()).status == 0);
  REQUIRE(fs::exists(spare / ".kbc-output"));  // the output before last, kept to be rewritten

  // Change one entry, delete another, and plant in the spare a stray file and a symbolic link
  // where the build will write: none of it may survive or be followed.
  const fs::path entry = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string text = read(entry);
  text.replace(text.find("root_cause: '"), 13, "root_cause: 'Changed. ");
  write(entry, text);
  fs::remove(kb.root / "entries/cuda/extra-entry.yaml");
  write(kb.root / "outside.txt", "untouched");
  write(spare / "stray.txt", "stale");
  fs::remove(spare / "kb.json");
  fs::create_symlink(kb.root / "outside.txt", spare / "kb.json");

  const Run rebuilt = kbc("build " + kb.arg());
  INFO(rebuilt.output);
  REQUIRE(rebuilt.status == 0);
  REQUIRE(kbc("build " + kb.arg() + " --out " + (kb.root / "fresh").string()).status == 0);
  CHECK(snapshot(dist) == snapshot(kb.root / "fresh"));
  CHECK(read(kb.root / "outside.txt") == "untouched");
  CHECK_FALSE(fs::is_symlink(dist / "kb.json"));
  CHECK(read(dist / "api/cuda/cudnn-bn-epsilon-too-small.json").find("Changed. ") !=
        std::string::npos);
  CHECK(read(dist / "site/api/cuda/cudnn-bn-epsilon-too-small.json") ==
        read(dist / "api/cuda/cudnn-bn-epsilon-too-small.json"));
  CHECK_FALSE(fs::exists(dist / "site/en/entries/cuda/extra-entry.html"));
  CHECK_FALSE(fs::exists(dist / "api/cuda/extra-entry.json"));
  CHECK_FALSE(fs::exists(dist / "stray.txt"));
}
