// FolderMemo and RealFileSystem::walk with it, on a real file system: a walk that takes unchanged
// folders from the memo finds what a walk without it finds, whatever changed in the tree.
#include "base/folder_memo.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/file_system.h"
#include "model/file_stamps.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using kbc::FolderMemo;
using kbc::FolderRecord;
using kbc_test::TempDir;

void make_file(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "x";
}

// A record whose walk "started" far enough ahead that every folder made so far is settled.
FolderRecord settled_record() { return FolderRecord(kbc::wall_clock_ns() + 60'000'000'000); }

// The memo that `record` is, read back as the next walk reads it.
FolderMemo memo_of(const FolderRecord& record) { return FolderMemo::parse(record.text()); }

}  // namespace

TEST_CASE("a walk through a memo finds what a walk without it finds") {
  TempDir temp;
  const kbc::RealFileSystem files;
  const std::string top = temp.root.string();
  for (const char* path : {"a/one.yaml", "a/b/two.yaml", "c/three.yaml", "c/d/e/four.yaml"})
    make_file(temp.root / path);
  const auto same_as_plain = [&](const FolderMemo& last, FolderRecord& next) {
    const kbc::FileSystem::Listing memo = files.walk(top, &last, &next);
    const kbc::FileSystem::Listing plain = files.walk(top);
    CHECK(memo.files == plain.files);
    CHECK(memo.links == plain.links);
  };
  FolderRecord first = settled_record();
  same_as_plain(FolderMemo(), first);
  CHECK(first.listed() == 6);
  CHECK(first.size() == 6);  // the top, a, a/b, c, c/d and c/d/e

  // Nothing changed: every folder from the memo.
  FolderRecord second = settled_record();
  same_as_plain(memo_of(first), second);
  CHECK(second.listed() == 0);
  const auto lines = [](const std::string& text) { return text.substr(text.find('\n')); };
  CHECK(lines(second.text()) == lines(first.text()));  // the folders as the first walk saw them
  CHECK(memo_of(second).size() == 6);

  // Names added, removed and replaced, deep and shallow.
  make_file(temp.root / "a/b/five.yaml");
  fs::remove(temp.root / "c/three.yaml");
  make_file(temp.root / "c/d/new/six.yaml");
  fs::create_symlink(temp.root / "a/one.yaml", temp.root / "c/d/e/link.yaml");
  fs::remove_all(temp.root / "a/b");
  make_file(temp.root / "a/b");  // a file where a folder was
  FolderRecord third = settled_record();
  same_as_plain(memo_of(second), third);
  CHECK(third.listed() == 5);  // a, c, c/d, c/d/e and the new c/d/new
  FolderRecord fourth = settled_record();
  same_as_plain(memo_of(third), fourth);
  CHECK(fourth.listed() == 0);
}

TEST_CASE("a memo trusts no folder changed less than two seconds before its walk") {
  TempDir temp;
  const kbc::RealFileSystem files;
  make_file(temp.root / "a/one.yaml");
  FolderRecord recorded(kbc::wall_clock_ns());  // the folders are younger than that
  files.walk(temp.root.string(), nullptr, &recorded);
  FolderRecord next(kbc::wall_clock_ns());
  const FolderMemo last = memo_of(recorded);
  files.walk(temp.root.string(), &last, &next);
  CHECK(next.listed() == 2);  // listed again, not trusted: the top and a
}

TEST_CASE("a damaged memo is an empty one") {
  TempDir temp;
  const kbc::RealFileSystem files;
  make_file(temp.root / "a/one.yaml");
  FolderRecord memo = settled_record();
  files.walk(temp.root.string(), nullptr, &memo);
  const std::string text = memo.text();
  REQUIRE(FolderMemo::parse(text).size() == 2);
  // Cut anywhere: whole folders or none, never a folder with some of its names.
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    const FolderMemo read = FolderMemo::parse(text.substr(0, cut));
    CAPTURE(cut);
    CHECK(read.size() < 2);
    if (read.size() == 1) CHECK(text[cut - 1] == '\n');
  }
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\t5\tp\tfname\n").size() == 1);
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\t5\tp\txname\n").size() == 0);
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\tp\tfname\n").size() == 0);
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\t5\tp\tf\n").size() == 0);
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\t5\tp\tfa\t\n").size() == 0);
  CHECK(FolderMemo::parse("kbc folders 1 5\n1\t2\t3\t4\t5\tp\n1\t2\t3\t4\t5\tp\n").size() == 0);
}

TEST_CASE("a memo gives a trusted folder's names as its line holds them") {
  const FolderMemo memo = FolderMemo::parse(
      "kbc folders 1 9000000000\n1\t2\t3\t4\t5\tp\tfa.yaml\tlb\tdc\n"
      "1\t2\t3\t4\t5\t\tdp\n1\t2\t3\t4\t5\tp/c\n");
  REQUIRE(memo.size() == 3);
  const kbc::FileStamp stamp{1, 2, 3, 4, 5};
  CHECK(memo.trusted("p", stamp) == "\tfa.yaml\tlb\tdc");
  CHECK(memo.trusted("", stamp) == "\tdp");
  CHECK(memo.trusted("p/c", stamp) == "");
  CHECK_FALSE(memo.trusted("p/c", kbc::FileStamp{1, 2, 3, 4, 6}));
  CHECK_FALSE(memo.trusted("q", stamp));
  std::vector<std::string> names;
  kbc::for_each_folder_name(*memo.trusted("p", stamp), [&](char kind, std::string_view name) {
    names.push_back(std::string(1, kind) + ":" + std::string(name));
  });
  CHECK(names == std::vector<std::string>{"f:a.yaml", "l:b", "d:c"});
  CHECK(kbc::folder_names({"a.yaml"}, {"b"}, {"c"}) == "\tfa.yaml\tlb\tdc");
  CHECK_FALSE(kbc::folder_names({"a\tb"}, {}, {}));
}
