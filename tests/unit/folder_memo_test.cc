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
using kbc_test::TempDir;

void make_file(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "x";
}

// A memo whose walk "started" far enough ahead that every folder made so far is settled.
FolderMemo settled_memo() { return FolderMemo(kbc::wall_clock_ns() + 60'000'000'000); }

}  // namespace

TEST_CASE("a walk through a memo finds what a walk without it finds") {
  TempDir temp;
  const kbc::RealFileSystem files;
  const std::string top = temp.root.string();
  for (const char* path : {"a/one.yaml", "a/b/two.yaml", "c/three.yaml", "c/d/e/four.yaml"})
    make_file(temp.root / path);
  const auto same_as_plain = [&](const FolderMemo& last, FolderMemo& next) {
    const kbc::FileSystem::Listing memo = files.walk(top, &last, &next);
    const kbc::FileSystem::Listing plain = files.walk(top);
    CHECK(memo.files == plain.files);
    CHECK(memo.links == plain.links);
  };
  FolderMemo first = settled_memo();
  same_as_plain(FolderMemo(), first);
  CHECK(first.listed() == 6);
  CHECK(first.size() == 6);  // the top, a, a/b, c, c/d and c/d/e

  // Nothing changed: every folder from the memo.
  FolderMemo second = settled_memo();
  same_as_plain(first, second);
  CHECK(second.listed() == 0);
  CHECK(FolderMemo::parse(second.text()).text() == second.text());

  // Names added, removed and replaced, deep and shallow.
  make_file(temp.root / "a/b/five.yaml");
  fs::remove(temp.root / "c/three.yaml");
  make_file(temp.root / "c/d/new/six.yaml");
  fs::create_symlink(temp.root / "a/one.yaml", temp.root / "c/d/e/link.yaml");
  fs::remove_all(temp.root / "a/b");
  make_file(temp.root / "a/b");  // a file where a folder was
  FolderMemo third = settled_memo();
  same_as_plain(second, third);
  CHECK(third.listed() == 5);  // a, c, c/d, c/d/e and the new c/d/new
  FolderMemo fourth = settled_memo();
  same_as_plain(third, fourth);
  CHECK(fourth.listed() == 0);
}

TEST_CASE("a memo trusts no folder changed less than two seconds before its walk") {
  TempDir temp;
  const kbc::RealFileSystem files;
  make_file(temp.root / "a/one.yaml");
  FolderMemo recorded(kbc::wall_clock_ns());  // the folders are younger than that
  files.walk(temp.root.string(), nullptr, &recorded);
  FolderMemo next(kbc::wall_clock_ns());
  files.walk(temp.root.string(), &recorded, &next);
  CHECK(next.listed() == 2);  // listed again, not trusted: the top and a
}

TEST_CASE("a damaged memo is an empty one") {
  TempDir temp;
  const kbc::RealFileSystem files;
  make_file(temp.root / "a/one.yaml");
  FolderMemo memo = settled_memo();
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
}
