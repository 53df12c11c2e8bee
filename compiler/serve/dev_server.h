// The HTTP side of `kbc serve`: the site of the latest good build on 127.0.0.1, and what open
// pages need to follow the builds (live_reload.h).
//
//   kbc serve:  bind -> build, publish -> start -> (sources change -> build, publish)... -> stop
//
// The command builds (pipeline.h) and hands each build to publish(). Builds stay in memory, as
// with `hugo server`: the server answers from the site/ files of the OutputTree. Nothing is
// written but the parse cache, there is no temporary folder to clean up after a crash, the
// user's dist/ is never touched, and a new site replaces the old one with one pointer swap while
// each request keeps the tree it started with.
//
// publish() decides what is served: the newest site, built like `kbc build --keep-going`
// without the entries that have errors, whose pages show those errors instead, so that one
// broken entry (a new one from `kbc new`) never hides the rest; a failure of the tool, which
// builds nothing, leaves the site being served in place. The findings go to the open pages.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/diagnostic.h"
#include "base/output_tree.h"
#include "serve/live_reload.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace kbc {

// One build, as the command hands it over.
struct SiteUpdate {
  std::shared_ptr<const OutputTree> tree;  // null when the tool failed
  std::size_t entries = 0;                 // entries in the tree
  Diagnostics diagnostics;             // every finding, errors and warnings, as the pages show them
  std::string failure;                 // why the tool failed
  std::vector<std::string> languages;  // the codes of the site's languages, the base first
};

class DevServer {
 public:
  DevServer();
  ~DevServer();  // stops serving

  // Binds 127.0.0.1:port (0: any free port) and returns the port bound. Throws ToolError when
  // it cannot, as when another server has the port.
  int bind(int port);
  // The address bound, "http://127.0.0.1:PORT/".
  const std::string& url() const { return url_; }

  // Takes a build: serves its tree or keeps the one being served (above), and answers the
  // pages waiting for it. Returns the status it publishes.
  BuildStatus publish(SiteUpdate update);
  BuildStatus status() const;

  // Serves from a thread of its own, once bound and with a site published.
  void start();
  // Answers the waiting pages, stops serving and joins the server's thread. Idempotent.
  void stop();

 private:
  void route();
  void serve_site(const httplib::Request& request, httplib::Response& response) const;
  void answer_wait(const httplib::Request& request, httplib::Response& response) const;

  std::unique_ptr<httplib::Server> http_;
  int port_ = 0;
  std::string url_;
  std::thread http_thread_;
  std::atomic<bool> listen_returned_ = false;

  // What the server answers with; written by publish() under the mutex.
  mutable std::mutex mutex_;
  mutable std::condition_variable published_;  // a build was published, or the server stops
  std::shared_ptr<const OutputTree> site_;
  std::vector<std::string> site_languages_;  // the languages of site_
  BuildStatus status_;
  std::string status_json_;
  bool stopping_ = false;
  mutable std::size_t waits_ = 0;  // long polls waiting, under the mutex
};

}  // namespace kbc
