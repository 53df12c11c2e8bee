// End-to-end tests of `kbc mcp`: the real binary on the shipped entries (in a temporary copy)
// and on the bundle `kbc build` makes of them; a scripted session in one standard input, and a
// client that waits for each reply before it sends the next request.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

using kbc_e2e::lines_of;
using kbc_e2e::TempKb;
using kbc_e2e::fs::path;
using nlohmann::json;

namespace {

// A sample of cuda/cudnn-bn-epsilon-too-small (not its signature: another epsilon).
const std::string kMcpSample =
    "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when calling "
    "cudnnBatchNormalizationForwardTraining with epsilon=5e-07";

std::string request(int id, const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method +
         R"(","params":)" + params + "}";
}

std::string tool_call(int id, const std::string& tool, const json& arguments) {
  return request(id, "tools/call",
                 json{{"name", tool}, {"arguments", arguments}}.dump(-1, ' ', false));
}

// The session: requests, a notification and malformed lines, each kind of reply once.
std::string script(bool with_long_line) {
  std::string out;
  for (const std::string& line : {
           request(1, "initialize", R"({"protocolVersion":"2025-03-26","capabilities":{},
                                        "clientInfo":{"name":"e2e","version":"1"}})"),
           std::string(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"),
           std::string("this is not JSON"),
           request(2, "tools/list", "{}"),
           tool_call(3, "lookup_error", {{"error", kMcpSample}, {"top", 2}}),
           tool_call(4, "get_entry", {{"id", "cuda/cudnn-bn-epsilon-too-small"}}),
           tool_call(5, "get_entry", {{"id", "cuda/cudnn-bn-epsilon-too-smal"}}),
           tool_call(6, "search", {{"query", "非法"}, {"language", "zh"}}),
           std::string("[]"),
           std::string(R"({"jsonrpc":"2.0","id":{},"method":"ping"})"),
           request(7, "prompts/list", "{}"),
           tool_call(8, "lookup", json::object()),
           tool_call(9, "lookup_error", {{"error", "x"}, {"top", 0}}),
       }) {
    // Requests may span lines in the source above; on the wire each is one line.
    out += json::accept(line) ? json::parse(line).dump(-1, ' ', false) : line;
    out += "\n";
  }
  // 16 MiB and a little more: refused, and the server reads on.
  if (with_long_line) out += std::string((std::size_t{16} << 20) + 10, 'x') + "\n";
  out += request(10, "ping", "{}") + "\n";
  return out;
}

void check_error(const json& reply, const json& id, int code) {
  INFO(reply.dump());
  CHECK(reply["jsonrpc"] == "2.0");
  CHECK(reply["id"] == id);
  CHECK(reply["error"]["code"] == code);
}

// `kbc mcp <args>` with pipes on its standard input and output, for a client that reads each
// reply before it writes the next request.
class ServerProcess {
 public:
  explicit ServerProcess(const std::vector<std::string>& args) {
    old_sigpipe_ = signal(SIGPIPE, SIG_IGN);  // a server that died must fail the test, not end it
    std::vector<char*> argv = {const_cast<char*>(KBC_BINARY)};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    int to_server[2], from_server[2];
    REQUIRE(pipe(to_server) == 0);
    REQUIRE(pipe(from_server) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(to_server[0], STDIN_FILENO);
      dup2(from_server[1], STDOUT_FILENO);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDERR_FILENO);
      for (const int fd : {to_server[0], to_server[1], from_server[0], from_server[1], null})
        close(fd);
      execv(KBC_BINARY, argv.data());
      _exit(127);
    }
    close(to_server[0]);
    close(from_server[1]);
    to_ = to_server[1];
    from_ = from_server[0];
  }

  ~ServerProcess() {
    if (to_ >= 0) close(to_);
    close(from_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    signal(SIGPIPE, old_sigpipe_);
  }

  void send(const std::string& line) {
    const std::string bytes = line + "\n";
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = write(to_, bytes.data() + done, bytes.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
  }

  // The next line the server writes, waiting at most 30 s; nothing at its end of output.
  std::optional<std::string> receive() {
    for (;;) {
      if (const std::size_t newline = buffer_.find('\n'); newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      pollfd ready{from_, POLLIN, 0};
      if (poll(&ready, 1, 30000) <= 0) return std::nullopt;
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  pid_t pid() const { return pid_; }

  // Closes the server's input and returns its exit status.
  int finish() {
    close(to_);
    to_ = -1;
    int status = 0;
    REQUIRE(waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::string buffer_;
  void (*old_sigpipe_)(int) = SIG_DFL;
};

}  // namespace

TEST_CASE("kbc mcp answers a scripted session with malformed lines and exits 0 at its end") {
  TempKb kb;
  kbc_e2e::write(kb.root / "session.jsonl", script(true));
  const kbc_e2e::Run run =
      kbc_e2e::kbc("mcp " + kb.arg() + " < " + (kb.root / "session.jsonl").string(), false);
  CHECK(run.status == 0);
  const std::vector<std::string> lines = lines_of(run.output);
  REQUIRE(lines.size() == 14);  // every message but the notification
  std::vector<json> replies;
  for (const std::string& line : lines) replies.push_back(json::parse(line));

  CHECK(replies[0]["id"] == 1);
  CHECK(replies[0]["result"]["protocolVersion"] == "2025-03-26");
  CHECK(replies[0]["result"]["serverInfo"]["name"] == "kbc");
  check_error(replies[1], nullptr, -32700);
  CHECK(replies[2]["id"] == 2);
  CHECK(replies[2]["result"]["tools"].size() == 3);

  // lookup_error: what kbc match --json prints for the same text.
  CHECK(replies[3]["id"] == 3);
  const kbc_e2e::Run match =
      kbc_e2e::kbc("match --json --top 2 " + kb.arg() + " '" + kMcpSample + "'", false);
  REQUIRE(match.status == 0);
  CHECK(replies[3]["result"]["isError"] == false);
  CHECK(replies[3]["result"]["structuredContent"] == json::parse(match.output));
  CHECK(replies[3]["result"]["structuredContent"]["hits"][0]["id"] ==
        "cuda/cudnn-bn-epsilon-too-small");

  // get_entry: the record as kbc build publishes it, and the related entries both ways.
  const json& entry = replies[4]["result"]["structuredContent"];
  CHECK(entry["entry"]["id"] == "cuda/cudnn-bn-epsilon-too-small");
  CHECK(entry["entry"]["workarounds"][0]["action"].get<std::string>().starts_with(
      "Upgrade to cuDNN 7.5 or newer"));
  const json& confused = entry["related"]["frequently_confused_with"];
  REQUIRE(confused.size() == 3);
  CHECK(confused[0]["id"] == "tensorflow/conv2d-cudnn-bad-param-input-shape");
  CHECK(confused[0]["direction"] == "both");
  CHECK(confused[1]["id"] == "tensorflow/cudnn-bad-param-zero-batch");
  CHECK(confused[1]["direction"] == "both");
  CHECK(confused[2]["id"] == "cuda/cudnn-execution-failed-nonfinite");
  CHECK(confused[2]["direction"] == "incoming");
  CHECK(confused[2]["signature"].get<std::string>().find("CUDNN_STATUS_EXECUTION_FAILED") !=
        std::string::npos);

  CHECK(replies[5]["result"]["isError"] == true);
  CHECK(replies[5]["result"]["content"][0]["text"] ==
        "no entry has the id 'cuda/cudnn-bn-epsilon-too-smal'; did you mean "
        "'cuda/cudnn-bn-epsilon-too-small'?");

  const json& found = replies[6]["result"]["structuredContent"];
  REQUIRE(found["results"].size() >= 1);
  CHECK(found["results"][0]["id"] == "cuda/illegal-memory-access");

  check_error(replies[7], nullptr, -32600);
  check_error(replies[8], nullptr, -32600);
  check_error(replies[9], 7, -32601);
  check_error(replies[10], 8, -32602);
  check_error(replies[11], 9, -32602);
  check_error(replies[12], nullptr, -32600);
  CHECK(replies[12]["error"]["message"].get<std::string>().find("over 16777216 bytes") !=
        std::string::npos);
  CHECK(replies[13] == json::parse(R"({"jsonrpc":"2.0","id":10,"result":{}})"));
}

TEST_CASE("kbc mcp serves a bundle as it serves the knowledge base it was built from") {
  TempKb kb;
  REQUIRE(kbc_e2e::kbc("build " + kb.arg()).status == 0);
  kbc_e2e::write(kb.root / "session.jsonl", script(false));
  const std::string input = " < " + (kb.root / "session.jsonl").string();
  const kbc_e2e::Run from_root = kbc_e2e::kbc("mcp " + kb.arg() + input, false);
  const kbc_e2e::Run from_bundle =
      kbc_e2e::kbc("mcp --bundle " + (kb.root / "dist/kb.json").string() + input, false);
  CHECK(from_root.status == 0);
  CHECK(from_bundle.status == 0);
  CHECK(lines_of(from_root.output).size() == 13);
  CHECK(from_root.output == from_bundle.output);
}

TEST_CASE("kbc mcp answers each request as soon as its line arrives") {
  TempKb kb;
  ServerProcess server({"mcp", "--root", kb.root.string()});
  server.send(request(1, "initialize", R"({"protocolVersion":"2099-01-01"})"));
  const std::optional<std::string> initialized = server.receive();
  REQUIRE(initialized);
  CHECK(json::parse(*initialized)["result"]["protocolVersion"] == "2025-06-18");
  server.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  server.send("{\"broken");
  const std::optional<std::string> broken = server.receive();
  REQUIRE(broken);
  check_error(json::parse(*broken), nullptr, -32700);
  server.send(tool_call(2, "lookup_error", {{"error", kMcpSample}}));
  const std::optional<std::string> hits = server.receive();
  REQUIRE(hits);
  CHECK(json::parse(*hits)["result"]["structuredContent"]["hits"][0]["id"] ==
        "cuda/cudnn-bn-epsilon-too-small");
  CHECK(server.finish() == 0);
  CHECK_FALSE(server.receive());  // nothing more was written
}

// The environment `pid` was started with ("NAME=value" each), as /proc holds it.
std::vector<std::string> environment_of(pid_t pid) {
  std::vector<std::string> variables;
  std::istringstream in(kbc_e2e::read("/proc/" + std::to_string(pid) + "/environ"));
  for (std::string variable; std::getline(in, variable, '\0');) variables.push_back(variable);
  return variables;
}

// How a process of kbc was started: with the huge-pages tunable it sets, or with `tunables`.
std::vector<std::string> tunables_of_server(const char* tunables) {
  const char* given = getenv("GLIBC_TUNABLES");
  const std::optional<std::string> kept = given ? std::optional<std::string>(given) : std::nullopt;
  if (tunables)
    setenv("GLIBC_TUNABLES", tunables, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  TempKb kb;
  ServerProcess server({"mcp", "--root", kb.root.string()});
  server.send(request(1, "ping", "{}"));  // answered: kbc started, and started again
  const std::optional<std::string> pong = server.receive();
  std::vector<std::string> found;
  for (const std::string& variable : environment_of(server.pid()))
    if (variable.starts_with("GLIBC_TUNABLES=")) found.push_back(variable);
  if (kept)
    setenv("GLIBC_TUNABLES", kept->c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
  REQUIRE(pong);
  CHECK(server.finish() == 0);
  return found;
}

TEST_CASE("kbc starts again with huge pages for its heaps, unless GLIBC_TUNABLES says otherwise") {
  const std::string mode = kbc_e2e::read("/sys/kernel/mm/transparent_hugepage/enabled");
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  const bool expected = false;  // the sanitizers' allocators are not glibc's
#else
  const bool expected = mode.find("[madvise]") != std::string::npos;
#endif
  INFO("transparent huge pages: " << mode);
  using Found = std::vector<std::string>;
  CHECK(tunables_of_server(nullptr) ==
        (expected ? Found{"GLIBC_TUNABLES=glibc.malloc.hugetlb=1"} : Found{}));
  CHECK(tunables_of_server("glibc.malloc.hugetlb=0") ==
        Found{"GLIBC_TUNABLES=glibc.malloc.hugetlb=0"});
}

TEST_CASE("kbc mcp refuses bad usage and bad bundles with exit 2") {
  TempKb kb;
  kbc_e2e::write(kb.root / "bad.json", "{\"not\": \"a bundle\"}");
  kbc_e2e::write(kb.root / "broken.json", "[{");
  // A bundle nested 300,000 arrays deep overflowed the stack of a recursive copy.
  kbc_e2e::write(kb.root / "deep.json", std::string(300000, '[') + std::string(300000, ']'));
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"mcp " + kb.arg() + " extra", "kbc mcp: takes no operands"},
      {"mcp " + kb.arg() + " --bundle x.json", "kbc mcp: give --root or --bundle, not both"},
      {"mcp --bundle " + (kb.root / "none.json").string(), "kbc mcp: cannot read"},
      {"mcp --bundle " + (kb.root / "bad.json").string(), "a bundle is a JSON array of records"},
      {"mcp --bundle " + (kb.root / "broken.json").string(), "parse error"},
      {"mcp --root " + (kb.root / "nowhere").string(), ""},
      {"mcp --bundle " + (kb.root / "deep.json").string(), "nested deeper than 32 levels"},
  };
  for (const Case& c : cases) {
    const kbc_e2e::Run run = kbc_e2e::kbc(c.args + " < /dev/null");
    INFO(c.args << "\n" << run.output);
    CHECK(run.status == 2);
    CHECK(run.output.find(c.message) != std::string::npos);
  }
  const kbc_e2e::Run closed = kbc_e2e::kbc("mcp " + kb.arg() + " <&-");
  CHECK(closed.status == 2);
  CHECK(closed.output.find("kbc mcp: standard input is closed") != std::string::npos);
}

TEST_CASE("kbc mcp refuses a message nested too deep as it reads it, and goes on") {
  TempKb kb;
  // 15 MiB of '[' on one line made 1.2 GB of nodes.
  kbc_e2e::write(kb.root / "session.txt", std::string(15 << 20, '[') + "\n" +
                                              R"({"jsonrpc":"2.0","id":1,"method":"ping"})" + "\n");
  const kbc_e2e::Run run = kbc_e2e::shell(std::string(KBC_BINARY) + " mcp " + kb.arg() + " < " +
                                          (kb.root / "session.txt").string() + " 2>/dev/null");
  CHECK(run.status == 0);
  CHECK(run.output.find("the message is nested deeper than 32 levels") != std::string::npos);
  CHECK(run.output.find(R"({"jsonrpc":"2.0","id":1,"result":{}})") != std::string::npos);
}
