// The page side of `kbc serve`: what open pages learn about builds, and the script that asks.
//
// The server adds one <script> to every HTML page it serves (the built files stay as they are):
// site/serve/live-reload.js, built into kbc and served at /__kbc/live-reload.js. It long-polls
// /__kbc/wait?since=GENERATION, which answers with the status below as soon as a build newer
// than GENERATION is done (or after at most kLongPollSeconds, so no request holds a server
// thread for long). The page reloads when the site it came from has been replaced, and shows
// the errors of a failed build in an overlay while the last good site is still being served.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/diagnostic.h"

namespace kbc {

// The reserved prefix of the server's own URLs; the site never has a folder of that name.
inline constexpr std::string_view kServePrefix = "/__kbc/";
inline constexpr int kLongPollSeconds = 25;

struct BuildStatus {
  std::string server;                 // differs from one run of kbc serve to the next
  std::uint64_t generation = 0;       // builds done, the first one included
  std::uint64_t site_generation = 0;  // the build whose site is being served
  bool site_ok = false;               // that build had no error (else entries are left out)
  std::size_t entries = 0;            // entries in the site being served
  Diagnostics diagnostics;            // of the latest build: lint findings, then broken links
  std::string failure;                // what stopped the latest build, when the tool failed

  // The latest build had neither an error nor a failure.
  bool ok() const;
};

// {"server", "generation", "site_generation", "site_ok", "ok", "entries", "errors", "warnings",
//  "failure" (null unless the tool failed),
//  "diagnostics": [{path, line, column, severity, rule, message, pointer, text}]}
// where text is the diagnostic as the terminal shows it, with its source line when it has one.
std::string status_json(const BuildStatus& status);

// `html` with the live-reload script added before its last </body> (at the end when it has
// none). The script learns from its data attributes which server and build it was served by,
// and reloads when either has changed (a restarted server serves a new build).
std::string with_live_reload(std::string_view html, const BuildStatus& status);

// The script itself.
std::string_view live_reload_script();

}  // namespace kbc
