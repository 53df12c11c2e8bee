// kbc build's output folder: written only where bytes change, never half-written, repaired after a
// killed build.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;

namespace {

// Every file under `dir`, by relative path; a symbolic link as "(link)", not followed (cli_test's
// snapshot follows them: its tests read knowledge bases that link entries in).
std::map<std::string, std::string> tree_snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    if (item.is_symlink()) files[fs::relative(item.path(), dir).string()] = "(link)";
    if (item.is_regular_file() && !item.is_symlink())
      files[fs::relative(item.path(), dir).string()] = read(item.path());
  }
  return files;
}

// Each file's inode and modification time (and the folders' with `folders`): a file written
// again, even with the same bytes, or replaced by a rename, changes one or the other.
std::map<std::string, std::pair<ino_t, std::int64_t>> stamps(const fs::path& dir,
                                                             bool folders = false) {
  std::map<std::string, std::pair<ino_t, std::int64_t>> out;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    REQUIRE(lstat(item.path().c_str(), &st) == 0);
    if (S_ISDIR(st.st_mode) && !folders) continue;
    out[fs::relative(item.path(), dir).string()] = {
        st.st_ino, std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec};
  }
  return out;
}

// The bytes this process and its waited-for children caused to be written to storage so far
// (/proc/self/io's write_bytes), or -1 where the kernel does not count them.
long long written_bytes() {
  std::ifstream io("/proc/self/io");
  std::string key;
  long long value = 0;
  while (io >> key >> value) {
    if (key == "write_bytes:") return value;
  }
  return -1;
}

// Changes the root cause of the seed's entry, so that its pages change.
void edit_seed_entry(const TempKb& kb, const std::string& words) {
  const fs::path entry = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string text = read(entry);
  REQUIRE(text.find("root_cause: '") != std::string::npos);
  text.replace(text.find("root_cause: '"), 13, "root_cause: '" + words + " ");
  write(entry, text);
}

// Writes cuda/extra-entry-copy: a copy of cuda/illegal-memory-access under its own id, with a
// signature of its own ("Extra copy ..."), confused with the entries the original is.
void write_extra_entry(const TempKb& kb) {
  std::string extra = read(kb.root / "entries/cuda/illegal-memory-access.yaml");
  while (extra.find("illegal-memory-access") != std::string::npos)
    extra.replace(extra.find("illegal-memory-access"), 21, "extra-entry-copy");
  extra.replace(extra.find("signature: '"), 12, "signature: 'Extra copy ");
  write(kb.root / "entries/cuda/extra-entry-copy.yaml", extra);
}

}  // namespace

TEST_CASE("an unchanged build writes nothing at all") {
  TempKb kb;
  // The entry files' stamps are trusted (and the table that records them written once more) only
  // when their times are older than the listing that recorded them by more than two seconds:
  // the unmeasured build below must list them after that, or the measured one writes the table.
  const auto settled = std::chrono::system_clock::now() + std::chrono::milliseconds(2200);
  const fs::path dist = kb.root / "dist";
  const long long before_cold = written_bytes();
  const Run cold = kbc("build " + kb.arg());
  REQUIRE(cold.status == 0);
  const long long after_cold = written_bytes();
  const auto before = stamps(dist, true);
  const auto bytes = tree_snapshot(dist);
  // The first read of a file written since it was last read updates its access time (relatime),
  // which the kernel counts as the reader's written bytes once the journal has committed the
  // file: an unmeasured build reads them all first.
  std::this_thread::sleep_until(settled);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const long long before_again = written_bytes();
  const Run again = kbc("build " + kb.arg());
  const long long after_again = written_bytes();
  INFO(again.output);
  REQUIRE(again.status == 0);
  CHECK(again.output.find("(0 written, 0 removed)") != std::string::npos);
  CHECK(stamps(dist, true) == before);
  CHECK(tree_snapshot(dist) == bytes);
  check_no_staging_left(kb.root);
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's runtime writes a file of its own at start (/tmp/tsan.rodata.<pid>).
  WARN("built with ThreadSanitizer: the bytes kbc writes are not checked");
  static_cast<void>(before_cold + after_cold + before_again + after_again);
#else
  if (before_cold < 0 || after_cold == before_cold) {
    WARN("this file system does not count written bytes in /proc/self/io");
  } else {
    CHECK(after_again - before_again == 0);
  }
#endif
}

TEST_CASE(
    "a build from the same inputs stops before rendering, and any other input renders again") {
  TempKb kb;
  const auto build = [&](const std::string& options) {
    const Run run = kbc("build --timings " + kb.arg() + options);
    INFO(run.output);
    REQUIRE(run.status == 0);
    return run.output;
  };
  const std::string first = build("");
  const std::string same = build("");
  CHECK(same.find("records and Markdown") == std::string::npos);  // skipped
  CHECK(same.find("(0 written, 0 removed)") != std::string::npos);
  // The same count of entries and files as the build that wrote them.
  const std::size_t counts = first.find("kbc build: ", first.find("kbc build: ") + 1);
  REQUIRE(counts != std::string::npos);
  CHECK(same.find(first.substr(counts, first.find(" files in ", counts) - counts)) !=
        std::string::npos);
  // Each of these changes what the build reads, so it renders again and writes something.
  CHECK(build(" --base-url https://kb.example/").find("records and Markdown") != std::string::npos);
  CHECK(build(" --base-url https://kb.example/").find("records and Markdown") == std::string::npos);
  write(kb.root / "kbc.yaml", "title: Another title\n");
  std::string changed = build(" --base-url https://kb.example/");
  CHECK(changed.find("(0 written") == std::string::npos);
  CHECK(read(kb.root / "dist/site/en/index.html").find("Another title") != std::string::npos);
  write(kb.root / "templates/site/not_found.html.mustache", "<h1>{{t.not_found_title}}!</h1>\n");
  changed = build(" --base-url https://kb.example/");
  CHECK(changed.find("(0 written") == std::string::npos);
  CHECK(read(kb.root / "dist/site/en/404.html").find("!</h1>") != std::string::npos);
  // The output edited by hand is not noticed (its manifest is trusted); --no-cache looks.
  write(kb.root / "dist/kb.json", "edited");
  CHECK(build(" --base-url https://kb.example/").find("(0 written") != std::string::npos);
  CHECK(build(" --no-cache --base-url https://kb.example/").find("(1 written") !=
        std::string::npos);
  CHECK(read(kb.root / "dist/kb.json") != "edited");
}

TEST_CASE("a build after a lint of the same entries reads them once and builds as without it") {
  TempKb kb;
  edit_seed_entry(kb, "Edited.");
  REQUIRE(kbc("lint " + kb.arg()).status == 0);  // leaves the findings and the load's summary
  const Run build = kbc("build --timings " + kb.arg() + " --base-url https://kb.example/");
  INFO(build.output);
  REQUIRE(build.status == 0);
  // The lint's findings were taken without reading the entries; then they were read, once.
  CHECK(build.output.find("read the entries") != std::string::npos);
  CHECK(build.output.find("  lint") == std::string::npos);
  const Run fresh = kbc("build --no-cache " + kb.arg() + " --out " + (kb.root / "fresh").string() +
                        " --base-url https://kb.example/");
  REQUIRE(fresh.status == 0);
  auto built = tree_snapshot(kb.root / "dist");
  auto expected = tree_snapshot(kb.root / "fresh");
  CHECK(built.size() == expected.size());
  CHECK(built == expected);
}

// A build keeps what it made of each entry (record, row) in the cache for the next build: what
// it takes from there must be what it would make, and a record it cannot read is made again.
TEST_CASE("records taken from the cache are the records a build without it makes") {
  TempKb kb;
  const std::string url = " --base-url https://kb.example/";
  REQUIRE(kbc("build " + kb.arg() + url).status == 0);
  // The records' pack (base/cache_pack.h) holds each record after its key, 64 hex digits: every
  // other key is changed, so that its record is not found.
  fs::path pack;
  for (const auto& item : fs::recursive_directory_iterator(kb.root / ".kbc-cache")) {
    if (item.path().filename() == "records" && item.is_regular_file()) pack = item.path();
  }
  REQUIRE(!pack.empty());
  std::string bytes = read(pack);
  const std::regex key("[0-9a-f]{64}\\{");
  std::size_t records = 0;
  for (auto it = std::sregex_iterator(bytes.begin(), bytes.end(), key);
       it != std::sregex_iterator(); ++it) {
    if (records++ % 2 == 0) bytes[static_cast<std::size_t>(it->position())] = 'x';
  }
  CHECK(records >= 4);
  write(pack, bytes);
  // A build through the cache and one without it, after an edit: the same files.
  const auto same_as_uncached = [&](const std::string& words) {
    edit_seed_entry(kb, words);
    const Run cached = kbc("build " + kb.arg() + " --out " + (kb.root / "cached").string() + url);
    INFO(cached.output);
    REQUIRE(cached.status == 0);
    REQUIRE(kbc("build --no-cache " + kb.arg() + " --out " + (kb.root / "fresh").string() + url)
                .status == 0);
    CHECK(tree_snapshot(kb.root / "cached") == tree_snapshot(kb.root / "fresh"));
  };
  same_as_uncached("Edited.");
  // Then from the records the damaged ones were replaced with, and the edit's record.
  same_as_uncached("Again.");
  // A pack that is not one is started anew.
  write(pack, "damaged");
  same_as_uncached("Again.");
  CHECK(read(kb.root / "cached/api/cuda/cudnn-bn-epsilon-too-small.json").find("Again. Edited.") !=
        std::string::npos);
}

// Runs at once on one cache: one holds each pack's lock and writes, the others only read it.
// Each must report and build what a run without the cache does, and so must the run after them.
TEST_CASE("kbc runs at once on one knowledge base each give what a run without the cache gives") {
  TempKb kb;
  const std::string url = " --base-url https://kb.example/";
  const auto build = [&](const std::string& options, const std::string& out) {
    return kbc("build " + options + kb.arg() + " --out " + (kb.root / out).string() + url);
  };
  REQUIRE(build("", "first").status == 0);
  for (const std::string words : {"Concurrent.", "Again.", "Once more."}) {
    edit_seed_entry(kb, words);
    auto one = std::async(std::launch::async, [&] { return build("", "one"); });
    auto two = std::async(std::launch::async, [&] { return build("", "two"); });
    auto lint = std::async(std::launch::async, [&] { return kbc("lint " + kb.arg()); });
    const Run first = one.get(), second = two.get(), linted = lint.get();
    INFO(first.output + second.output);
    REQUIRE(first.status == 0);
    REQUIRE(second.status == 0);
    REQUIRE(build("--no-cache ", "fresh").status == 0);
    const auto fresh = tree_snapshot(kb.root / "fresh");
    CHECK(tree_snapshot(kb.root / "one") == fresh);
    CHECK(tree_snapshot(kb.root / "two") == fresh);
    const Run uncached = kbc("lint --no-cache " + kb.arg());
    CHECK(linted.status == uncached.status);
    CHECK(linted.output == uncached.output);
    REQUIRE(build("", "after").status == 0);
    CHECK(tree_snapshot(kb.root / "after") == fresh);
  }
}

TEST_CASE("a search index updated from the last build's is the one a build without it makes") {
  TempKb kb;
  const std::string url = " --base-url https://kb.example/";
  const auto build = [&](const std::string& options, const std::string& out) {
    const Run run = kbc("build " + options + kb.arg() + " --out " + (kb.root / out).string() + url);
    INFO(run.output);
    REQUIRE(run.status == 0);
  };
  const auto search_files = [&](const std::string& out) {
    std::map<std::string, std::string> files;
    for (const auto& [path, bytes] : tree_snapshot(kb.root / out)) {
      if (path.find("/search/") != std::string::npos) files[path] = bytes;
    }
    return files;
  };
  build("", "cached");
  std::vector<fs::path> stored;
  for (const auto& item : fs::recursive_directory_iterator(kb.root / ".kbc-cache")) {
    if (item.path().parent_path().filename() == "search-index") stored.push_back(item.path());
  }
  CHECK(stored.size() == 2);  // en, zh
  // An entry edited and one added (its documents after it are numbered anew), then removed.
  edit_seed_entry(kb, "Searchable zebra words.");
  write_extra_entry(kb);
  build("", "cached");
  build("--no-cache ", "fresh");
  CHECK(search_files("cached") == search_files("fresh"));
  CHECK(search_files("cached").size() > 4);
  const auto files = search_files("cached");
  CHECK(std::ranges::any_of(files, [](const auto& file) {
    return file.first.starts_with("site/en/search/t") &&
           file.second.find("\"zebra\":[1,") != std::string::npos;
  }));
  fs::remove(kb.root / "entries/cuda/extra-entry-copy.yaml");
  build("", "cached");
  build("--no-cache ", "fresh");
  CHECK(search_files("cached") == search_files("fresh"));
  // A damaged stored index is not used.
  for (const fs::path& path : stored) {
    const std::string bytes = read(path);
    REQUIRE(bytes.size() > 200);
    write(path, bytes.substr(0, 100) + "x" + bytes.substr(101));
  }
  edit_seed_entry(kb, "Again.");
  build("", "cached");
  build("--no-cache ", "fresh");
  CHECK(search_files("cached") == search_files("fresh"));
}

TEST_CASE("an edit rewrites that entry's files and the pages that list it, nothing else") {
  TempKb kb;
  const fs::path dist = kb.root / "dist";
  REQUIRE(kbc("build " + kb.arg() + " --base-url https://kb.example/").status == 0);
  const auto before = stamps(dist);
  edit_seed_entry(kb, "Edited.");
  const Run edited = kbc("build " + kb.arg() + " --base-url https://kb.example/");
  INFO(edited.output);
  REQUIRE(edited.status == 0);
  std::set<std::string> changed;
  for (const auto& [path, stamp] : stamps(dist)) {
    if (!before.count(path) || before.at(path) != stamp) changed.insert(path);
  }
  const std::string id = "cuda/cudnn-bn-epsilon-too-small";
  for (const std::string& own : std::vector<std::string>{
           "api/" + id + ".json", "site/api/" + id + ".json", "md/en/" + id + ".md",
           "site/md/en/" + id + ".md", "site/en/entries/" + id + ".html", "kb.json", ".kbc-output"})
    CHECK(changed.count(own));
  for (const std::string& path : changed) {
    INFO(path);
    // Only the entry's own files, the bundle, indexes and listing pages may change.
    const bool allowed =
        path.find("cudnn-bn-epsilon-too-small") != std::string::npos || path == "kb.json" ||
        path == ".kbc-output" || path.find("/search/") != std::string::npos ||
        path.ends_with("match.json") || path.ends_with("index.html") ||
        path.find("/domains/") != std::string::npos || path.ends_with("feed.xml") ||
        path.ends_with("llms.txt") || path.ends_with("sitemap.xml");
    CHECK(allowed);
  }
  CHECK(changed.size() < before.size() / 4);
  CHECK_FALSE(changed.count("site/en/entries/cuda/illegal-memory-access.html"));
  CHECK_FALSE(changed.count("site/assets/style.css"));
  // The manifest is written too, and not counted.
  CHECK(edited.output.find("(" + std::to_string(changed.size() - 1) + " written, 0 removed)") !=
        std::string::npos);
}

TEST_CASE("match.json follows an edit of one language's title, as a fresh build makes it") {
  TempKb kb;
  const fs::path dist = kb.root / "dist";
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const std::string en = read(dist / "site/en/match.json");
  const fs::path entry = kb.root / "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
  std::string text = read(entry);
  const std::string title = "时返回 CUDNN_STATUS_BAD_PARAM，epsilon=1e-06'";
  REQUIRE(text.find(title) != std::string::npos);
  text.replace(text.find(title), title.size(),
               "时返回 CUDNN_STATUS_BAD_PARAM（已改），epsilon=1e-06'");
  write(entry, text);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(read(dist / "site/zh/match.json").find("（已改）") != std::string::npos);
  CHECK(read(dist / "site/en/match.json") == en);
  REQUIRE(kbc("build " + kb.arg() + " --out " + (kb.root / "fresh").string()).status == 0);
  for (const char* file : {"site/en/match.json", "site/zh/match.json"}) {
    INFO(file);
    CHECK(read(dist / file) == read(kb.root / "fresh" / file));
  }
}

TEST_CASE(
    "a rebuild ends exactly like a fresh build, and --no-cache also clears what was planted") {
  TempKb kb;
  const fs::path dist = kb.root / "dist";
  write_extra_entry(kb);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  REQUIRE(fs::exists(dist / "api/cuda/extra-entry-copy.json"));
  // One entry changed, another deleted: the rebuild follows, with its manifest alone.
  edit_seed_entry(kb, "Changed.");
  fs::remove(kb.root / "entries/cuda/extra-entry-copy.yaml");
  const Run rebuilt = kbc("build " + kb.arg());
  INFO(rebuilt.output);
  REQUIRE(rebuilt.status == 0);
  REQUIRE(kbc("build " + kb.arg() + " --out " + (kb.root / "fresh").string()).status == 0);
  CHECK(tree_snapshot(dist) == tree_snapshot(kb.root / "fresh"));
  CHECK_FALSE(fs::exists(dist / "api/cuda/extra-entry-copy.json"));
  CHECK_FALSE(fs::exists(dist / "api/cuda/extra-entry-copy"));
  CHECK(read(dist / "site/api/cuda/cudnn-bn-epsilon-too-small.json") ==
        read(dist / "api/cuda/cudnn-bn-epsilon-too-small.json"));

  // Plant a stray file, a link where a file goes and a link to a folder outside where a folder
  // goes: --no-cache compares every byte and removes what kbc would not write, following none.
  write(kb.root / "outside.txt", "untouched");
  write(dist / "stray.txt", "stale");
  fs::remove(dist / "kb.json");
  fs::create_symlink(kb.root / "outside.txt", dist / "kb.json");
  write(kb.root / "elsewhere/keep.txt", "untouched");
  fs::remove_all(dist / "md");
  fs::create_directory_symlink(kb.root / "elsewhere", dist / "md");
  fs::remove_all(dist / "api/cuda");
  write(dist / "api/cuda", "a file where a folder goes");
  const Run verified = kbc("build --no-cache " + kb.arg());
  INFO(verified.output);
  REQUIRE(verified.status == 0);
  CHECK(tree_snapshot(dist) == tree_snapshot(kb.root / "fresh"));
  CHECK(read(kb.root / "outside.txt") == "untouched");
  CHECK(tree_snapshot(kb.root / "elsewhere").size() == 1);
  check_no_staging_left(kb.root);
}

TEST_CASE("pages are reused while what they show is unchanged, and link-checked when files go") {
  TempKb kb;
  const fs::path dist = kb.root / "dist";
  // An extra entry, confused with another (whose page then lists it), and linked to from the
  // seed entry's text.
  write_extra_entry(kb);
  edit_seed_entry(kb, "See [the copy](extra-entry-copy.html).");
  const std::string build = "build --base-url https://kb.example/ " + kb.arg();
  REQUIRE(kbc(build).status == 0);
  const std::string seed_page = "site/en/entries/cuda/cudnn-bn-epsilon-too-small.html";
  CHECK(read(dist / ".kbc-output").find("\t" + seed_page + "\t") != std::string::npos);

  // The extra entry's title changes: the page that lists it follows, as a fresh build has it.
  const fs::path extra_file = kb.root / "entries/cuda/extra-entry-copy.yaml";
  std::string renamed = read(extra_file);
  renamed.replace(renamed.find("signature: 'Extra copy "), 23, "signature: 'Renamed copy ");
  write(extra_file, renamed);
  const auto before = stamps(dist);
  const Run rebuilt = kbc(build);
  INFO(rebuilt.output);
  REQUIRE(rebuilt.status == 0);
  const std::string lister = "site/en/entries/pytorch/device-side-assert-triggered.html";
  CHECK(read(dist / lister).find("Renamed copy") != std::string::npos);
  CHECK(before.at(lister) != stamps(dist).at(lister));
  CHECK(before.at(seed_page) == stamps(dist).at(seed_page));
  REQUIRE(kbc(build + " --no-cache --out " + (kb.root / "fresh").string()).status == 0);
  CHECK(tree_snapshot(dist) == tree_snapshot(kb.root / "fresh"));

  // The extra entry goes: the seed's page is unchanged, but its link now leads nowhere.
  fs::remove(extra_file);
  const auto kept = tree_snapshot(dist);
  const Run broken = kbc(build);
  CHECK(broken.status == 1);
  CHECK(broken.output.find(seed_page + ":") != std::string::npos);
  CHECK(broken.output.find("broken link to 'extra-entry-copy.html'") != std::string::npos);
  CHECK(tree_snapshot(dist) == kept);
}

TEST_CASE("a build killed at any moment leaves whole files, and the next build repairs it") {
  TempKb kb;
  const fs::path out = kb.root / "dist";
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  std::mt19937 random(7);
  for (int round = 0; round < 12; ++round) {
    edit_seed_entry(kb, "Round " + std::to_string(round) + ".");
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      execl(KBC_BINARY, KBC_BINARY, "build", "--root", kb.root.c_str(), "--no-cache", nullptr);
      _exit(127);
    }
    usleep(static_cast<useconds_t>(random() % 150000));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    // Every file is whole: the bundle and each record parse.
    REQUIRE(fs::exists(out / ".kbc-output"));
    CHECK_NOTHROW(nlohmann::json::parse(read(out / "kb.json")));
    CHECK_NOTHROW(nlohmann::json::parse(read(out / "api/cuda/cudnn-bn-epsilon-too-small.json")));
  }
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  check_no_staging_left(kb.root);
  REQUIRE(kbc("build " + kb.arg() + " --out " + (kb.root / "fresh").string()).status == 0);
  CHECK(tree_snapshot(out) == tree_snapshot(kb.root / "fresh"));
}
