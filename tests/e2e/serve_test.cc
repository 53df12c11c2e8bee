// End-to-end tests of `kbc serve`: the real binary as a child process, on a knowledge base in a
// temporary folder, spoken to over HTTP. Every wait is bounded, and a child that is still running
// when a test ends (a failed REQUIRE included) is killed.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "e2e_support.h"

namespace fs = std::filesystem;
using kbc_e2e::read;
using kbc_e2e::write;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

const std::string kEntry = "entries/cuda/driver-version-insufficient.yaml";
const std::string kPage = "/en/entries/cuda/driver-version-insufficient.html";

// Replaces the first `from` in the file; the test fails if there is none.
void edit(const fs::path& path, const std::string& from, const std::string& to) {
  std::string text = read(path);
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  write(path, text);
}

// A temporary folder holding the browser tests' one-entry knowledge base under kb/.
struct TempDir {
  fs::path dir;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kbc-serve-XXXXXX").string();
    dir = mkdtemp(pattern.data());
    fs::create_directories(root());
    fs::copy(fs::path(KBC_TEST_DATA) / "browser/fixtures/entries", root() / "entries",
             fs::copy_options::recursive);
  }
  ~TempDir() { fs::remove_all(dir); }
  fs::path root() const { return dir / "kb"; }
};

// `kbc ARGS...` with stdout on a pipe and stderr in a file.
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& stderr_file)
      : stderr_file_(stderr_file) {
    int pipe_fds[2];
    REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argv_strings = {KBC_BINARY};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_strings) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, KBC_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    out_ = pipe_fds[0];
    REQUIRE(spawned == 0);
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }

  // The next line of stdout, or nullopt after `timeout` or at the end of the output.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    std::string line;
    while (Clock::now() < deadline) {
      pollfd ready{out_, POLLIN, 0};
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (::poll(&ready, 1, static_cast<int>(std::max<long>(left.count(), 1))) <= 0) continue;
      char c;
      if (::read(out_, &c, 1) != 1) return std::nullopt;
      if (c == '\n') return line;
      line += c;
    }
    return std::nullopt;
  }

  // The exit status once it has exited by itself, or -1 after `timeout`.
  int wait_exit(std::chrono::milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }

  int terminate(std::chrono::milliseconds timeout) {
    ::kill(pid_, SIGTERM);
    return wait_exit(timeout);
  }

  std::string stderr_text() const { return read(stderr_file_); }

  // Its standard error once it holds `text`, or after 15 s: kbc serve prints a build's line
  // just after it publishes the build's status, so a test that saw the status waits for it.
  std::string stderr_with(const std::string& text) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    std::string now = stderr_text();
    while (now.find(text) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      now = stderr_text();
    }
    return now;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  fs::path stderr_file_;
};

// A `kbc serve --port 0` on `root`, once it has printed its address.
struct Server {
  Child child;
  int port = 0;
  Server(const fs::path& root, const fs::path& stderr_file)
      : child({"serve", "--root", root.string(), "--port", "0", "--color", "never"}, stderr_file) {
    const auto line = child.read_line(20s);
    INFO("stderr: " << child.stderr_text());
    REQUIRE(line);
    const std::string prefix = "serving http://127.0.0.1:";
    REQUIRE(line->starts_with(prefix));
    std::size_t digits = 0;
    port = std::stoi(line->substr(prefix.size()), &digits);
    CHECK(line->substr(prefix.size() + digits, 2) == "/ ");
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/"; }
};

std::unique_ptr<httplib::Client> client(int port, time_t read_timeout = 5) {
  auto out = std::make_unique<httplib::Client>("127.0.0.1", port);
  out->set_connection_timeout(2, 0);
  out->set_read_timeout(read_timeout, 0);
  return out;
}

struct Got {
  int status = 0;  // 0: no answer
  std::string body;
  std::string type;
  std::string location;
};

Got get(int port, const std::string& path) {
  const auto result = client(port)->Get(path.c_str());
  if (!result) return {};
  return {result->status, result->body, result->get_header_value("Content-Type"),
          result->get_header_value("Location")};
}

json status(int port) {
  const Got got = get(port, "/__kbc/status");
  REQUIRE(got.status == 200);
  return json::parse(got.body);
}

// Polls /__kbc/status until `done` holds, for at most 15 s.
json wait_for(int port, const std::function<bool(const json&)>& done) {
  const Clock::time_point deadline = Clock::now() + 15s;
  json now = status(port);
  while (!done(now) && Clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    now = status(port);
  }
  INFO("last status: " << now.dump());
  REQUIRE(done(now));
  return now;
}

// The page without the line kbc serve adds to it.
std::string without_live_reload(std::string html) {
  const std::size_t begin = html.find("<script src=\"/__kbc/live-reload.js\"");
  const std::size_t end = html.find("</script>\n", begin);
  if (begin != std::string::npos && end != std::string::npos)
    html.erase(begin, end + std::string_view("</script>\n").size() - begin);
  return html;
}

int line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& item : fs::directory_iterator(dir)) names.insert(item.path().filename());
  return names;
}

}  // namespace

TEST_CASE(
    "kbc serve rebuilds on an edit and shows an entry's errors on its page while lint fails") {
  TempDir temp;
  const fs::path entry = temp.root() / kEntry;
  Server server(temp.root(), temp.dir / "serve.err");
  const int port = server.port;

  // The page as `kbc build` writes it for the same address, plus the live-reload script.
  const Got page = get(port, kPage);
  REQUIRE(page.status == 200);
  CHECK(page.type == "text/html; charset=utf-8");
  CHECK(page.body.find("Every CUDA runtime") != std::string::npos);
  CHECK(page.body.find("<script src=\"/__kbc/live-reload.js\" data-server=\"") !=
        std::string::npos);
  CHECK(page.body.find("data-generation=\"1\" data-site-generation=\"1\"></script>\n</body>") !=
        std::string::npos);
  const std::string build_command =
      std::string(KBC_BINARY) + " build --root " + temp.root().string() + " --out " +
      (temp.dir / "dist").string() + " --base-url " + server.url() + " 2>/dev/null";
  REQUIRE(std::system(build_command.c_str()) == 0);
  CHECK(without_live_reload(page.body) == read(temp.dir / "dist/site" / kPage.substr(1)));
  json first = status(port);
  CHECK(first["generation"] == 1);
  CHECK(first["ok"] == true);
  CHECK(first["warnings"] == 2);

  // An edit: a long poll waiting on build 1 answers with build 2, and the page shows the edit.
  auto waiting = std::async(std::launch::async, [port] {
    const auto result = client(port, 30)->Get("/__kbc/wait?since=1");
    return result ? json::parse(result->body) : json();
  });
  std::this_thread::sleep_for(200ms);  // the request is waiting
  CHECK(waiting.wait_for(0ms) == std::future_status::timeout);
  edit(entry, "Every CUDA runtime", "Every EDITED runtime");
  REQUIRE(waiting.wait_for(15s) == std::future_status::ready);
  const json second = waiting.get();
  CHECK(second["generation"] == 2);
  CHECK(second["site_generation"] == 2);
  CHECK(second["server"] == first["server"]);
  const Got edited = get(port, kPage);
  CHECK(edited.body.find("Every EDITED runtime") != std::string::npos);
  CHECK(edited.body.find("Every CUDA runtime") == std::string::npos);

  // A lint error: reported in the status and the terminal; the other entries are served, and
  // this one's page shows its errors.
  const std::string action = "- action: 'Install a newer CUDA toolkit";
  const int line = line_of(read(entry), action);
  edit(entry, action, "- action: '' #");
  const json failed = wait_for(port, [](const json& s) { return s["generation"] >= 3; });
  CHECK(failed["ok"] == false);
  CHECK(failed["errors"] == 1);
  CHECK(failed["site_generation"] == 3);
  CHECK(failed["site_ok"] == false);
  const std::string expected = kEntry + ":" + std::to_string(line) +
                               ":11: error: dead_ends[0] has a blank action: name the fix that "
                               "does not work [entry-blank-text]";
  bool listed = false;
  for (const json& d : failed["diagnostics"]) {
    if (d["rule"] != "entry-blank-text") continue;
    listed = true;
    CHECK(d["path"] == kEntry);
    CHECK(d["line"] == line);
    CHECK(d["column"] == 11);
    CHECK(d["text"].get<std::string>().starts_with(expected + "\n"));  // then the source line
  }
  CHECK(listed);
  const Got broken = get(port, kPage);
  CHECK(broken.status == 404);
  CHECK(broken.body.find("Not built: " + kEntry + " has errors") != std::string::npos);
  CHECK(broken.body.find(expected) != std::string::npos);
  CHECK(broken.body.find("data-generation=\"3\" data-site-generation=\"3\"") !=
        std::string::npos);  // the page reloads once the entry is built
  CHECK(get(port, "/en/").status == 200);
  const std::string terminal = server.child.stderr_with("(1 file left out)");
  CHECK(terminal.find(expected) != std::string::npos);
  CHECK(terminal.find("build 3: 1 error; serving the") != std::string::npos);

  // Fixed again: the status is good, and the entry's page is back.
  edit(entry, "- action: '' #", action);
  const json fixed = wait_for(port, [](const json& s) { return s["generation"] >= 4; });
  CHECK(fixed["ok"] == true);
  CHECK(fixed["site_generation"] == 4);
  CHECK(get(port, kPage).body.find("Every EDITED runtime") != std::string::npos);

  // SIGTERM: a clean exit, nothing left in the knowledge base but the parse cache.
  CHECK(server.child.terminate(10s) == 0);
  CHECK(server.child.stderr_text().find("kbc serve: stopped") != std::string::npos);
  CHECK(names_in(temp.root()) == std::set<std::string>{".kbc-cache", "entries"});
}

TEST_CASE("kbc serve serves the entries without errors, and a broken entry's errors on its page") {
  TempDir temp;
  const fs::path broken = temp.root() / "entries/cuda/broken-entry.yaml";
  write(broken,
        "id: cuda/broken-entry\nsignature: 'CUDA error: broken'\nregex: 'CUDA error: broken'\n"
        "domain: cuda\ncategory: runtime_error\nroot_cause: Something.\n"
        "dead_ends:\n- action: ''\n  why_fails: It does not help.\n  fail_rate: 0.5\n"
        "workarounds: []\nverification_tier: ai_generated\nconfidence: 0.5\n"
        "fix_success_rate: 0.5\nresolvable: 'true'\nfirst_seen: '2024-01-01'\n"
        "last_confirmed: '2024-01-01'\nlast_updated: '2024-01-01'\nevidence_count: 1\n"
        "locale: en\n");
  Server server(temp.root(), temp.dir / "serve.err");
  const json first = status(server.port);
  CHECK(first["ok"] == false);
  CHECK(first["site_ok"] == false);
  CHECK(first["entries"] == 1);
  CHECK(get(server.port, kPage).status == 200);
  const Got broken_page = get(server.port, "/en/entries/cuda/broken-entry.html");
  CHECK(broken_page.status == 404);
  CHECK(broken_page.body.find("Not built: entries/cuda/broken-entry.yaml has errors") !=
        std::string::npos);
  CHECK(server.child.stderr_with("serving the 1 entry without errors (1 file left out)")
            .find("serving the 1 entry without errors (1 file left out)") != std::string::npos);

  edit(broken, "- action: ''", "- action: Restart the machine");
  const json fixed = wait_for(server.port, [](const json& s) { return s["generation"] >= 2; });
  CHECK(fixed["ok"] == true);
  CHECK(fixed["site_ok"] == true);
  CHECK(fixed["site_generation"] == 2);
  CHECK(fixed["entries"] == 2);
  CHECK(get(server.port, "/en/entries/cuda/broken-entry.html").status == 200);
  CHECK(server.child.stderr_with("kbc serve: build 2: 2 entries, 5 warnings in ")
            .find("kbc serve: build 2: 2 entries, 5 warnings in ") != std::string::npos);

  // A failure of the tool (no entries/ folder) keeps the site too, and the server running.
  fs::rename(temp.root() / "entries", temp.dir / "away");
  const json gone = wait_for(server.port, [](const json& s) { return s["generation"] >= 3; });
  CHECK(gone["ok"] == false);
  CHECK(gone["failure"].get<std::string>().find("no entries/ folder") != std::string::npos);
  CHECK(get(server.port, "/en/entries/cuda/broken-entry.html").status == 200);
  CHECK(server.child.terminate(10s) == 0);
}

TEST_CASE("kbc serve answers as a static host would, and never outside the site") {
  TempDir temp;
  Server server(temp.root(), temp.dir / "serve.err");
  const int port = server.port;
  const std::vector<std::pair<std::string, std::string>> types = {
      {"/en/index.html", "text/html; charset=utf-8"},
      {"/assets/style.css", "text/css; charset=utf-8"},
      {"/assets/search.js", "text/javascript; charset=utf-8"},
      {"/en/search/meta.json", "application/json"},
      {"/sitemap.xml", "application/xml"},
      {"/en/feed.xml", "application/atom+xml"},
      {"/robots.txt", "text/plain; charset=utf-8"},
      {"/md/en/cuda/driver-version-insufficient.md", "text/markdown; charset=utf-8"},
      {"/api/cuda/driver-version-insufficient.json", "application/json"},
      {"/__kbc/live-reload.js", "text/javascript; charset=utf-8"},
  };
  for (const auto& [path, type] : types) {
    INFO(path);
    const Got got = get(port, path);
    CHECK(got.status == 200);
    CHECK(got.type == type);
  }
  CHECK(get(port, "/").body.find("/__kbc/live-reload.js") != std::string::npos);
  const Got folder = get(port, "/en");
  CHECK(folder.status == 302);
  CHECK(folder.location == "en/");
  CHECK(get(port, "/en/").status == 200);
  // The not-found page of the language asked for, with the script, so it reloads once the
  // page exists.
  const Got missing = get(port, "/zh/entries/cuda/nothing.html");
  CHECK(missing.status == 404);
  CHECK(missing.body.find("<html lang=\"zh-CN\"") != std::string::npos);
  CHECK(missing.body.find("/__kbc/live-reload.js") != std::string::npos);
  // Whatever climbs out of the site finds nothing: not the knowledge base, not the bundle.
  for (const std::string& path :
       std::vector<std::string>{"/../kb.json", "/%2e%2e/kb.json",
                                "/en/../../entries/cuda/driver-version-insufficient.yaml",
                                "/..%2f..%2fetc/passwd", "//etc/passwd"}) {
    INFO(path);
    const Got got = get(port, path);
    CHECK(got.status == 404);
    CHECK(got.body.find("id: cuda/") == std::string::npos);
    CHECK(got.body.find("root:") == std::string::npos);
  }
  // Only to this machine's names: not to a page whose host name an attacker made resolve to
  // 127.0.0.1.
  const std::string suffix = ":" + std::to_string(port);
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1" + suffix, "localhost" + suffix}) {
    const auto local = client(port)->Get("/en/index.html", {{"Host", host}});
    REQUIRE(local);
    CHECK(local->status == 200);
  }
  for (const std::string& host : std::vector<std::string>{
           "attacker.example" + suffix, "127.0.0.1.attacker.example", "localhost:1"}) {
    INFO(host);
    const auto rebound = client(port)->Get("/en/index.html", {{"Host", host}});
    REQUIRE(rebound);
    CHECK(rebound->status == 403);
    CHECK(rebound->body.find("<html") == std::string::npos);
  }
  CHECK(get(port, "/__kbc/wait?since=x").status == 400);
  CHECK(get(port, "/__kbc/nothing").status == 404);
  CHECK(server.child.terminate(10s) == 0);
}

TEST_CASE("kbc serve: bad options, a missing knowledge base and a taken port exit 2") {
  TempDir temp;
  const fs::path err = temp.dir / "err";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"serve", "--port", "http"},
           {"serve", "--port", "70000"},
           {"serve", "--port", "-1"},
           {"serve", "--prot", "0"},
           {"serve", "somewhere"},
           {"serve", "--port", "0", "--root", (temp.dir / "nothing").string()}}) {
    Child child(args, err);
    INFO(args.back());
    CHECK(child.wait_exit(10s) == 2);
    CHECK_FALSE(child.stderr_text().empty());
  }
  Child words({"serve", "--port", "http"}, err);
  REQUIRE(words.wait_exit(10s) == 2);
  CHECK(words.stderr_text() ==
        "kbc serve: --port must be a number from 0 to 65535 (0: any free port), not 'http'\n");

  Server first(temp.root(), temp.dir / "first.err");
  Child second({"serve", "--root", temp.root().string(), "--port", std::to_string(first.port)},
               err);
  CHECK(second.wait_exit(10s) == 2);
  CHECK(second.stderr_text().find("cannot listen on 127.0.0.1:" + std::to_string(first.port)) !=
        std::string::npos);
  CHECK(first.child.terminate(10s) == 0);
}

namespace {

// A raw connection to 127.0.0.1:port, for what an HTTP client library would not send.
struct RawConnection {
  int fd = -1;
  explicit RawConnection(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // A burst of connections can fill the listen queue of a slow (sanitized) server: retry.
    for (int attempt = 0; attempt < 50; ++attempt) {
      fd = ::socket(AF_INET, SOCK_STREAM, 0);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) return;
      ::close(fd);
      std::this_thread::sleep_for(100ms);
    }
    FAIL("cannot connect to 127.0.0.1:" << port);
  }
  ~RawConnection() { ::close(fd); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  bool send(const std::string& text) const {
    return ::send(fd, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size());
  }
  // What the server sends until it closes the connection, or `limit` passes.
  std::string until_closed(std::chrono::milliseconds limit) const {
    std::string out;
    const Clock::time_point deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
      pollfd ready{fd, POLLIN, 0};
      if (::poll(&ready, 1, 50) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) return out + "<closed>";
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("kbc serve answers GET and HEAD from localhost in any case, one answer a connection") {
  TempDir temp;
  Server server(temp.root(), temp.dir / "serve.err");
  for (const std::string method : {"POST", "OPTIONS", "PUT", "DELETE"}) {
    INFO(method);
    auto answer = client(server.port)->send([&] {
      httplib::Request request;
      request.method = method;
      request.path = "/en/";
      return request;
    }());
    REQUIRE(answer);
    CHECK(answer->status == 405);
    CHECK(answer->get_header_value("Allow") == "GET, HEAD");
  }
  CHECK(client(server.port)->Head("/en/")->status == 200);
  const RawConnection upper(server.port);
  REQUIRE(upper.send(
      "GET /__kbc/status HTTP/1.1\r\nHost: LOCALHOST:" + std::to_string(server.port) + "\r\n\r\n"));
  CHECK(upper.until_closed(3s).starts_with("HTTP/1.1 200 OK"));
  // Two requests in one write: the first is answered and the connection closed, so that the
  // client sends the second again; neither waits on an open connection.
  const RawConnection pipelined(server.port);
  const std::string request = "GET /__kbc/status HTTP/1.1\r\nHost: localhost\r\n\r\n";
  REQUIRE(pipelined.send(request + request));
  const Clock::time_point start = Clock::now();
  const std::string answer = pipelined.until_closed(5s);
  CHECK(Clock::now() - start < 1s);
  CHECK(answer.starts_with("HTTP/1.1 200 OK"));
  CHECK(answer.find("Connection: close") != std::string::npos);
  CHECK(answer.ends_with("<closed>"));
}

TEST_CASE("kbc serve answers a page while 70 clients trickle headers or wait for builds") {
  TempDir temp;
  Server server(temp.root(), temp.dir / "serve.err");
  // 70 connections that send a header line every 3 s held every thread for as long as they
  // went on; they are dropped after 2 s of silence.
  std::vector<std::unique_ptr<RawConnection>> trickling;
  for (int i = 0; i < 70; ++i) {
    trickling.push_back(std::make_unique<RawConnection>(server.port));
    trickling.back()->send("GET /en/ HTTP/1.1\r\nHost: localhost\r\n");
  }
  // 70 pages waiting for a build: those past what the server keeps for pages get 503.
  std::vector<std::future<int>> waits;
  for (int i = 0; i < 70; ++i) {
    waits.push_back(std::async(std::launch::async, [port = server.port] {
      const auto result = client(port, 30)->Get("/__kbc/wait?since=1");
      return result ? result->status : 0;
    }));
  }
  std::this_thread::sleep_for(500ms);
  for (int round = 0; round < 3; ++round) {
    for (auto& connection : trickling) connection->send("X-Slow: 1\r\n");
    const Clock::time_point start = Clock::now();
    CHECK(get(server.port, "/en/").status == 200);
    CHECK(Clock::now() - start < 3s);
    std::this_thread::sleep_for(1s);
  }
  // Those past the cap are answered 503 at once; on a loaded machine "at once" may come late, so
  // look for one for up to 15 s (the others stay waiting for a build).
  int turned_away = 0;
  std::vector<bool> seen(waits.size());
  for (const auto deadline = Clock::now() + 15s; turned_away == 0 && Clock::now() < deadline;) {
    for (std::size_t i = 0; i < waits.size(); ++i) {
      if (seen[i] || waits[i].wait_for(0ms) != std::future_status::ready) continue;
      seen[i] = true;
      if (waits[i].get() == 503) ++turned_away;
    }
    std::this_thread::sleep_for(100ms);
  }
  CHECK(turned_away > 0);
  CHECK(server.child.terminate(10s) == 0);
}
