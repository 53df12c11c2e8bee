// The parts of kbc verify that need no sandbox: a recipe's digest and problems, verify.lock read
// and written back, the record fields derived from evidence, and --capture's edit of the YAML.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "load/yaml_loader.h"
#include "model/evidence.h"
#include "model/recipe.h"
#include "render/record.h"
#include "verify/capture.h"

namespace {

kbc::Entry entry_of(const std::string& yaml, const std::string& path = "entries/a/b.yaml") {
  kbc::Diagnostics out;
  auto document = kbc::load_yaml(path, yaml, out);
  REQUIRE(document);
  REQUIRE(out.empty());
  return kbc::Entry{path, "a/b", std::move(document->value), std::move(document->sources)};
}

const std::string kHead = "id: a/b\nregex: 'boom [0-9]+'\n";

}  // namespace

TEST_CASE("a recipe's digest covers its script, needs and timeout, not the entry's regex") {
  const std::map<std::string, std::string> none;
  const auto base = kbc::read_recipe(entry_of(kHead + "reproduce:\n  shell: echo boom 1\n"), none);
  REQUIRE(base);
  CHECK(base->language == "shell");
  CHECK(base->timeout_s == 60);
  CHECK(base->expect == "boom [0-9]+");
  CHECK(base->expect_is_regex);
  const auto digest = [&](const std::string& yaml) {
    const auto recipe = kbc::read_recipe(entry_of(yaml), none);
    REQUIRE(recipe);
    return recipe->digest;
  };
  CHECK(digest("id: a/b\nregex: 'other'\nreproduce:\n  shell: echo boom 1\n") == base->digest);
  CHECK(digest(kHead + "reproduce:\n  shell: echo boom 2\n") != base->digest);
  CHECK(digest(kHead + "reproduce:\n  python: echo boom 1\n") != base->digest);
  CHECK(digest(kHead + "reproduce:\n  shell: echo boom 1\n  timeout: 5\n") != base->digest);
  CHECK(digest(kHead + "reproduce:\n  shell: echo boom 1\n  needs: {gpu: true}\n") != base->digest);
  CHECK(digest(kHead + "reproduce:\n  shell: echo boom 1\n  needs: {packages: [x]}\n") !=
        base->digest);
  CHECK(digest(kHead + "reproduce:\n  shell: echo boom 1\n  expect: 'boom'\n") != base->digest);
  // A file's text is part of it.
  const std::string with_file = kHead + "reproduce:\n  file: r.py\n";
  const auto a = kbc::read_recipe(entry_of(with_file), {{"entries/a/r.py", "print(1)"}});
  const auto b = kbc::read_recipe(entry_of(with_file), {{"entries/a/r.py", "print(2)"}});
  REQUIRE((a && b));
  CHECK(a->language == "python");
  CHECK(a->file == "entries/a/r.py");
  CHECK(a->digest != b->digest);
}

TEST_CASE("a reproduce block with no script, two scripts or a missing file cannot run") {
  kbc::RecipeProblem problem;
  CHECK_FALSE(kbc::read_recipe(entry_of(kHead), {}, &problem));
  CHECK(problem.message.empty());  // no block: nothing wrong
  CHECK_FALSE(kbc::read_recipe(entry_of(kHead + "reproduce:\n  timeout: 5\n"), {}, &problem));
  CHECK(problem.pointer == "/reproduce");
  CHECK_FALSE(
      kbc::read_recipe(entry_of(kHead + "reproduce:\n  shell: a\n  file: r.sh\n"), {}, &problem));
  CHECK(problem.message == "the reproduce block has shell and file: give exactly one script");
  CHECK_FALSE(kbc::read_recipe(entry_of(kHead + "reproduce:\n  file: r.sh\n"), {}, &problem));
  CHECK(problem.pointer == "/reproduce/file");
}

TEST_CASE("verify.lock reads back what it wrote, and says where it is broken") {
  kbc::EvidenceLock lock;
  kbc::Evidence ok;
  ok.status = "reproduced";
  ok.recipe_digest = "d1";
  ok.date = "2026-11-01";
  ok.environment = {{"os", "Debian GNU/Linux 12 (bookworm)"}, {"arch", "x86_64"}};
  ok.line = "boom 1";
  kbc::Evidence failed = ok;
  failed.status = "failed";
  failed.reason = "exited with status 0";
  failed.output_tail = {"fine"};
  lock["b/x"] = failed;
  lock["a/y"] = ok;
  const std::string text = kbc::evidence_lock_text(lock);
  CHECK(text.find("\"a/y\"") < text.find("\"b/x\""));  // in id order
  CHECK(text.ends_with("}\n"));
  kbc::Diagnostics out;
  const kbc::EvidenceLock back = kbc::parse_evidence_lock(text, out);
  CHECK(out.empty());
  CHECK(kbc::evidence_lock_text(back) == text);
  CHECK(back.at("a/y").line == "boom 1");
  CHECK(back.at("b/x").output_tail == std::vector<std::string>{"fine"});

  kbc::parse_evidence_lock("{\n  \"kbc_verify_lock\": 1,\n  \"entries\": {\n  ]\n}", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].path == "verify.lock");
  CHECK(out[0].at.line == 4);
  CHECK(out[0].rule == "evidence-file");
  out.clear();
  const auto partial = kbc::parse_evidence_lock(
      "{\"kbc_verify_lock\": 1, \"entries\": {\"a/b\": {\"status\": \"maybe\"}}}", out);
  CHECK(partial.empty());
  REQUIRE(out.size() == 1);
  CHECK(out[0].message.find("the record of a/b needs a status") == 0);
}

TEST_CASE("evidence makes a record verified, confirmed on its date, with one more piece") {
  nlohmann::ordered_json record = {{"verification_tier", "ai_generated"},
                                   {"last_confirmed", "2025-01-01"},
                                   {"evidence_count", 3}};
  kbc::Evidence evidence;
  evidence.status = "reproduced";
  evidence.date = "2026-11-01";
  kbc::apply_evidence(record, evidence);
  CHECK(record["verification_tier"] == "verified");
  CHECK(record["last_confirmed"] == "2026-11-01");
  CHECK(record["evidence_count"] == 4);
  evidence.date = "2024-01-01";  // older than the entry's own date: the entry's stays
  kbc::apply_evidence(record, evidence);
  CHECK(record["last_confirmed"] == "2026-11-01");
  CHECK(kbc::environment_summary({{"os", "Ubuntu 24.04.3 LTS"},
                                  {"arch", "x86_64"},
                                  {"python_modules", {{"torch", "2.11.0"}}},
                                  {"gpu", {{"model", "NVIDIA H100"}, {"driver", "580"}}}}) ==
        "Ubuntu 24.04.3 LTS, x86_64, torch 2.11.0, NVIDIA H100 (driver 580)");
}

TEST_CASE("capture adds the line as the last sample, or a new list, and leaves flow style alone") {
  const std::string text = kHead +
                           "samples:\n"
                           "  - 'boom 1'   # a comment stays\n"
                           "  - >-\n"
                           "    boom 2 folded\n"
                           "    over lines\n"
                           "counter_samples:\n"
                           "- 'bang'\n";
  const auto added = kbc::with_sample(text, entry_of(text), "boom 3: \"quoted\" \\ and ünïcode");
  REQUIRE(added);
  CHECK(*added == kHead +
                      "samples:\n"
                      "  - 'boom 1'   # a comment stays\n"
                      "  - >-\n"
                      "    boom 2 folded\n"
                      "    over lines\n"
                      "  - \"boom 3: \\\"quoted\\\" \\\\ and ünïcode\"\n"
                      "counter_samples:\n"
                      "- 'bang'\n");
  kbc::Diagnostics out;
  const auto reloaded = kbc::load_yaml("t.yaml", *added, out);
  REQUIRE(reloaded);
  CHECK(reloaded->value["samples"].back() == "boom 3: \"quoted\" \\ and ünïcode");

  const std::string last = kHead + "samples:\n- 'boom 1'\n";  // the list ends the file
  CHECK(kbc::with_sample(last, entry_of(last), "boom 2") == last + "- \"boom 2\"\n");
  const std::string without = kHead + "locale: en";  // no samples, no final newline
  CHECK(kbc::with_sample(without, entry_of(without), "boom 2") ==
        without + "\nsamples:\n- \"boom 2\"\n");
  const std::string flow = kHead + "samples: ['boom 1']\n";
  CHECK_FALSE(kbc::with_sample(flow, entry_of(flow), "boom 2"));
  const std::string empty = kHead + "samples: []\n";
  CHECK_FALSE(kbc::with_sample(empty, entry_of(empty), "boom 2"));
}
