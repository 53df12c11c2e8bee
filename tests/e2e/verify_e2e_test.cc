// End-to-end: `kbc verify` through the real binary, with bubblewrap. Recipes are small shell or
// Python scripts added to one fixture entry (tests/verify/entry.yaml); the sandbox's limits are
// each tried by a recipe that breaks them. Then the shipped knowledge base's recipes: every CPU
// recipe reproduces with Debian's python3-torch, and every GPU recipe is skipped without a GPU.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace kbc_e2e;
using nlohmann::json;

namespace {

const fs::path kVerifyEntry = fs::path(KBC_TEST_DATA) / "verify" / "entry.yaml";
const char* const kEntryPath = "entries/pytorch/cuda-out-of-memory.yaml";

// The fixture entry with `reproduce` (a YAML block) appended, in a temporary knowledge base.
struct RecipeKb : TempKb {
  explicit RecipeKb(const std::string& reproduce)
      : TempKb(fs::path(KBC_TEST_DATA) / "verify", "fixture") {
    write(root / kEntryPath, read(kVerifyEntry) + reproduce);
    fs::remove_all(root / "fixture");
  }
  json verify(const std::string& args = "", int expected_status = 0) const {
    const Run run = kbc("verify --format json --today 2026-11-01 " + arg() + " " + args, false);
    INFO(run.output);
    CHECK(run.status == expected_status);
    return json::parse(run.output);
  }
};

const std::string kEchoRecipe =
    "reproduce:\n"
    "  shell: |\n"
    "    echo 'starting'\n"
    "    echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2\n"
    "    exit 1\n";

std::string shell_recipe(const std::string& script, int timeout = 20) {
  std::string block = "reproduce:\n  timeout: " + std::to_string(timeout) + "\n  shell: |\n";
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);) block += "    " + line + "\n";
  return block;
}

bool have_bwrap() { return shell("command -v bwrap >/dev/null").status == 0; }

}  // namespace

TEST_CASE("verify reproduces a recipe, records it, and build and lint use the evidence") {
  REQUIRE(have_bwrap());  // .ci/setup --tests installs bubblewrap
  RecipeKb kb(kEchoRecipe);
  const json result = kb.verify();
  REQUIRE(result["results"].size() == 1);
  CHECK(result["results"][0]["status"] == "reproduced");
  CHECK(result["results"][0]["line"] ==
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
  CHECK(result["summary"]["reproduced"] == 1);
  CHECK(result["summary"]["lock_written"] == true);
  const json lock = json::parse(read(kb.root / "verify.lock"));
  const json& record = lock["entries"]["pytorch/cuda-out-of-memory"];
  CHECK(record["status"] == "reproduced");
  CHECK(record["date"] == "2026-11-01");
  CHECK(record["environment"]["kernel"].is_string());
  CHECK(record["recipe_digest"].get<std::string>().size() == 32);
  // The same run again writes nothing new.
  CHECK(kb.verify()["summary"]["lock_written"] == false);
  CHECK(kbc("lint " + kb.arg()).output == "0 errors, 0 warnings in 1 file\n");

  // The record's existing fields come from the evidence; the site shows it.
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  const json built = json::parse(read(kb.root / "dist/api/pytorch/cuda-out-of-memory.json"));
  CHECK(built["verification_tier"] == "verified");
  CHECK(built["last_confirmed"] == "2026-11-01");  // later than the entry's 2024-11-20
  CHECK(built["evidence_count"] == 6);             // the entry's 5, and the reproduction
  CHECK_FALSE(built.contains("reproduce"));
  const std::string page = read(kb.root / "dist/site/en/entries/pytorch/cuda-out-of-memory.html");
  CHECK(page.find("<h2 id=\"reproduced\">") != std::string::npos);
  CHECK(page.find("Tried to allocate 2.00 GiB</code></pre>") != std::string::npos);
  CHECK(page.find("<time datetime=\"2026-11-01\">") != std::string::npos);
  // The entry is unchanged, its evidence gone: its record is not the one the last build made.
  const std::string lock_text = read(kb.root / "verify.lock");
  fs::remove(kb.root / "verify.lock");
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(json::parse(
            read(kb.root / "dist/api/pytorch/cuda-out-of-memory.json"))["verification_tier"] ==
        "human_reviewed");
  write(kb.root / "verify.lock", lock_text);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(json::parse(
            read(kb.root / "dist/api/pytorch/cuda-out-of-memory.json"))["verification_tier"] ==
        "verified");

  // A changed recipe: lint says the evidence is stale, and build no longer uses it.
  std::string text = read(kb.root / kEntryPath);
  text.replace(text.find("echo 'starting'"), 15, "echo 'begin'");
  write(kb.root / kEntryPath, text);
  const Run stale = kbc("lint " + kb.arg());
  CHECK(stale.output.find("[evidence-stale]") != std::string::npos);
  REQUIRE(kbc("build " + kb.arg()).status == 0);
  CHECK(json::parse(
            read(kb.root / "dist/api/pytorch/cuda-out-of-memory.json"))["verification_tier"] ==
        "human_reviewed");
}

// A lint of unchanged entries reads none of them (only what the last lint loaded and found):
// a recipe file is not an entry, and changing it must still change what lint reports.
TEST_CASE("lint of unchanged entries still sees a changed recipe file and verify.lock") {
  REQUIRE(have_bwrap());
  RecipeKb kb("reproduce:\n  file: recipe.sh\n");
  const fs::path recipe = kb.root / "entries/pytorch/recipe.sh";
  write(recipe, "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'\n");
  CHECK(kb.verify()["results"][0]["status"] == "reproduced");
  CHECK(lint_same_as_uncached(kb).output == "0 errors, 0 warnings in 1 file\n");
  write(recipe, read(recipe) + "exit 1\n");
  CHECK(lint_same_as_uncached(kb).output.find("[evidence-stale]") != std::string::npos);
  write(kb.root / "verify.lock", "{");
  CHECK(lint_same_as_uncached(kb).output.find("verify.lock") != std::string::npos);
}

TEST_CASE("verify reports a recipe whose output does not match, with its last lines") {
  REQUIRE(have_bwrap());
  RecipeKb kb(shell_recipe("echo 'all fine here'\nexit 3"));
  const json result = kb.verify("", 1);
  const json& failed = result["results"][0];
  CHECK(failed["status"] == "failed");
  CHECK(failed["reason"] ==
        "no line of its output matches the entry's regex; the recipe exited with status 3");
  CHECK(failed["output_tail"] == json{"all fine here"});
  const Run text = kbc("verify --today 2026-11-01 " + kb.arg());
  CHECK(text.status == 1);
  CHECK(text.output.find("           | all fine here\n") != std::string::npos);
  CHECK(kbc("lint " + kb.arg()).output.find("[evidence-failed]") != std::string::npos);
}

TEST_CASE("verify skips a recipe whose needs are missing, and says which") {
  REQUIRE(have_bwrap());
  RecipeKb kb(kEchoRecipe + "  needs:\n    packages: [kbc-no-such-package]\n");
  const json result = kb.verify();
  CHECK(result["results"][0]["status"] == "skipped");
  CHECK(result["results"][0]["reason"] ==
        "needs the Debian package kbc-no-such-package, not installed here");
  CHECK_FALSE(fs::exists(kb.root / "verify.lock"));
  if (shell("command -v nvidia-smi >/dev/null").status != 0) {
    RecipeKb gpu(kEchoRecipe + "  needs:\n    gpu: true\n");
    CHECK(gpu.verify()["results"][0]["reason"] == "needs a GPU (nvidia-smi found none)");
  }
  RecipeKb module(kEchoRecipe + "  needs:\n    python_modules: [kbc_no_such_module]\n");
  const std::string reason = module.verify()["results"][0]["reason"];
  CHECK(reason.starts_with("needs the Python module kbc_no_such_module ("));
}

TEST_CASE("verify calls evidence stale when the recipe changed and cannot run here") {
  REQUIRE(have_bwrap());
  RecipeKb kb(kEchoRecipe);
  kb.verify();
  write(kb.root / kEntryPath, read(kb.root / kEntryPath) + "  needs:\n    packages: [kbc-nope]\n");
  const json result = kb.verify();
  CHECK(result["results"][0]["status"] == "stale");
  CHECK(result["results"][0]["reason"].get<std::string>().starts_with(
      "the recipe changed since its evidence of 2026-11-01, and it cannot run here"));
}

TEST_CASE("verify --capture adds a new output line to the samples, once") {
  REQUIRE(have_bwrap());
  RecipeKb kb(shell_recipe(
      "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.50 GiB'"));
  const json result = kb.verify("--capture");
  CHECK(result["results"][0]["captured"] == true);
  const std::string text = read(kb.root / kEntryPath);
  CHECK(text.find("- 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64 MiB'\n"
                  "- \"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.50 GiB\"\n"
                  "counter_samples:\n") != std::string::npos);
  CHECK(kb.verify("--capture")["results"][0]["captured"] == false);
  CHECK(read(kb.root / kEntryPath) == text);
  CHECK(kbc("lint " + kb.arg()).output == "0 errors, 0 warnings in 1 file\n");
}

TEST_CASE("verify names an unknown id, and an entry without a recipe") {
  RecipeKb kb(kEchoRecipe);
  const Run unknown = kbc("verify " + kb.arg() + " pytorch/cuda-out-of-memroy");
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find("no entry pytorch/cuda-out-of-memroy (did you mean "
                            "pytorch/cuda-out-of-memory?)") != std::string::npos);
  write(kb.root / "verify.lock", "{\"kbc_verify_lock\": 1, \"entries\": [}\n");
  const Run broken = kbc("verify " + kb.arg());
  CHECK(broken.status == 2);
  CHECK(broken.output.find("verify.lock:1:") != std::string::npos);
}

TEST_CASE("a recipe cannot reach the network") {
  REQUIRE(have_bwrap());
  // A server on the host's loopback that the recipe tries to reach.
  const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  REQUIRE(server >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t size = sizeof address;
  ::getsockname(server, reinterpret_cast<sockaddr*>(&address), &size);
  REQUIRE(::listen(server, 4) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));
  RecipeKb kb(
      "reproduce:\n  timeout: 20\n  python: |\n"
      "    import socket\n"
      "    for host in ('127.0.0.1', '1.1.1.1'):\n"
      "        try:\n"
      "            socket.create_connection((host, " +
      port +
      "), timeout=3)\n"
      "            print('CUDA out of memory. Tried to allocate 1 GiB: connected to', host)\n"
      "        except OSError as e:\n"
      "            print('blocked:', host, e)\n");
  const json result = kb.verify("", 1);
  CHECK(result["results"][0]["status"] == "failed");
  const std::string tail = result["results"][0]["output_tail"].dump();
  CHECK(tail.find("blocked: 127.0.0.1") != std::string::npos);
  CHECK(tail.find("blocked: 1.1.1.1") != std::string::npos);
  CHECK(::accept(server, nullptr, nullptr) < 0);  // nobody connected
  ::close(server);
}

TEST_CASE("a recipe cannot write outside its folder, and its folder is thrown away") {
  REQUIRE(have_bwrap());
  RecipeKb kb(
      shell_recipe("echo kept > here.txt && echo 'wrote here.txt'\n"
                   "echo x > '" +
                   (fs::path(KBC_TEST_DATA) / "verify" / "planted").string() +
                   "' || echo 'denied: tests'\n"
                   "echo x > /etc/kbc-planted || echo 'denied: etc'\n"
                   "echo x > /usr/kbc-planted || echo 'denied: usr'\n"
                   "ls / | tr '\\n' ' '; echo"));
  const json result = kb.verify("", 1);
  const std::string tail = result["results"][0]["output_tail"].dump();
  INFO(tail);
  CHECK(tail.find("wrote here.txt") != std::string::npos);
  CHECK(tail.find("denied: tests") != std::string::npos);
  CHECK(tail.find("denied: etc") != std::string::npos);
  CHECK(tail.find("denied: usr") != std::string::npos);
  CHECK(tail.find("home") == std::string::npos);  // no /home, /root or /work of the machine
  CHECK(tail.find(" root ") == std::string::npos);
  CHECK_FALSE(fs::exists(fs::path(KBC_TEST_DATA) / "verify" / "planted"));
  CHECK_FALSE(fs::exists("/etc/kbc-planted"));
  CHECK_FALSE(fs::exists(kb.root / "here.txt"));
}

// Tagged [alone]: it runs with no other test beside it (tests/CMakeLists.txt).
TEST_CASE("a fork bomb is held to the process limit and stopped at the time limit", "[alone]") {
  REQUIRE(have_bwrap());
  // The bomb runs as a copy of sh named kbcbomb, to be found after. Its output passes through
  // `sed -u`, which writes each line as it comes (head would hold a last block that the kill at
  // the time limit throws away: on a busy machine, all of it).
  RecipeKb kb(
      shell_recipe("cp /bin/sh ./kbcbomb\n./kbcbomb -c 'bomb() { bomb | bomb & }; bomb; sleep 30' "
                   "2>&1 | sed -u -n '1,2000p'",
                   4));
  const json result = kb.verify("", 1);
  CHECK(result["results"][0]["reason"] ==
        "no line of its output matches the entry's regex; the recipe stopped after 4 s (its time "
        "limit)");
  CHECK(result["results"][0]["seconds"].get<double>() < 10);
  // It met the process limit (the shell says it cannot fork), and nothing of it is left running.
  CHECK(result["results"][0]["output_tail"].dump().find("fork") != std::string::npos);
  CHECK(shell("sleep 1; ps -e -o comm= | grep -c '^kbcbomb$' || true").output == "0\n");
}

TEST_CASE("a recipe that prints without end is stopped at the output limit") {
  REQUIRE(have_bwrap());
  RecipeKb kb(
      shell_recipe("yes 'CUDA out of memory. Tried to allocate 1 GiB, again and again'", 60));
  const json result = kb.verify();  // its first line matched: reproduced, but stopped
  CHECK(result["results"][0]["status"] == "reproduced");
  CHECK(result["results"][0]["seconds"].get<double>() < 30);
  RecipeKb quiet(shell_recipe("yes 'nothing to see'", 60));
  CHECK(quiet.verify("", 1)["results"][0]["reason"] ==
        "no line of its output matches the entry's regex; the recipe stopped after printing more "
        "than 16 MiB (the output limit)");
}

TEST_CASE("a recipe cannot take more memory than its limit") {
  REQUIRE(have_bwrap());
  RecipeKb kb(
      "reproduce:\n  python: |\n"
      "    try:\n"
      "        block = bytearray(8 * 1024**3)\n"
      "        print('allocated 8 GiB')\n"
      "    except MemoryError:\n"
      "        print('MemoryError: refused 8 GiB')\n");
  const json result = kb.verify("", 1);
  CHECK(result["results"][0]["output_tail"] == json{"MemoryError: refused 8 GiB"});
}

TEST_CASE("processes that each stay under the memory limit are stopped by their sum") {
  REQUIRE(have_bwrap());
  // Six processes of 1 GiB each: each under RLIMIT_AS (4 GiB), 6 GiB together.
  RecipeKb kb(
      "reproduce:\n  timeout: 60\n  python: |\n"
      "    import os, time\n"
      "    for _ in range(5):\n"
      "        if os.fork() == 0:\n"
      "            break\n"
      "    block = bytearray(1024**3)\n"
      "    print('holding 1 GiB', flush=True)\n"
      "    time.sleep(50)\n");
  const json result = kb.verify("", 1);
  CHECK(result["results"][0]["reason"] ==
        "no line of its output matches the entry's regex; the recipe stopped when its processes "
        "used more than 4096 MiB of memory together");
  CHECK(result["results"][0]["seconds"].get<double>() < 30);
}

TEST_CASE("the shipped CPU recipes reproduce, and the GPU recipes are skipped without a GPU") {
  REQUIRE(have_bwrap());
  // Debian's python3-torch is /usr/bin/python3's (.ci/setup --tests installs it).
  REQUIRE(shell("/usr/bin/python3 -c 'import torch' 2>/dev/null").status == 0);
  TempKb kb;  // with verify.lock
  REQUIRE(fs::exists(kb.root / "verify.lock"));
  const std::string command = "PATH=/usr/bin:/bin:$PATH " + std::string(KBC_BINARY) +
                              " verify --format json " + kb.arg() + " 2>/dev/null";
  const Run verify = shell(command);
  INFO(verify.output);
  REQUIRE(verify.status == 0);
  const json result = json::parse(verify.output);
  std::size_t cpu = 0, gpu = 0;
  for (const json& one : result["results"]) {
    INFO(one.dump());
    const bool needs_gpu =
        read(kb.root / one["path"].get<std::string>()).find("gpu: true") != std::string::npos;
    if (needs_gpu) {
      ++gpu;
      if (shell("command -v nvidia-smi >/dev/null").status != 0)
        CHECK(one["reason"] == "needs a GPU (nvidia-smi found none)");
    } else {
      ++cpu;
      CHECK(one["status"] == "reproduced");
    }
  }
  CHECK(cpu >= 12);
  CHECK(gpu >= 1);
}
