// The listing's stamp table (model/file_stamps.h): a file whose stamp is that of the last
// listing, and old enough, is not read again; any other is.
#include "model/file_stamps.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "model/knowledge_base.h"
#include "model/parse_cache.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kHour = 3'600'000'000'000;

using kbc_test::TempDir;

kbc::FileStamp old_stamp(std::uint64_t size, std::uint64_t inode) {
  const std::int64_t then = kbc::wall_clock_ns() - kHour;
  return {size, then, then, inode, 1};
}

kbc::FileStamps::Known known(const kbc::FileStamp& stamp, const std::string& digest) {
  return {stamp, digest, {}};
}

}  // namespace

TEST_CASE("a stamp table reads back what it recorded, and trusts only old, equal stamps") {
  kbc::FileStamps table(kbc::wall_clock_ns());
  const kbc::FileStamp a = old_stamp(10, 1);
  table.record("entries/a.yaml", known(a, "aaaa"));
  kbc::FileStamps::Known with_comment = known(old_stamp(20, 2), "bbbb");
  with_comment.suppressions =
      kbc::scan_suppression_comments("# kbc-disable-file regex-overlap -- why\nid: x\n");
  REQUIRE(with_comment.suppressions.size() == 1);
  table.record("entries/b c.yaml", with_comment);
  table.record("entries/tab\there.yaml", known(old_stamp(5, 3), "cccc"));  // not recorded
  const kbc::FileStamp fresh{7, kbc::wall_clock_ns(), kbc::wall_clock_ns(), 4, 1};
  table.record("entries/fresh.yaml", known(fresh, "dddd"));

  const kbc::FileStamps read = kbc::FileStamps::parse(table.text());
  CHECK(read.size() == 3);
  CHECK(read.text() == table.text());
  REQUIRE(read.trusted("entries/a.yaml", a));
  CHECK(read.trusted("entries/a.yaml", a)->digest == "aaaa");
  const auto b = read.trusted("entries/b c.yaml", with_comment.stamp);
  REQUIRE(b);
  REQUIRE(b->suppressions.size() == 1);
  CHECK(b->suppressions[0].kind == kbc::SuppressionComment::Kind::kFile);
  CHECK(b->suppressions[0].rules[0].text == "regex-overlap");
  CHECK(b->suppressions[0].rules[0].at.line == 1);

  // Any field changed, another path, a file written within two seconds of the listing: hashed.
  using Change = void (*)(kbc::FileStamp&);
  for (const Change change :
       {+[](kbc::FileStamp& s) { s.size += 1; }, +[](kbc::FileStamp& s) { s.modified_ns += 1; },
        +[](kbc::FileStamp& s) { s.changed_ns += 1; }, +[](kbc::FileStamp& s) { s.inode += 1; },
        +[](kbc::FileStamp& s) { s.device += 1; }}) {
    kbc::FileStamp other = a;
    change(other);
    CHECK_FALSE(read.trusted("entries/a.yaml", other));
  }
  CHECK_FALSE(read.trusted("entries/other.yaml", a));
  CHECK_FALSE(read.trusted("entries/fresh.yaml", fresh));

  // A damaged table is an empty one.
  std::string text = table.text();
  CHECK(kbc::FileStamps::parse(text.substr(0, text.size() - 3)).size() == 0);
  CHECK(kbc::FileStamps::parse("kbc file stamps 1 x\n").size() == 0);
  text.replace(text.find("aaaa") + 5, 2, "x1");  // the size
  CHECK(kbc::FileStamps::parse(text).size() == 0);
}

TEST_CASE("a listing reads only the files whose stamp changed since the last listing") {
  TempDir dir;
  kbc::ParseCache cache(dir.root.string());
  kbc::MemoryFileSystem fs;
  fs.files["kb/entries/cuda/a.yaml"] = "id: cuda/a\n";
  fs.files["kb/entries/cuda/b.yaml"] = "id: cuda/b\n";
  fs.stamps["kb/entries/cuda/a.yaml"] = old_stamp(11, 1);
  fs.stamps["kb/entries/cuda/b.yaml"] = old_stamp(11, 2);
  const kbc::EntryListing first = kbc::list_entry_files(fs, "kb", &cache);

  // The same stamps: the files are not read, so a change that kept the stamp is not seen.
  fs.files["kb/entries/cuda/a.yaml"] = "id: cuda/x\n";
  kbc::EntryListing again = kbc::list_entry_files(fs, "kb", &cache);
  CHECK(again.digests == first.digests);
  CHECK(again.digest == first.digest);

  // A write moves the change time: read again.
  fs.stamps["kb/entries/cuda/a.yaml"].changed_ns += 1;
  again = kbc::list_entry_files(fs, "kb", &cache);
  CHECK(again.digests[0] != first.digests[0]);
  CHECK(again.digests[1] == first.digests[1]);
  CHECK(again.digest == kbc::list_entry_files(fs, "kb").digest);  // as without the table

  // Without a cache, or for a file with no stamp, every file is read.
  fs.files["kb/entries/cuda/b.yaml"] = "id: cuda/y\n";
  CHECK(kbc::list_entry_files(fs, "kb").digests[1] != first.digests[1]);
  fs.stamps.erase("kb/entries/cuda/b.yaml");
  CHECK(kbc::list_entry_files(fs, "kb", &cache).digests[1] != first.digests[1]);
}

TEST_CASE("the stamp of a real file moves when it is written, and a link has none") {
  TempDir dir;
  const std::string file = (dir.root / "a.yaml").string();
  std::ofstream(file) << "id: a\n";
  const auto before = kbc::RealFileSystem().stamp(file);
  REQUIRE(before);
  CHECK(before->size == 6);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  std::ofstream(file) << "id: b\n";  // the same size
  const auto after = kbc::RealFileSystem().stamp(file);
  REQUIRE(after);
  CHECK_FALSE(*after == *before);
  const std::string link = (dir.root / "link.yaml").string();
  REQUIRE(::symlink(file.c_str(), link.c_str()) == 0);
  CHECK_FALSE(kbc::RealFileSystem().stamp(link));
  CHECK(kbc::stamp_of(link, /*follow_link=*/true));
  CHECK_FALSE(kbc::RealFileSystem().stamp((dir.root / "none").string()));
}

TEST_CASE("a listing stores its stamp table only when it teaches the next listing something") {
  TempDir dir;
  kbc::ParseCache cache(dir.root.string());
  kbc::MemoryFileSystem fs;
  fs.files["kb/entries/cuda/a.yaml"] = "id: cuda/a\n";
  const std::int64_t now = kbc::wall_clock_ns();
  fs.stamps["kb/entries/cuda/a.yaml"] = {11, now, now, 1, 1};  // just written: not trusted yet
  kbc::list_entry_files(fs, "kb", &cache);
  const auto first = cache.find_file_stamps();
  REQUIRE(first);
  kbc::list_entry_files(fs, "kb", &cache);  // read again, but nothing new: not stored
  CHECK(cache.find_file_stamps() == first);

  fs.files["kb/entries/cuda/tab\there.yaml"] = "id: cuda/t\n";  // never recorded
  fs.stamps["kb/entries/cuda/tab\there.yaml"] = old_stamp(11, 3);
  kbc::list_entry_files(fs, "kb", &cache);
  CHECK(cache.find_file_stamps() == first);
  fs.files["kb/entries/cuda/b.yaml"] = "id: cuda/b\n";  // a new file, without a stamp
  kbc::list_entry_files(fs, "kb", &cache);
  CHECK(cache.find_file_stamps() == first);
  fs.stamps["kb/entries/cuda/b.yaml"] = old_stamp(11, 2);  // now with one: recorded
  kbc::list_entry_files(fs, "kb", &cache);
  const auto second = cache.find_file_stamps();
  REQUIRE(second);
  CHECK(second != first);
  CHECK(kbc::FileStamps::parse(*second).size() == 2);
}

TEST_CASE("a listing leaves a few changed files and folders to be read again, not restored") {
  TempDir dir;
  kbc::ParseCache cache(dir.root.string());
  kbc::MemoryFileSystem memory;
  constexpr int kFiles = 80;  // more than the stale rows a table is left with
  for (int k = 0; k < kFiles; ++k) {
    const std::string path = "kb/entries/cuda/" + std::to_string(k) + ".yaml";
    memory.files[path] = "id: cuda/" + std::to_string(k) + "\n";
    memory.stamps[path] = old_stamp(11, static_cast<std::uint64_t>(k) + 1);
  }
  kbc::list_entry_files(memory, "kb", &cache);
  const auto first = cache.find_file_stamps();
  REQUIRE(first);
  // A few files changed: read, and read again by the next listing, with the table as it was.
  for (int k = 0; k < 3; ++k) {
    const std::string path = "kb/entries/cuda/" + std::to_string(k) + ".yaml";
    memory.files[path] = "id: cuda/changed-" + std::to_string(k) + "\n";
    memory.stamps[path].changed_ns += 1;
  }
  const kbc::EntryListing changed = kbc::list_entry_files(memory, "kb", &cache);
  CHECK(cache.find_file_stamps() == first);
  CHECK(changed.digest == kbc::list_entry_files(memory, "kb").digest);
  CHECK(kbc::list_entry_files(memory, "kb", &cache).digest == changed.digest);
  // Most of them changed: the table is made again, and they are trusted from then on.
  for (int k = 0; k < kFiles; ++k)
    memory.stamps["kb/entries/cuda/" + std::to_string(k) + ".yaml"].changed_ns += 1;
  kbc::list_entry_files(memory, "kb", &cache);
  const auto second = cache.find_file_stamps();
  REQUIRE(second);
  CHECK(second != first);
  memory.files["kb/entries/cuda/5.yaml"] =
      "id: cuda/unseen\n";  // the same stamp: trusted, not read
  CHECK(kbc::list_entry_files(memory, "kb", &cache).digest == changed.digest);

  // Folders: a file added to a known folder is found by listing it again, without a new memo;
  // a folder added makes one.
  const kbc::RealFileSystem files;
  const fs::path root = dir.root / "real";
  kbc::ParseCache real_cache(root.string());
  fs::create_directories(root / "entries/a");
  std::ofstream(root / "entries/a/one.yaml") << "id: a/one\n";
  kbc::list_entry_files(files, root.string(), &real_cache);
  const auto folders = real_cache.find_folders();
  REQUIRE(folders);
  std::ofstream(root / "entries/a/two.yaml") << "id: a/two\n";
  CHECK(kbc::list_entry_files(files, root.string(), &real_cache).files.size() == 2);
  CHECK(real_cache.find_folders() == folders);
  fs::create_directories(root / "entries/b");
  std::ofstream(root / "entries/b/three.yaml") << "id: b/three\n";
  CHECK(kbc::list_entry_files(files, root.string(), &real_cache).files.size() == 3);
  CHECK(real_cache.find_folders() != folders);
}

TEST_CASE("a walk lists the files and links at every depth, sorted, and enters no linked folder") {
  TempDir dir;
  std::vector<std::string> files;
  // 300 folders at the first level (more than the walk lists before it goes on every core),
  // each with a file two and four levels down.
  for (int i = 0; i < 300; ++i) {
    const std::string top = "d" + std::to_string(i);
    for (const std::string& file : {top + "/a/x.yaml", top + "/a/b/c/y.yaml"}) {
      fs::create_directories((dir.root / file).parent_path());
      std::ofstream(dir.root / file) << "id: x\n";
      files.push_back(file);
    }
  }
  std::ofstream(dir.root / "top.yaml") << "id: t\n";
  files.push_back("top.yaml");
  REQUIRE(::symlink((dir.root / "d1").c_str(), (dir.root / "d2/a/linked").c_str()) == 0);
  REQUIRE(::symlink("top.yaml", (dir.root / "d3/a/b/c/link.yaml").c_str()) == 0);
  std::sort(files.begin(), files.end());
  const kbc::FileSystem::Listing listing = kbc::RealFileSystem().walk(dir.root.string());
  CHECK(listing.files == files);
  CHECK(listing.links == std::vector<std::string>{"d2/a/linked", "d3/a/b/c/link.yaml"});
  CHECK_THROWS_AS(kbc::RealFileSystem().walk((dir.root / "none").string()), kbc::ToolError);
}
