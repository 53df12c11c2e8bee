// End-to-end tests of `kbc match`: the real binary on the shipped entries (in a temporary copy)
// and on the bundle `kbc build` makes of them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_support.h"

using namespace kbc_e2e;

namespace {

// A sample of cuda/cudnn-bn-epsilon-too-small (not its signature: another epsilon).
const std::string kSample =
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when calling "
    "cudnnBatchNormalizationForwardTraining with epsilon=5e-07";

}  // namespace

TEST_CASE("kbc match TEXT ranks the entry first, with its workaround and dead ends") {
  TempKb kb;
  const Run run = kbc("match " + kb.arg() + " '" + kSample + "'");
  CHECK(run.status == 0);
  INFO(run.output);
  CHECK(run.output.starts_with("1. cuda/cudnn-bn-epsilon-too-small  (score 681, fix rate 90%)\n"));
  CHECK(run.output.find("   line 1     " + kSample + "\n") != std::string::npos);
  CHECK(run.output.find("   try        Upgrade to cuDNN 7.5 or newer") != std::string::npos);
  CHECK(run.output.find("   avoid      Treat a CUDNN_STATUS_BAD_PARAM from batch normalization") !=
        std::string::npos);
  CHECK(run.output.find("              Set epsilon to exactly 1e-5 on an old cuDNN") !=
        std::string::npos);
}

TEST_CASE("kbc match reads a log on standard input and names the line") {
  TempKb kb;
  write(kb.root / "train.log", "epoch 1 step 10 loss=0.53\nepoch 1 step 20 loss=0.41\n" + kSample +
                                   "\nTraceback follows\n");
  for (const std::string operand : {"", " -"}) {
    const Run run = kbc("match " + kb.arg() + operand + " < " + (kb.root / "train.log").string());
    CHECK(run.status == 0);
    INFO(run.output);
    CHECK(run.output.starts_with("1. cuda/cudnn-bn-epsilon-too-small"));
    CHECK(run.output.find("   line 3     " + kSample) != std::string::npos);
  }
}

TEST_CASE("kbc match shows a log's control characters as '?', the carets under the match") {
  TempKb kb;
  // A CI log's colours, a tab and Chinese (two columns a character) before the message.
  const std::string prefix = "\x1b[31m\xe9\x94\x99\xe8\xaf\xaf\x1b[0m\t";  // 错误
  write(kb.root / "ci.log", prefix + kSample + "\x07\n");
  const Run run = kbc("match " + kb.arg() + " < " + (kb.root / "ci.log").string());
  CHECK(run.status == 0);
  INFO(run.output);
  // The colours are taken out before matching (log_lines.h); the bell is shown as '?'.
  const std::string shown = "\xe9\x94\x99\xe8\xaf\xaf\t" + kSample + "?";
  const std::size_t at = run.output.find("   line 1     " + shown + "\n");
  REQUIRE(at != std::string::npos);
  CHECK(run.output.find('\x1b') == std::string::npos);
  // Under 错误 4 columns, the tab kept; then the message up to the match.
  const std::size_t carets = run.output.find('\n', at) + 1;
  const std::string line = run.output.substr(carets, run.output.find('\n', carets) - carets);
  const std::string blanks = std::string(14 + 4, ' ') + "\t";
  REQUIRE(line.starts_with(blanks));
  const std::size_t first = line.find('^');
  REQUIRE(first != std::string::npos);
  CHECK(line.find_first_not_of(' ', blanks.size()) == first);
  CHECK(line.find_first_not_of('^', first) == std::string::npos);
  CHECK(line.size() - blanks.size() <= kSample.size());
}

TEST_CASE("kbc match skips a log's INFO lines that name no error unless --all-lines") {
  TempKb kb;
  // The entry's message, logged at INFO by a wrapper that names no error.
  write(kb.root / "ci.log",
        "2024-06-01 12:00:00 INFO [runner] step 1 ok\n"
        "2024-06-01 12:00:01 INFO [runner] CUDNN_STATUS_BAD_PARAM when calling "
        "cudnnBatchNormalizationForwardTraining\n");
  const std::string log = " < " + (kb.root / "ci.log").string();
  const Run skipped = kbc("match " + kb.arg() + log, false);
  CHECK(skipped.status == 1);
  INFO(skipped.output);
  CHECK(skipped.output.starts_with("no entry matches (2 lines, "));
  CHECK(skipped.output.ends_with(
      " entries)\n2 lines marked INFO, DEBUG or TRACE without an error word met only the entries "
      "of such lines; --all-lines matches every line\n"));
  const Run all = kbc("match --all-lines " + kb.arg() + log);
  CHECK(all.status == 0);
  INFO(all.output);
  CHECK(all.output.starts_with("1. cuda/cudnn-bn-epsilon-too-small"));
  CHECK(all.output.find("   line 2     ") != std::string::npos);
}

TEST_CASE("kbc match --json: stable keys for tools, the same from the root and the bundle") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const Run from_root = kbc("match --json --top 2 " + kb.arg() + " '" + kSample + "'", false);
  const Run from_bundle = kbc(
      "match --json --top 2 --bundle " + (kb.root / "dist/kb.json").string() + " '" + kSample + "'",
      false);
  REQUIRE(from_root.status == 0);
  REQUIRE(from_bundle.status == 0);
  CHECK(from_root.output == from_bundle.output);
  const auto json = nlohmann::json::parse(from_root.output);
  CHECK(json["version"] == 1);
  CHECK(json["lines"] == 1);
  REQUIRE(json["hits"].size() >= 1);
  const auto& hit = json["hits"][0];
  CHECK(hit["rank"] == 1);
  CHECK(hit["id"] == "cuda/cudnn-bn-epsilon-too-small");
  CHECK(hit["line"] == 1);
  CHECK(hit["text"] == kSample);
  CHECK(hit["match"]["by"] == "regex");
  CHECK(hit["score"]["error_line"] == 1);
  CHECK(hit["workaround"]["success_rate"] == 0.95);
  CHECK(hit["dead_ends"].size() >= 1);
}

TEST_CASE("kbc match answers the same from the regexes' plans kept, new, damaged or unused") {
  TempKb kb;
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const fs::path cache = kb.root / "cache";
  // kbc with the cache in `cache`.
  const auto cached = [&](const std::string& args) {
    return shell("XDG_CACHE_HOME=" + cache.string() + " " + KBC_BINARY + " " + args +
                 " 2>/dev/null");
  };
  const std::string bundle = " --bundle " + (kb.root / "dist/kb.json").string();
  write(kb.root / "one.log", std::string("INFO starting\n") + kSample + "\n");
  // A log longer than a one-shot text: every regex is compiled, no plans are used.
  std::string long_log;
  while (long_log.size() < 70000) long_log += "INFO step done\n";
  write(kb.root / "long.log", long_log + kSample + "\n");
  for (const std::string& input :
       {"'" + std::string(kSample) + "'", std::string("- <") + (kb.root / "one.log").string()}) {
    INFO(input);
    const std::string tail = "--json" + bundle + " " + input;
    const std::string args = "match " + tail;
    const Run fresh = kbc("match --no-cache " + tail, false);  // plans computed, not kept
    REQUIRE(fresh.status == 0);
    fs::remove_all(cache);
    const Run first = cached(args);
    CHECK(fs::exists(cache / "kbc/regex-plans"));
    const Run later = cached(args);
    write(cache / "kbc/regex-plans", "damaged");
    const Run damaged = cached(args);
    CHECK(first.output == fresh.output);
    CHECK(later.output == fresh.output);
    CHECK(damaged.output == fresh.output);
  }
  const Run long_run = cached("match --json" + bundle + " - <" + (kb.root / "long.log").string());
  REQUIRE(long_run.status == 0);
  CHECK(nlohmann::json::parse(long_run.output)["hits"][0]["id"] ==
        nlohmann::json::parse(
            kbc("match --json" + bundle + " '" + kSample + "'", false).output)["hits"][0]["id"]);
}

TEST_CASE("kbc match exits 1 when nothing matches") {
  TempKb kb;
  const Run run = kbc("match " + kb.arg() + " 'all good: 12 tests passed'");
  CHECK(run.status == 1);
  CHECK(run.output == "no entry matches (1 line, 41 entries)\n");
  const Run json = kbc("match --json " + kb.arg() + " 'all good'", false);
  CHECK(json.status == 1);
  CHECK(nlohmann::json::parse(json.output)["hits"].empty());
}

TEST_CASE("kbc match refuses a bad bundle and bad usage with exit 2") {
  TempKb kb;
  write(kb.root / "broken.json", "[{\"id\": \"a/x\",\n  \"regex\": }]");
  write(kb.root / "object.json", "{\"id\": \"a/x\"}");
  write(kb.root / "no-regex.json", "[{\"id\": \"a/x\"}]");
  const auto fails = [&](const std::string& args, const std::string& message) {
    const Run run = kbc("match " + args + " 'CUDA error'");
    INFO(args << "\n" << run.output);
    CHECK(run.status == 2);
    CHECK(run.output.find(message) != std::string::npos);
  };
  const std::string bundle = "--bundle " + kb.root.string() + "/";
  fails(bundle + "broken.json", "broken.json: parse error at line 2, column 12");
  fails(bundle + "object.json", "object.json: a bundle is a JSON array of records, not object");
  fails(bundle + "no-regex.json", "record 1 of the bundle has no text 'regex'");
  fails(bundle + "missing.json", "kbc match: cannot read");
  fails(kb.arg() + " " + bundle + "object.json", "give --root or --bundle, not both");
  fails(kb.arg() + " --top 0", "--top must be a whole number from 1, not '0'");
  fails(kb.arg() + " --top x", "--top must be a whole number from 1, not 'x'");
  fails(kb.arg() + " 'one' 'two'", "give one TEXT");
  fails("--root " + (kb.root / "nowhere").string(), "no entries/ folder");
  // Past 1 GiB a bundle is refused before it is read (a sparse file: no disk used). 100,000
  // entries make a bundle of 318 MB.
  { std::ofstream(kb.root / "huge.json"); }
  fs::resize_file(kb.root / "huge.json", (std::uintmax_t{1} << 30) + 1);
  fails(bundle + "huge.json", "huge.json is 1073741825 bytes; bundles are limited to 1073741824");
  // A bundle the user names through a link is read (links are refused inside entries/ only).
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  fs::create_symlink(kb.root / "dist/kb.json", kb.root / "linked.json");
  CHECK(kbc("match " + bundle + "linked.json '" + kSample + "'").status == 0);
}
