// End-to-end: kbc.yaml's `rules` and `exclude` and the kbc-disable comments, through the real
// binary: exit codes, every output format, kbc build, FILE arguments and the parse cache.
#include <stdlib.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;

namespace {

const char* const kCuda = "entries/cuda/cudnn-bn-epsilon-too-small.yaml";
const char* const kPytorch = "entries/pytorch/cuda-out-of-memory.yaml";

// A copy of the shipped entries in which two entries have a blank signature_zh (line 3): one
// i18n-missing warning each, at 3:15.
struct BlankZhKb : TempKb {
  BlankZhKb() {
    for (const char* path : {kCuda, kPytorch}) write(root / path, blank_zh(read(root / path)));
  }

  static std::string blank_zh(std::string text) {
    const std::size_t at = text.find("\nsignature_zh: ");
    REQUIRE(at != std::string::npos);
    return text.replace(at + 1, text.find('\n', at + 1) - at - 1, "signature_zh: ''");
  }
  // Inserts `line` before line `number` of the entry at `path`.
  void insert_line(const char* path, int number, const std::string& line) {
    std::string text = read(root / path);
    std::size_t at = 0;
    for (int i = 1; i < number; ++i) at = text.find('\n', at) + 1;
    write(root / path, text.insert(at, line + "\n"));
  }
};

const std::string kCudaWarning =
    "entries/cuda/cudnn-bn-epsilon-too-small.yaml:3:15: warning: signature_zh is blank "
    "[i18n-missing]";

}  // namespace

TEST_CASE("kbc.yaml turns a warning off, into an error, or off for some entries") {
  BlankZhKb kb;
  const Run plain = kbc("lint " + kb.arg());
  CHECK(plain.status == 0);
  CHECK(plain.output.find(kCudaWarning) != std::string::npos);
  CHECK(plain.output.find("0 errors, 2 warnings in 41 files") != std::string::npos);

  write(kb.root / "kbc.yaml", "rules:\n  i18n-missing: off\n");
  const Run off = kbc("lint " + kb.arg());
  CHECK(off.status == 0);
  CHECK(off.output == "0 errors, 0 warnings in 41 files\n");

  write(kb.root / "kbc.yaml", "rules:\n  i18n-missing: error\n");
  const Run upgraded = kbc("lint " + kb.arg());
  CHECK(upgraded.status == 1);
  CHECK(upgraded.output.find("entries/cuda/cudnn-bn-epsilon-too-small.yaml:3:15: error: "
                             "signature_zh is blank [i18n-missing]") != std::string::npos);
  CHECK(upgraded.output.find("2 errors, 0 warnings") != std::string::npos);
  // The build refuses, or leaves the two entries out.
  CHECK(kbc("build " + kb.arg()).status == 1);
  CHECK_FALSE(fs::exists(kb.root / "dist"));
  CHECK(kbc("build --keep-going " + kb.arg()).status == 1);
  CHECK_FALSE(fs::exists(kb.root / "dist/api/cuda/cudnn-bn-epsilon-too-small.json"));
  CHECK(fs::exists(kb.root / "dist/api/cuda/illegal-memory-access.json"));

  write(kb.root / "kbc.yaml",
        "rules:\n  i18n-missing: error\nexclude:\n- entries: ['pytorch/**']\n"
        "  rules: [i18n-missing]\n");
  const Run excluded = kbc("lint " + kb.arg());
  CHECK(excluded.status == 1);
  CHECK(excluded.output.find("1 error, 0 warnings") != std::string::npos);
  CHECK(excluded.output.find("pytorch") == std::string::npos);
  // Every format leaves the excluded finding out, and counts like the text.
  CHECK(count(kbc("lint --format json " + kb.arg()).output, "\"rule\": \"i18n-missing\"") == 1);
  const Run sarif = kbc("lint --format sarif " + kb.arg());
  CHECK(sarif.status == 1);
  CHECK(count(sarif.output, "\"ruleId\": \"i18n-missing\"") == 1);
  CHECK(sarif.output.find("cuda-out-of-memory") == std::string::npos);
  CHECK(count(kbc("lint --format github " + kb.arg()).output, "title=i18n-missing") == 1);
  CHECK(kbc("build " + kb.arg()).status == 1);

  // Turning a required rule down is an error in kbc.yaml, at the value.
  write(kb.root / "kbc.yaml", "rules:\n  schema: warning\n");
  const Run required = kbc("lint " + kb.arg());
  CHECK(required.status == 1);
  CHECK(required.output.find("kbc.yaml:2:11: error: 'schema' is required and stays an error") !=
        std::string::npos);
}

TEST_CASE("a kbc-disable comment removes its finding, and one that removes nothing is a warning") {
  BlankZhKb kb;
  kb.insert_line(kCuda, 3, "# kbc-disable-next-line i18n-missing -- translation pending");
  kb.insert_line(kPytorch, 1, "# kbc-disable-file i18n-missing");
  const Run suppressed = kbc("lint " + kb.arg());
  CHECK(suppressed.status == 0);
  CHECK(suppressed.output == "0 errors, 0 warnings in 41 files\n");
  CHECK(kbc("lint --format json " + kb.arg()).output.find("\"diagnostics\": []") !=
        std::string::npos);

  // One line too early: the comment suppresses nothing, and the finding is back.
  write(kb.root / kCuda, BlankZhKb::blank_zh(read(fs::path(KBC_SOURCE_DIR) / kCuda)));
  kb.insert_line(kCuda, 2, "# kbc-disable-next-line i18n-missing");
  const Run unused = kbc("lint " + kb.arg());
  CHECK(unused.status == 0);
  CHECK(unused.output ==
        "entries/cuda/cudnn-bn-epsilon-too-small.yaml:2:25: warning: 'i18n-missing' reports "
        "nothing on line 3: remove it from the comment [suppression-unused]\n"
        "entries/cuda/cudnn-bn-epsilon-too-small.yaml:4:15: warning: signature_zh is blank "
        "[i18n-missing]\n"
        "0 errors, 2 warnings in 41 files\n");
  // kbc.yaml can make that an error.
  write(kb.root / "kbc.yaml", "rules:\n  suppression-unused: error\n");
  CHECK(kbc("lint " + kb.arg()).status == 1);
  // With FILE arguments, on the named file only.
  CHECK(kbc("lint " + kb.arg() + " " + (kb.root / kPytorch).string()).status == 0);
  CHECK(kbc("lint " + kb.arg() + " " + (kb.root / kCuda).string()).status == 1);
}

TEST_CASE("the parse cache keeps nothing that depends on kbc.yaml") {
  BlankZhKb kb;
  const auto same_as_uncached = [&](const std::string& files = "") {
    return lint_same_as_uncached(kb, files);
  };
  CHECK(same_as_uncached().output.find(kCudaWarning) != std::string::npos);
  REQUIRE(fs::is_directory(kb.root / ".kbc-cache"));
  // Only kbc.yaml changes between runs: every entry comes from the cache.
  write(kb.root / "kbc.yaml", "rules:\n  i18n-missing: off\n");
  CHECK(same_as_uncached().output == "0 errors, 0 warnings in 41 files\n");
  write(kb.root / "kbc.yaml", "rules:\n  i18n-missing: error\n");
  CHECK(same_as_uncached().status == 1);
  write(kb.root / "kbc.yaml", "exclude:\n- entries: [cuda/*]\n  rules: [i18n-missing]\n");
  const Run excluded = same_as_uncached();
  CHECK(excluded.output.find("cudnn-bn-epsilon") == std::string::npos);
  CHECK(excluded.output.find("0 errors, 1 warning") != std::string::npos);
  fs::remove(kb.root / "kbc.yaml");
  CHECK(same_as_uncached().output.find(kCudaWarning) != std::string::npos);
  // The same for one file, and for a comment added and taken away again.
  CHECK(same_as_uncached(" " + (kb.root / kCuda).string()).output.find(kCudaWarning) !=
        std::string::npos);
  const std::string original = read(kb.root / kCuda);
  kb.insert_line(kCuda, 1, "# kbc-disable-file i18n-missing");
  CHECK(same_as_uncached(" " + (kb.root / kCuda).string()).output ==
        "0 errors, 0 warnings in 1 file\n");
  write(kb.root / kCuda, original);
  CHECK(same_as_uncached().output.find(kCudaWarning) != std::string::npos);
}
