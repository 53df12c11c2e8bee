#include "serve/dev_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <set>

#include "base/text.h"
#include "model/entry.h"
#include "serve/site_files.h"
#include "site/markdown_html.h"

namespace kbc {
namespace {

// Every open page holds one thread with its long poll, and a browser keeps a few connections
// open besides; the default pool (8 threads) would make the ninth tab wait for the others.
constexpr std::size_t kServerThreads = 64;
// Short, so an idle browser connection neither holds a thread nor delays the shutdown for long.
constexpr time_t kKeepAliveSeconds = 1;
// A client that sends nothing for this long is dropped: one that trickles a header line every
// few seconds would otherwise hold a thread for as long as it likes (slowloris).
constexpr time_t kReadTimeoutSeconds = 2;
// Long polls past this many are turned away (503, and the page asks again a second later), so
// that open pages never take the threads that serve pages.
constexpr std::size_t kMostWaits = kServerThreads - 16;

// Distinguishes one run of the server from the next, so that open pages reload after a restart.
std::string random_server_id() {
  std::random_device random;
  const std::uint64_t id = (std::uint64_t{random()} << 32) | random();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(id));
  return hex;
}

// SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, with which a second server on
// the same port would bind without complaint and take half of the connections.
void reuse_address(socket_t socket) {
  const int yes = 1;
  ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

constexpr const char* kText = "text/plain; charset=utf-8";

// Whether a request's Host names this machine: a page of another site whose name is made to
// resolve to 127.0.0.1 (DNS rebinding) must not read what the server serves.
bool is_local_host(const std::string& given, int port) {
  const std::string host = ascii_lower(given);  // host names ignore case (RFC 3986)
  const std::string with_port = ":" + std::to_string(port);
  for (const std::string_view name : {"127.0.0.1", "localhost"}) {
    if (host == name || host == std::string(name) + with_port) return true;
  }
  return host.empty();  // HTTP/1.0 without Host: not a browser
}

// The page for a path the served site does not have, when it is the page of an entry whose file
// has errors (left out of the site): those errors.
std::optional<std::string> broken_entry_page(const std::string& path,
                                             const Diagnostics& diagnostics) {
  std::set<std::string> broken;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError && d.path.starts_with("entries/")) broken.insert(d.path);
  }
  for (const std::string& file : broken) {
    const std::string id = id_from_entry_path(file);
    if (path.find("/" + id + ".html") == std::string::npos && !path.ends_with("/" + id) &&
        path.find("/" + id + "/") == std::string::npos)
      continue;
    const std::string title = "Not built: " + file + " has errors";
    std::string page = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" +
                       escape_html(title) + "</title></head>\n<body>\n<h1>" + escape_html(title) +
                       "</h1>\n<p>kbc serve shows the page once they are fixed.</p>\n<pre>";
    for (const Diagnostic& d : diagnostics) {
      if (d.path != file) continue;
      page +=
          escape_html(d.path + ":" + std::to_string(d.at.line) + ":" + std::to_string(d.at.column) +
                      ": " + std::string(severity_name(d.severity)) + ": " + d.message + " [" +
                      d.rule + "]") +
          "\n";
    }
    return page + "</pre>\n</body></html>\n";
  }
  return std::nullopt;
}

}  // namespace

DevServer::DevServer() : http_(std::make_unique<httplib::Server>()) {
  status_.server = random_server_id();
  http_->set_socket_options(reuse_address);
  http_->set_keep_alive_timeout(kKeepAliveSeconds);
  http_->set_read_timeout(kReadTimeoutSeconds, 0);
  // One answer per connection, said with "Connection: close": httplib 0.11 (Debian's) reads a
  // pipelined second request into its buffer and then waits for the socket, so it would never
  // answer it; told to close, a client sends it again on a new connection, as HTTP/1.1 asks of
  // pipelining clients. Connections to 127.0.0.1 cost next to nothing.
  http_->set_keep_alive_max_count(1);
  http_->new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  route();
}

DevServer::~DevServer() { stop(); }

int DevServer::bind(int port) {
  const int bound = port == 0                                ? http_->bind_to_any_port("127.0.0.1")
                    : http_->bind_to_port("127.0.0.1", port) ? port
                                                             : -1;
  if (bound <= 0) {
    throw ToolError("kbc serve: cannot listen on 127.0.0.1:" + std::to_string(port) +
                    " (is another server using it? --port 0 picks a free port)");
  }
  port_ = bound;
  url_ = "http://127.0.0.1:" + std::to_string(bound) + "/";
  return bound;
}

// An unchanged site keeps its generation, so open pages do not reload for an edit that changes
// nothing they show (a comment, a sample). Only publish() writes the state, so reading it here
// without the lock is safe.
BuildStatus DevServer::publish(SiteUpdate update) {
  const bool good =
      update.failure.empty() && count_severity(update.diagnostics, Severity::kError) == 0;
  // A build whose entries have errors still replaces the site: the entries without errors are
  // served, and the page of each left out shows its errors (missing_page). Only a failure of
  // the tool, which builds nothing, keeps the site being served.
  const bool replace = update.tree != nullptr;
  const bool same = replace && site_ && site_->files() == update.tree->files();
  BuildStatus published;
  {
    const std::lock_guard lock(mutex_);
    ++status_.generation;
    if (replace) status_.site_ok = good;
    if (replace && !same) {
      site_ = std::move(update.tree);
      site_languages_ = std::move(update.languages);
      status_.site_generation = status_.generation;
      status_.entries = update.entries;
    }
    status_.diagnostics = std::move(update.diagnostics);
    status_.failure = std::move(update.failure);
    status_json_ = status_json(status_);
    published = status_;
  }
  published_.notify_all();
  return published;
}

BuildStatus DevServer::status() const {
  const std::lock_guard lock(mutex_);
  return status_;
}

void DevServer::start() {
  if (!site_) throw ToolError("internal error: kbc serve started without a site");
  http_thread_ = std::thread([this] {
    http_->listen_after_bind();
    listen_returned_ = true;
  });
  // stop() only takes effect once the server runs: wait for that, so stop() never misses it.
  while (!http_->is_running() && !listen_returned_)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void DevServer::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  published_.notify_all();  // the long polls answer at once
  http_->stop();
  if (http_thread_.joinable()) http_thread_.join();
}

void DevServer::route() {
  http_->set_default_headers(
      {{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});
  http_->set_pre_routing_handler(
      [this](const httplib::Request& request, httplib::Response& response) {
        if (is_local_host(request.get_header_value("Host"), port_))
          return httplib::Server::HandlerResponse::Unhandled;
        response.status = 403;
        response.set_content("kbc serve answers to 127.0.0.1 and localhost only\n", kText);
        return httplib::Server::HandlerResponse::Handled;
      });
  http_->Get("/__kbc/status", [this](const httplib::Request&, httplib::Response& response) {
    const std::lock_guard lock(mutex_);
    response.set_content(status_json_, "application/json");
  });
  http_->Get("/__kbc/wait", [this](const httplib::Request& request, httplib::Response& response) {
    answer_wait(request, response);
  });
  http_->Get("/__kbc/live-reload.js", [](const httplib::Request&, httplib::Response& response) {
    const std::string_view script = live_reload_script();
    response.set_content(script.data(), script.size(), "text/javascript; charset=utf-8");
  });
  http_->Get("/__kbc/.*", [](const httplib::Request&, httplib::Response& response) {
    response.status = 404;
    response.set_content("no such kbc serve address\n", kText);
  });
  http_->Get(".*", [this](const httplib::Request& request, httplib::Response& response) {
    serve_site(request, response);
  });
  // A preview serves pages: GET and HEAD only.
  const auto not_allowed = [](const httplib::Request&, httplib::Response& response) {
    response.status = 405;
    response.set_header("Allow", "GET, HEAD");
    response.set_content("kbc serve answers GET and HEAD only\n", kText);
  };
  http_->Post(".*", not_allowed);
  http_->Put(".*", not_allowed);
  http_->Patch(".*", not_allowed);
  http_->Delete(".*", not_allowed);
  http_->Options(".*", not_allowed);
}

// /__kbc/wait?since=GENERATION: the status once there is a newer build, or after
// kLongPollSeconds, or at once when the server stops.
void DevServer::answer_wait(const httplib::Request& request, httplib::Response& response) const {
  const std::string since_text = request.get_param_value("since");
  std::uint64_t since = 0;
  const char* end = since_text.data() + since_text.size();
  const auto [stop, error] = std::from_chars(since_text.data(), end, since);
  if (since_text.empty() || error != std::errc() || stop != end) {
    response.status = 400;
    response.set_content("expected /__kbc/wait?since=GENERATION\n", kText);
    return;
  }
  std::unique_lock lock(mutex_);
  if (waits_ >= kMostWaits) {
    response.status = 503;
    response.set_header("Retry-After", "1");
    response.set_content("too many pages wait for a build; ask again\n", kText);
    return;
  }
  ++waits_;
  published_.wait_for(lock, std::chrono::seconds(kLongPollSeconds),
                      [&] { return stopping_ || status_.generation != since; });
  --waits_;
  response.set_content(status_json_, "application/json");
}

void DevServer::serve_site(const httplib::Request& request, httplib::Response& response) const {
  std::shared_ptr<const OutputTree> site;
  std::vector<std::string> languages;
  BuildStatus served;  // what the script's data attributes need
  {
    const std::lock_guard lock(mutex_);
    site = site_;
    languages = site_languages_;
    served.server = status_.server;
    served.generation = status_.generation;
    served.site_generation = status_.site_generation;
  }
  const SiteLookup found = find_site_file(site->files(), request.path, languages);
  if (found.kind == SiteLookup::Kind::kRedirect) {
    response.set_redirect(found.location, 302);
    return;
  }
  if (found.kind == SiteLookup::Kind::kMissing) {
    response.status = 404;
    std::optional<std::string> page;
    {
      const std::lock_guard lock(mutex_);
      page = broken_entry_page(request.path, status_.diagnostics);
    }
    if (page) {
      response.set_content(with_live_reload(*page, served), "text/html; charset=utf-8");
      return;
    }
  }
  const auto file = site->files().find(found.key);
  if (file == site->files().end()) {
    response.set_content("not found\n", kText);
  } else if (found.key.ends_with(".html")) {
    response.set_content(with_live_reload(file->second, served), content_type(found.key));
  } else {
    response.set_content(file->second, content_type(found.key));
  }
}

}  // namespace kbc
