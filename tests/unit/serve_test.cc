// The parts of kbc serve that need no server: URL to file, content types, the live-reload tag,
// the status, and the source snapshots that decide when to build again.
#include <stdlib.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "base/output_tree.h"
#include "serve/dev_server.h"
#include "serve/live_reload.h"
#include "serve/site_files.h"
#include "serve/source_watcher.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using kbc::SiteLookup;

namespace {

const std::map<std::string, std::string> kFiles = {
    {"kb.json", "[]"},
    {"site/index.html", "root"},
    {"site/en/index.html", "home"},
    {"site/en/404.html", "missing"},
    {"site/zh/404.html", "缺失"},
    {"site/en/entries/cuda/x.html", "x"},
};

}  // namespace

TEST_CASE("find_site_file maps a URL to a file of the site, never outside it") {
  using Kind = SiteLookup::Kind;
  struct Case {
    std::string url;
    Kind kind;
    std::string key;
    std::string location;
  };
  const std::vector<Case> cases = {
      {"/", Kind::kFile, "site/index.html", ""},
      {"/en/", Kind::kFile, "site/en/index.html", ""},
      {"/en/entries/cuda/x.html", Kind::kFile, "site/en/entries/cuda/x.html", ""},
      {"/en", Kind::kRedirect, "", "en/"},
      {"/en/entries/cuda/y.html", Kind::kMissing, "site/en/404.html", ""},
      {"/zh/entries/cuda/x.html", Kind::kMissing, "site/zh/404.html", ""},
      {"/zh", Kind::kMissing, "site/zh/404.html", ""},  // no zh/index.html in this tree
      {"/en/entries/", Kind::kMissing, "site/en/404.html", ""},
      {"/../kb.json", Kind::kMissing, "site/en/404.html", ""},
      {"/en/../../kb.json", Kind::kMissing, "site/en/404.html", ""},
      {"/./index.html", Kind::kMissing, "site/en/404.html", ""},
      {"//index.html", Kind::kMissing, "site/en/404.html", ""},
      {"index.html", Kind::kMissing, "site/en/404.html", ""},
      {"", Kind::kMissing, "site/en/404.html", ""},
  };
  for (const Case& c : cases) {
    INFO(c.url);
    const SiteLookup found = kbc::find_site_file(kFiles, c.url, {"en", "zh"});
    CHECK(found.kind == c.kind);
    CHECK(found.key == c.key);
    CHECK(found.location == c.location);
  }
}

TEST_CASE("a missing page gets the 404 page of the site's language it is under, else the base's") {
  const auto not_found = [](std::string_view url, const std::vector<std::string>& languages) {
    return kbc::find_site_file(kFiles, url, languages).key;
  };
  CHECK(not_found("/ja/entries/cuda/x.html", {"ja", "en"}) == "site/ja/404.html");
  CHECK(not_found("/zh/entries/cuda/x.html", {"ja", "en"}) == "site/ja/404.html");
  CHECK(not_found("/en/nothing.html", {"ja", "en"}) == "site/en/404.html");
  CHECK(not_found("/ja", {"en", "zh", "ja"}) == "site/ja/404.html");
  CHECK(not_found("/japan/x.html", {"en", "ja"}) == "site/en/404.html");
}

TEST_CASE("content_type by extension") {
  CHECK(kbc::content_type("site/en/index.html") == "text/html; charset=utf-8");
  CHECK(kbc::content_type("site/assets/style.css") == "text/css; charset=utf-8");
  CHECK(kbc::content_type("site/assets/search.js") == "text/javascript; charset=utf-8");
  CHECK(kbc::content_type("site/api/cuda/x.json") == "application/json");
  CHECK(kbc::content_type("site/sitemap.xml") == "application/xml");
  CHECK(kbc::content_type("site/zh/feed.xml") == "application/atom+xml");
  CHECK(kbc::content_type("site/llms.txt") == "text/plain; charset=utf-8");
  CHECK(kbc::content_type("site/md/zh/cuda/x.md") == "text/markdown; charset=utf-8");
  CHECK(kbc::content_type("site/x.bin") == "application/octet-stream");
  CHECK(kbc::content_type("site/html") == "application/octet-stream");
}

TEST_CASE("with_live_reload adds the script before the last </body>") {
  kbc::BuildStatus status;
  status.server = "00ff";
  status.generation = 7;
  status.site_generation = 5;
  const std::string tag =
      "<script src=\"/__kbc/live-reload.js\" data-server=\"00ff\" data-generation=\"7\" "
      "data-site-generation=\"5\"></script>\n";
  CHECK(kbc::with_live_reload("<p>a</body>b</body>\n</html>\n", status) ==
        "<p>a</body>b" + tag + "</body>\n</html>\n");
  CHECK(kbc::with_live_reload("<P>a</BODY></HTML>", status) == "<P>a" + tag + "</BODY></HTML>");
  CHECK(kbc::with_live_reload("no body", status) == "no body" + tag);
  CHECK(kbc::live_reload_script().find("/__kbc/wait?since=") != std::string_view::npos);
}

TEST_CASE("status_json reports the latest build and what is served") {
  kbc::BuildStatus status;
  status.server = "ab";
  status.generation = 3;
  status.site_generation = 2;
  status.site_ok = true;
  status.entries = 14;
  status.diagnostics = {
      {"entries/cuda/x.yaml",
       {8, 11},
       kbc::Severity::kError,
       "dead_ends[0] has a blank action",
       "entry-blank-text",
       "- action: ''"},
      {"entries/cuda/x.yaml", {2, 1}, kbc::Severity::kWarning, "no <zh> text", "i18n-missing", ""},
  };
  const auto json = nlohmann::json::parse(kbc::status_json(status));
  CHECK(json["server"] == "ab");
  CHECK(json["generation"] == 3);
  CHECK(json["site_generation"] == 2);
  CHECK(json["site_ok"] == true);
  CHECK(json["ok"] == false);
  CHECK(json["entries"] == 14);
  CHECK(json["errors"] == 1);
  CHECK(json["warnings"] == 1);
  CHECK(json["failure"].is_null());
  REQUIRE(json["diagnostics"].size() == 2);
  CHECK(json["diagnostics"][0]["line"] == 8);
  CHECK(json["diagnostics"][0]["column"] == 11);
  CHECK(json["diagnostics"][0]["severity"] == "error");
  CHECK(json["diagnostics"][0]["rule"] == "entry-blank-text");
  CHECK(json["diagnostics"][0]["text"] ==
        "entries/cuda/x.yaml:8:11: error: dead_ends[0] has a blank action [entry-blank-text]\n"
        "  - action: ''\n            ^\n");
  CHECK(json["diagnostics"][1]["text"] ==
        "entries/cuda/x.yaml:2:1: warning: no <zh> text [i18n-missing]\n");

  status.diagnostics.erase(status.diagnostics.begin());
  CHECK(nlohmann::json::parse(kbc::status_json(status))["ok"] == true);  // warnings only
  status.failure = "no entries/ folder in kb";
  const auto failed = nlohmann::json::parse(kbc::status_json(status));
  CHECK(failed["ok"] == false);
  CHECK(failed["failure"] == "no entries/ folder in kb");
}

TEST_CASE("source snapshots see the files a build reads, and only those") {
  std::string pattern = (fs::temp_directory_path() / "kbc-watch-XXXXXX").string();
  const fs::path root = mkdtemp(pattern.data());
  const auto write = [&](const std::string& path, const std::string& text) {
    fs::create_directories((root / path).parent_path());
    std::ofstream(root / path, std::ios::binary) << text;
  };
  write("entries/cuda/x.yaml", "id: cuda/x\n");
  write("templates/site/entry.html.mustache", "{{body}}");
  write("kbc.yaml", "title: T\n");
  write("entries/cuda/x.py", "raise RuntimeError('x')\n");  // a recipe file
  write("verify.lock", "{}");
  const kbc::SourceSnapshot before = kbc::take_snapshot(root.string());
  CHECK(before.size() == 5);
  CHECK(before.count("entries/cuda/x.py"));
  CHECK(before.count("verify.lock"));
  CHECK(before.count("entries/cuda/x.yaml"));
  CHECK(before.count("templates/site/entry.html.mustache"));
  CHECK(before.count("kbc.yaml"));

  // What no build reads changes nothing.
  write("entries/cuda/.x.yaml.swp", "swap");
  write("entries/cuda/notes.txt", "notes");
  write("templates/site/.entry.html.mustache.swp", "swap");
  write("dist/site/index.html", "built");
  write(".kbc-cache/1/abc", "cache");
  write("README.md", "readme");
  CHECK(kbc::take_snapshot(root.string()) == before);

  // An edit that keeps the size (a second later: file times are only as fine as the kernel's
  // clock tick), a new entry, a removed file.
  write("entries/cuda/x.yaml", "id: cuda/y\n");
  const fs::path edited = root / "entries/cuda/x.yaml";
  fs::last_write_time(edited, fs::last_write_time(edited) + 1s);
  write("entries/cuda/y/z.yaml", "id: cuda/y/z\n");
  fs::remove(root / "kbc.yaml");
  const kbc::SourceSnapshot after = kbc::take_snapshot(root.string());
  CHECK(kbc::changed_paths(before, after) ==
        std::vector<std::string>{"entries/cuda/x.yaml", "entries/cuda/y/z.yaml", "kbc.yaml"});
  CHECK(kbc::changed_paths(after, after).empty());
  fs::remove_all(root);
  CHECK(kbc::take_snapshot(root.string()).empty());  // a vanished root is no error
}

namespace {

kbc::SiteUpdate update(const std::string& page, bool with_error) {
  auto tree = std::make_shared<kbc::OutputTree>();
  tree->add("site/en/index.html", page);
  kbc::SiteUpdate out;
  out.tree = tree;
  out.entries = 1;
  if (with_error)
    out.diagnostics.push_back(
        {"entries/x.yaml", {1, 1}, kbc::Severity::kError, "bad", "schema", ""});
  return out;
}

}  // namespace

TEST_CASE("DevServer::publish serves each build's site, and a failure of the tool keeps the last") {
  kbc::DevServer server;
  kbc::BuildStatus s = server.publish(update("a", false));
  CHECK(s.generation == 1);
  CHECK(s.site_generation == 1);
  CHECK(s.site_ok);
  CHECK(s.ok());

  // Errors: the entries without them are served, the others' pages show their errors.
  s = server.publish(update("b", true));
  CHECK(s.generation == 2);
  CHECK(s.site_generation == 2);
  CHECK_FALSE(s.site_ok);
  CHECK_FALSE(s.ok());
  CHECK(s.diagnostics.size() == 1);

  s = server.publish(update("b", false));  // the same site: no reload
  CHECK(s.generation == 3);
  CHECK(s.site_generation == 2);
  CHECK(s.site_ok);
  CHECK(s.ok());

  s = server.publish(update("c", false));
  CHECK(s.site_generation == 4);

  kbc::SiteUpdate failed;
  failed.failure = "no entries/ folder in kb";
  s = server.publish(failed);
  CHECK(s.generation == 5);
  CHECK(s.site_generation == 4);
  CHECK(s.site_ok);
  CHECK_FALSE(s.ok());
  CHECK(server.status().failure == "no entries/ folder in kb");
}
