// OutputStage on a real file system: what a commit writes, and what the next build does with
// what a killed one left.
#include "base/output_stage.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/output_tree.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using kbc_test::TempDir;

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

// The files under `dir` (links shown as "(link)"), the manifest left out.
std::map<std::string, std::string> files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& item : fs::recursive_directory_iterator(dir)) {
    const std::string path = fs::relative(item.path(), dir).string();
    if (item.is_symlink())
      out[path] = "(link)";
    else if (item.is_regular_file() && path != ".kbc-output")
      out[path] = read(item.path());
  }
  return out;
}

std::int64_t modified(const fs::path& path) {
  struct stat st {};
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec + st.st_ino;
}

kbc::OutputStage::Summary build(const fs::path& out, const std::map<std::string, std::string>& tree,
                                bool verify = false) {
  kbc::OutputStage stage(out.string(), verify);
  kbc::OutputTree output(stage);
  for (const auto& [path, content] : tree) output.add(path, content);
  return stage.commit();
}

const std::map<std::string, std::string> kFirst = {
    {"a.html", "A"}, {"b/c.html", "C"}, {"b/d/e.json", "E"}};

}  // namespace

TEST_CASE("a stage writes only the files whose bytes change and removes the ones that went") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  CHECK(build(out, kFirst).written == 3);
  CHECK(files(out) == kFirst);
  CHECK(read(out / ".kbc-output").starts_with("kbc-output 2\n"));
  const auto a = modified(out / "a.html"), manifest = modified(out / ".kbc-output");

  const kbc::OutputStage::Summary same = build(out, kFirst);
  CHECK(same.written == 0);
  CHECK(same.removed == 0);
  CHECK(modified(out / ".kbc-output") == manifest);

  auto second = kFirst;
  second["b/c.html"] = "C2";
  second.erase("b/d/e.json");
  second["f/g.html"] = "G";
  const kbc::OutputStage::Summary changed = build(out, second);
  CHECK(changed.written == 2);
  CHECK(changed.removed == 1);
  CHECK(files(out) == second);
  CHECK(modified(out / "a.html") == a);
  CHECK_FALSE(fs::exists(out / "b/d"));  // emptied folders go too
  CHECK_FALSE(fs::exists(dir.root / ".dist.kbc-stage"));
}

TEST_CASE("a manifest of many pieces lists every file once, in order, and reads back whole") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const std::string long_name(100, 'n');
  const auto path = [&](int i) { return "d/" + long_name + "-" + std::to_string(i) + ".txt"; };
  constexpr int kFiles = 9000;  // about 1.3 MB of manifest: two pieces
  {
    kbc::OutputStage stage(out.string(), false);
    for (int i = 0; i < kFiles; ++i) stage.put(path(i), std::to_string(i), std::string(32, 'b'));
    CHECK(stage.commit().written == kFiles);
  }
  const std::string manifest = read(out / ".kbc-output");
  CHECK(manifest.size() > (std::size_t{1} << 20));
  std::vector<std::string> listed;
  std::istringstream lines(manifest);
  std::string line;
  std::getline(lines, line);
  CHECK(line == "kbc-output 2");
  while (std::getline(lines, line)) {
    const std::size_t path_at = line.find('\t', line.find('\t') + 1) + 1;
    listed.push_back(line.substr(path_at, line.find('\t', path_at) - path_at));
    CHECK(line.ends_with("\t" + std::string(32, 'b')));
  }
  std::vector<std::string> expected;
  for (int i = 0; i < kFiles; ++i) expected.push_back(path(i));
  std::sort(expected.begin(), expected.end());
  CHECK(listed == expected);
  {
    kbc::OutputStage again(out.string(), false);
    for (int i = 0; i < kFiles; ++i) CHECK(again.reuse(path(i), std::string(32, 'b')));
    CHECK_FALSE(again.drops_files());
    CHECK(again.commit().written == 0);
    CHECK(read(out / ".kbc-output") == manifest);
  }
  // Every file but the last, the first of them twice: one goes, and only it.
  kbc::OutputStage fewer(out.string(), false);
  for (int i = 0; i + 1 < kFiles; ++i) CHECK(fewer.reuse(path(i), std::string(32, 'b')));
  fewer.put(path(0), "0", std::string(32, 'b'));
  CHECK(fewer.drops_files());
  const kbc::OutputStage::Summary summary = fewer.commit();
  CHECK(summary.written == 0);
  CHECK(summary.removed == 1);
  CHECK_FALSE(fs::exists(out / path(kFiles - 1)));
  CHECK(fs::exists(out / path(kFiles - 2)));
}

TEST_CASE("the manifest after changes is the manifest of a fresh build of the same files") {
  TempDir dir;
  // Files put with keys, some without: changed bytes, a changed key alone, a file gone, files
  // new before, between and after the old ones.
  using Files = std::map<std::string, std::pair<std::string, std::string>>;  // bytes, key
  const auto key = [](char c) { return std::string(32, c); };
  const auto commit = [](const fs::path& out, const Files& tree) {
    kbc::OutputStage stage(out.string(), false);
    stage.set_inputs("inputs of " + std::to_string(tree.size()));
    for (const auto& [path, file] : tree) stage.put(path, file.first, file.second);
    return stage.commit();
  };
  const Files first = {{"b.html", {"B", key('1')}},
                       {"c/d.html", {"D", ""}},
                       {"c/e.html", {"E", key('2')}},
                       {"f.json", {"F", key('3')}},
                       {"g.md", {"G", ""}}};
  Files second = first;
  second["b.html"].first = "B2";
  second["c/e.html"].second = key('4');  // the same bytes, made from something else
  second.erase("f.json");
  second["a.txt"] = {"A", ""};
  second["c/da.html"] = {"DA", key('5')};
  second["h/i.txt"] = {"I", key('6')};
  const fs::path out = dir.root / "dist", fresh = dir.root / "fresh";
  commit(out, first);
  const kbc::OutputStage::Summary summary = commit(out, second);
  CHECK(summary.written == 4);
  CHECK(summary.removed == 1);
  commit(fresh, second);
  CHECK(read(out / ".kbc-output") == read(fresh / ".kbc-output"));
  CHECK(read(out / ".kbc-output").find("\t" + key('4')) != std::string::npos);

  // A manifest out of order (not as kbc writes it) is not merged: the next one is in order.
  std::string manifest = read(out / ".kbc-output");
  const std::size_t second_line = manifest.find('\n') + 1,
                    third_line = manifest.find('\n', second_line) + 1,
                    fourth_line = manifest.find('\n', third_line) + 1;
  manifest = manifest.substr(0, second_line) +
             manifest.substr(third_line, fourth_line - third_line) +
             manifest.substr(second_line, third_line - second_line) + manifest.substr(fourth_line);
  write(out / ".kbc-output", manifest);
  second["g.md"].first = "G2";
  commit(out, second);
  commit(fresh, second);
  CHECK(read(out / ".kbc-output") == read(fresh / ".kbc-output"));

  // A path listed twice: its last line counts, as when lines are read in turn.
  manifest = read(out / ".kbc-output");
  const std::size_t g_end = manifest.find("\tg.md\n") + 6;
  const std::size_t g_start = manifest.rfind('\n', g_end - 2) + 1;
  std::string wrong = manifest.substr(g_start, g_end - g_start);
  wrong[0] = wrong[0] == '0' ? '1' : '0';  // another digest
  const std::size_t body = manifest.find('\n') + 1;
  write(out / ".kbc-output", manifest.substr(0, body) + wrong + manifest.substr(body));
  CHECK(commit(out, second).written == 0);
  write(out / ".kbc-output", manifest + wrong);
  CHECK(commit(out, second).written == 1);
  CHECK(read(out / ".kbc-output") == read(fresh / ".kbc-output"));
}

TEST_CASE("a file put in pieces holds their bytes, and is the file put whole") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const std::vector<std::string_view> pieces = {"[\n", "  1", ",\n  2", "\n]\n"};
  {
    kbc::OutputStage stage(out.string(), false);
    stage.put_pieces("kb.json", pieces);
    CHECK(stage.commit().written == 1);
  }
  CHECK(read(out / "kb.json") == "[\n  1,\n  2\n]\n");
  for (const bool verify : {false, true}) {
    {
      kbc::OutputStage whole(out.string(), verify);
      whole.put("kb.json", "[\n  1,\n  2\n]\n");
      CHECK(whole.commit().written == 0);
    }
    kbc::OutputStage again(out.string(), verify);
    again.put_pieces("kb.json", pieces);
    CHECK(again.commit().written == 0);
  }
  {  // the same size, one byte apart: compared piece by piece, not by size
    kbc::OutputStage verified(out.string(), true);
    verified.put_pieces("kb.json", std::vector<std::string_view>{"[\n", "  1,", "\n  3", "\n]\n"});
    CHECK(verified.commit().written == 1);
  }
  CHECK(read(out / "kb.json") == "[\n  1,\n  3\n]\n");
  kbc::OutputStage other(out.string(), false);
  other.put_pieces("kb.json", std::vector<std::string_view>{"[", "]\n"});
  CHECK(other.commit().written == 1);
  CHECK(read(out / "kb.json") == "[]\n");
}

TEST_CASE("a file of more pieces than one write call takes holds them all, in order") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  std::vector<std::string> texts;
  std::string whole;
  for (int k = 0; k < 3000; ++k) {  // several calls' worth, some pieces empty
    texts.push_back(k % 7 == 0 ? "" : std::to_string(k) + std::string(k % 13, 'x') + "\n");
    whole += texts.back();
  }
  const std::vector<std::string_view> pieces(texts.begin(), texts.end());
  kbc::OutputStage stage(out.string(), false);
  stage.put_pieces("kb.json", pieces);
  CHECK(stage.commit().written == 1);
  CHECK(read(out / "kb.json") == whole);
}

TEST_CASE("a large file is written while its digest is taken, and only kept when it changed") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const std::string big(5 << 20, 'x');  // above the size written and digested at once
  const std::vector<std::string_view> pieces = {"[", big, "]\n"};
  const auto put = [&](const std::vector<std::string_view>& bytes) {
    kbc::OutputStage stage(out.string(), false);
    stage.put_pieces("kb.json", bytes);
    stage.put("a.html", "A");
    const bool staged = stage.staged_file("kb.json").has_value();
    return std::pair(stage.commit().written, staged);
  };
  CHECK(put(pieces) == std::pair<std::size_t, bool>(2, true));
  CHECK(read(out / "kb.json") == "[" + big + "]\n");
  const auto before = modified(out / "kb.json");
  CHECK(put(pieces) == std::pair<std::size_t, bool>(0, false));  // the same bytes: not kept
  CHECK(modified(out / "kb.json") == before);
  CHECK_FALSE(fs::exists(dir.root / ".dist.kbc-stage"));
  const std::string other = "[" + big + "y]\n";
  CHECK(put({other}) == std::pair<std::size_t, bool>(1, true));
  CHECK(read(out / "kb.json") == other);
}

TEST_CASE("a large file made from a key is not digested: written when the key changes only") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const std::string big(5 << 20, 'x');
  const auto put = [&](const std::string& bytes, const std::string& key) {
    kbc::OutputStage stage(out.string(), false);
    stage.put_pieces("kb.json", {{std::string_view(bytes)}}, key);
    const bool staged = stage.staged_file("kb.json").has_value();
    return std::pair(stage.commit().written, staged);
  };
  const std::string key1(32, '1'), key2(32, '2');
  CHECK(put(big, key1) == std::pair<std::size_t, bool>(1, true));
  CHECK(read(out / "kb.json") == big);
  const auto before = modified(out / "kb.json");
  CHECK(put(big, key1) == std::pair<std::size_t, bool>(0, false));  // the same key: kept
  CHECK(modified(out / "kb.json") == before);
  // The key names the bytes: with the same key and size, the bytes are not looked at.
  std::string other = big;
  other.back() = 'y';
  CHECK(put(other, key1) == std::pair<std::size_t, bool>(0, false));
  CHECK(read(out / "kb.json") == big);
  CHECK(put(other, key2) == std::pair<std::size_t, bool>(1, true));
  CHECK(read(out / "kb.json") == other);
  CHECK(put(big + "y", key2) == std::pair<std::size_t, bool>(1, true));  // another size
  CHECK(read(out / "kb.json") == big + "y");
  // Without a key its bytes are digested again: the digest differs from the key, so it is written.
  CHECK(put(big + "y", "") == std::pair<std::size_t, bool>(1, true));
  CHECK(put(big + "y", "") == std::pair<std::size_t, bool>(0, false));
  // A verifying stage compares the bytes, key or not.
  {
    kbc::OutputStage stage(out.string(), true);
    stage.put_pieces("kb.json", {{std::string_view(big)}}, key2);
    CHECK(stage.commit().written == 1);
  }
  CHECK(read(out / "kb.json") == big);
}

TEST_CASE("a file put with the bytes the output holds is read from the output until the commit") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, {{"kb.json", "[1,2]\n"}, {"a.html", "A"}});
  {
    kbc::OutputStage stage(out.string(), false);
    stage.put("kb.json", "[1,2]\n");
    stage.put("a.html", "B");
    CHECK_FALSE(stage.staged_file("kb.json"));
    const std::optional<kbc::ScratchFile> kept = stage.put_file("kb.json");
    REQUIRE(kept);
    CHECK(kept->read(1, 3) == "1,2");
    const std::optional<kbc::ScratchFile> changed = stage.put_file("a.html");  // the staged one
    REQUIRE(changed);
    CHECK(changed->read(0, 1) == "B");
    CHECK(stage.staged_file("a.html"));
    CHECK_FALSE(stage.put_file("b.html"));  // not put
    stage.commit();
  }
  {
    kbc::OutputStage stage(out.string(), false);
    stage.put("kb.json", "[1,2]\n");
    write(out / "kb.json", "[1,2,3]\n");  // changed by hand since: not the bytes recorded
    CHECK_FALSE(stage.put_file("kb.json"));
  }
}

TEST_CASE("a manifest's first line is read at once, the rest when a file is put; damage counts") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree output(stage);
    for (const auto& [path, content] : kFirst) output.add(path, content);
    stage.set_inputs("inputs-1");
    stage.commit();
  }
  const std::string manifest = read(out / ".kbc-output");
  {
    const kbc::OutputStage stage(out.string(), false);  // a build that stops here
    CHECK(stage.built_from() == "inputs-1");
    CHECK(stage.files_held() == 3);
  }
  // A damaged line after the first: the files are compared byte for byte when first put, and
  // what kbc did not write is removed.
  write(out / ".kbc-output", manifest + "not a manifest line\n");
  write(out / "stray.html", "S");
  kbc::OutputStage stage(out.string(), false);
  CHECK(stage.files_held() == 4);
  kbc::OutputTree output(stage);
  for (const auto& [path, content] : kFirst) output.add(path, content);
  const kbc::OutputStage::Summary summary = stage.commit();
  CHECK(summary.written == 0);
  CHECK(summary.removed == 1);
  CHECK(files(out) == kFirst);
  CHECK(read(out / ".kbc-output").starts_with("kbc-output 2\n"));
}

TEST_CASE("a manifest finds every file, its lines in any order, and is distrusted when damaged") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const auto path = [](int i) { return "p/" + std::to_string(i) + ".txt"; };
  constexpr int kFiles = 2000;
  {
    kbc::OutputStage stage(out.string(), false);
    for (int i = 0; i < kFiles; ++i) stage.put(path(i), std::to_string(i), std::string(32, 'c'));
    stage.commit();
  }
  const std::string manifest = read(out / ".kbc-output");
  std::vector<std::string> lines;
  std::istringstream in(manifest);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // The first and the last file's lines swapped, and the first line again at the end: read as
  // a map assigned in turn.
  std::swap(lines[1], lines.back());
  lines.push_back(lines[1]);
  std::string shuffled;
  for (const std::string& line : lines) shuffled += line + "\n";
  write(out / ".kbc-output", shuffled);
  {
    kbc::OutputStage again(out.string(), false);
    for (int i = 0; i < kFiles; ++i) CHECK(again.reuse(path(i), std::string(32, 'c')));
    CHECK_FALSE(again.drops_files());
    CHECK(again.commit().written == 0);
  }
  // A damaged line at the end: compared byte for byte, nothing reused.
  write(out / ".kbc-output", manifest + "damaged\n");
  kbc::OutputStage damaged(out.string(), false);
  CHECK_FALSE(damaged.reuse(path(kFiles - 1), std::string(32, 'c')));
  for (int i = 0; i < kFiles; ++i) damaged.put(path(i), std::to_string(i), std::string(32, 'c'));
  CHECK(damaged.commit().written == 0);
  CHECK(read(out / ".kbc-output") == manifest);
}

TEST_CASE("a stage that is not committed leaves the output as it was and nothing beside it") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, kFirst);
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree output(stage);
    output.add("a.html", "changed");
    output.add("new/file.html", "new");
    CHECK(fs::exists(dir.root / ".dist.kbc-stage/new/file.html"));
  }
  CHECK(files(out) == kFirst);
  CHECK_FALSE(fs::exists(dir.root / ".dist.kbc-stage"));
}

TEST_CASE("the next stage carries out the journal of a commit that was killed, or drops it") {
  TempDir dir;
  const fs::path out = dir.root / "dist", staging = dir.root / ".dist.kbc-stage";
  build(out, kFirst);
  const std::string manifest = read(out / ".kbc-output");
  // A commit killed after its journal was made valid and its first move done: b/c.html is
  // already new, a.html still waits in the staging folder, b/d/e.json is still to be removed.
  write(staging / "a.html", "A2");
  write(out / "b/c.html", "C2");
  write(staging / ".kbc-output", manifest);
  write(staging / ".kbc-journal",
        "remove\tb/d/e.json\nmove\tb/c.html\nmove\ta.html\nmove\t.kbc-output\n");
  { kbc::OutputStage stage(out.string(), false); }
  CHECK(files(out) == std::map<std::string, std::string>{{"a.html", "A2"}, {"b/c.html", "C2"}});
  CHECK_FALSE(fs::exists(staging));

  // Killed before the journal was valid: the staged files are dropped, the output stays.
  write(staging / "a.html", "A3");
  write(staging / ".kbc-journal.tmp", "move\ta.html\n");
  { kbc::OutputStage stage(out.string(), false); }
  CHECK(read(out / "a.html") == "A2");
  CHECK_FALSE(fs::exists(staging));
}

TEST_CASE("verify compares bytes, removes strays and never writes through a link") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, kFirst);
  write(dir.root / "outside/x.json", "outside");
  write(out / "stray.txt", "stray");
  write(out / "a.html", "edited by hand");  // the manifest does not see it
  fs::remove_all(out / "b/d");
  fs::create_directory_symlink(dir.root / "outside", out / "b/d");
  CHECK(build(out, kFirst).written == 0);  // trusted manifest: nothing noticed
  const kbc::OutputStage::Summary verified = build(out, kFirst, true);
  CHECK(verified.written == 2);  // a.html and b/d/e.json
  CHECK(files(out) == kFirst);
  CHECK(read(dir.root / "outside/x.json") == "outside");
  CHECK_FALSE(fs::exists(dir.root / "outside/e.json"));
}

TEST_CASE("a file that went is not removed through a link put in the output by hand") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, kFirst);
  write(dir.root / "outside/e.json", "outside");
  fs::remove_all(out / "b/d");
  fs::create_directory_symlink(dir.root / "outside", out / "b/d");
  auto fewer = kFirst;
  fewer.erase("b/d/e.json");
  build(out, fewer);
  CHECK(read(dir.root / "outside/e.json") == "outside");
}

TEST_CASE("a stage refuses a folder kbc did not write, and takes an empty one") {
  TempDir dir;
  write(dir.root / "mine/notes.txt", "keep");
  CHECK_THROWS_AS(kbc::OutputStage((dir.root / "mine").string(), false), kbc::ToolError);
  fs::create_directory(dir.root / "empty");
  build(dir.root / "empty", kFirst);
  CHECK(files(dir.root / "empty") == kFirst);
  build(dir.root / "missing/parents/out", kFirst);
  CHECK(files(dir.root / "missing/parents/out") == kFirst);
}

TEST_CASE("an output tree refuses paths outside its folder or with control characters") {
  kbc::OutputTree tree;
  for (const char* path : {"", "/abs", "a/../../b", "a//b", "./a", "a/", "a\nb", "a\tb"})
    CHECK_THROWS_AS(tree.add(path, ""), kbc::ToolError);
  tree.add_with_copy("api/x.json", "site/api/x.json", "{}");
  CHECK(tree.files().size() == 2);
  CHECK(tree.files().at("site/api/x.json") == "{}");
  CHECK(tree.contains("api/x.json"));
}

TEST_CASE("a file made from the same key is put again unread, and only then") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  // Keys as kbc makes them (32 hex digits, kept as they are), and any other ("key-c": kept as
  // its digest's 32 hex digits).
  const std::string key_a(32, 'a'), key_a2 = std::string(31, 'a') + "2";
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree tree(stage);
    tree.add("a.html", "A", key_a);
    tree.add("b.html", "B");  // no key: never reused
    tree.add_with_copy("c.md", "site/c.md", "C", "key-c");
    CHECK_FALSE(tree.drops_files());
    CHECK(stage.commit().written == 4);
  }
  CHECK(read(out / ".kbc-output").find("\ta.html\t" + key_a + "\n") != std::string::npos);
  const auto a = modified(out / "a.html");
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree tree(stage);
    CHECK_FALSE(tree.reuse("a.html", "key-other"));
    CHECK_FALSE(tree.reuse("b.html", ""));
    CHECK_FALSE(tree.reuse("new.html", key_a));
    CHECK(tree.reuse("a.html", key_a));
    CHECK_FALSE(tree.reuse_with_copy("c.md", "site/c.md", "key-d"));
    CHECK(tree.contains("a.html"));
    CHECK(tree.drops_files());  // b.html, c.md and its copy are not in yet
    CHECK(tree.reuse_with_copy("c.md", "site/c.md", "key-c"));
    tree.add("b.html", "B");
    CHECK_FALSE(tree.drops_files());
    const kbc::OutputStage::Summary summary = stage.commit();
    CHECK(summary.written == 0);
    CHECK(summary.removed == 0);
  }
  CHECK(files(out) == std::map<std::string, std::string>{
                          {"a.html", "A"}, {"b.html", "B"}, {"c.md", "C"}, {"site/c.md", "C"}});
  CHECK(modified(out / "a.html") == a);
  const std::string manifest = read(out / ".kbc-output");
  const std::size_t c_line = manifest.find("\tc.md\t");
  REQUIRE(c_line != std::string::npos);
  const std::string c_key = manifest.substr(c_line + 6, manifest.find('\n', c_line) - c_line - 6);
  CHECK(c_key.size() == 32);
  CHECK(c_key.find_first_not_of("0123456789abcdef") == std::string::npos);
  // The key is kept for the next build; a file added anew takes the new one.
  CHECK(read(out / ".kbc-output").find("\ta.html\t" + key_a + "\n") != std::string::npos);
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree tree(stage);
    tree.add("a.html", "A2", key_a2);
    CHECK(stage.commit().written == 1);
  }
  CHECK(read(out / ".kbc-output").find("\ta.html\t" + key_a2 + "\n") != std::string::npos);
  // With verify (kbc build --no-cache) nothing is reused.
  kbc::OutputStage verify(out.string(), true);
  CHECK_FALSE(verify.reuse("a.html", key_a2));
}

TEST_CASE("a copy is linked to its staged source, replaced when put again, else written") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  const auto inode = [](const fs::path& path) {
    struct stat st {};
    REQUIRE(lstat(path.c_str(), &st) == 0);
    return std::pair{st.st_ino, st.st_nlink};
  };
  {
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree tree(stage);
    tree.add_with_copy("c.md", "site/c.md", "C1");
    tree.add_with_copy("c.md", "site/c.md", "C2");  // the staged copy is replaced, not its source
    tree.add("d.md", "D");
    CHECK(stage.commit().written == 3);
  }
  CHECK(files(out) ==
        std::map<std::string, std::string>{{"c.md", "C2"}, {"d.md", "D"}, {"site/c.md", "C2"}});
  CHECK(inode(out / "site/c.md") == inode(out / "c.md"));
  CHECK(inode(out / "c.md").second == 2);
  {
    // d.md is not staged (its bytes are the output's): its new copy is written, not linked.
    kbc::OutputStage stage(out.string(), false);
    kbc::OutputTree tree(stage);
    tree.add_with_copy("c.md", "site/c.md", "C2");
    tree.add_with_copy("d.md", "site/d.md", "D");
    CHECK(stage.commit().written == 1);
  }
  CHECK(files(out) == std::map<std::string, std::string>{
                          {"c.md", "C2"}, {"d.md", "D"}, {"site/c.md", "C2"}, {"site/d.md", "D"}});
  CHECK(inode(out / "site/d.md") != inode(out / "d.md"));
  CHECK(inode(out / "d.md").second == 1);
}

TEST_CASE("a manifest of the first version is read, so an update of kbc rewrites nothing") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, kFirst);
  std::string manifest = read(out / ".kbc-output");
  manifest.replace(0, std::string("kbc-output 2").size(), "kbc-output 1");
  write(out / ".kbc-output", manifest);
  const auto a = modified(out / "a.html");
  CHECK(build(out, kFirst).written == 0);
  CHECK(modified(out / "a.html") == a);
}

TEST_CASE("a cache file written from a stream replaces the old one whole, or not at all") {
  TempDir dir;
  const fs::path file = dir.root / "last-lint";
  write(file, "old");
  CHECK(kbc::replace_file(file.string(), [](std::ostream& out) { return bool(out << "new"); }));
  CHECK(read(file) == "new");
  // A writer that fails half-way leaves the file as it was, and nothing beside it.
  CHECK_FALSE(kbc::replace_file(file.string(), [](std::ostream& out) {
    out << "half";
    return false;
  }));
  CHECK(read(file) == "new");
  CHECK(std::distance(fs::directory_iterator(dir.root), fs::directory_iterator()) == 1);
  // So does a folder that cannot hold the temporary file.
  CHECK_FALSE(kbc::replace_file((dir.root / "missing" / "x").string(),
                                [](std::ostream& out) { return bool(out << "x"); }));
}

TEST_CASE("a scratch file gives back what was appended, and has no name to leave behind") {
  TempDir dir;
  std::optional<kbc::ScratchFile> scratch = kbc::ScratchFile::in(dir.root.string());
  REQUIRE(scratch);
  CHECK(scratch->append("abc"));
  const std::string large(3 << 20, 'x');
  CHECK(scratch->append(large));
  CHECK(scratch->append("end"));
  CHECK(scratch->size() == large.size() + 6);
  CHECK(scratch->read(0, 3) == "abc");
  CHECK(scratch->read(1, 4) == "bcxx");
  CHECK(scratch->read(3, large.size()) == large);
  CHECK(scratch->read(large.size() + 3, 3) == "end");
  CHECK_THROWS(scratch->read(large.size() + 4, 3));  // past its end
  CHECK(std::filesystem::is_empty(dir.root));
  kbc::ScratchFile moved = std::move(*scratch);
  CHECK(moved.read(0, 3) == "abc");
  CHECK_FALSE(kbc::ScratchFile::in((dir.root / "missing").string()));
}

TEST_CASE("a staged file is read back while its bytes changed, and only then") {
  TempDir dir;
  const fs::path out = dir.root / "dist";
  build(out, kFirst);
  kbc::OutputStage stage(out.string(), false);
  kbc::OutputTree output(stage);
  output.add("a.html", "A");         // the output holds these bytes already
  output.add("b/c.html", "C2 new");  // changed
  CHECK_FALSE(stage.staged_file("a.html"));
  CHECK_FALSE(stage.staged_file("b/d/e.json"));  // not put by this build
  std::optional<kbc::ScratchFile> staged = stage.staged_file("b/c.html");
  REQUIRE(staged);
  CHECK(staged->size() == 6);
  CHECK(staged->read(3, 3) == "new");
  CHECK_FALSE(staged->append("more"));  // read-only
  stage.commit();
  CHECK(staged->read(0, 2) == "C2");  // still open after the rename
  CHECK(read(out / "b/c.html") == "C2 new");
  CHECK_FALSE(kbc::ScratchFile::reading((dir.root / "missing").string()));
}
