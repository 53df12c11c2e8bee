// What kbc verify found when it ran entries' recipes: the lock file verify.lock at the root of a
// knowledge base, committed with it. One record per entry, keyed by id and written in id order
// as indented JSON, so that a review shows what changed.
//
//   {
//     "kbc_verify_lock": 1,
//     "entries": {
//       "pytorch/x": {
//         "status": "reproduced",          // or "failed"
//         "recipe_digest": "…",            // Recipe::digest when it ran
//         "date": "2026-11-27",            // UTC
//         "environment": {"os": …, "kernel": …, "arch": …, "python": …,
//                         "packages": {…}, "python_modules": {…}, "gpu": {"model": …, "driver":
//                         …}},
//         "line": "RuntimeError: …",      // the output line that matched (reproduced)
//         "reason": "…", "output_tail": […] // why it failed and its last lines (failed)
//       }
//     }
//   }
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/diagnostic.h"

namespace kbc {

inline constexpr const char* kEvidenceFile = "verify.lock";

struct Evidence {
  std::string status;  // "reproduced" or "failed"
  std::string recipe_digest;
  std::string date;
  nlohmann::ordered_json environment = nlohmann::ordered_json::object();
  std::string line;                      // reproduced: the line that matched
  std::string reason;                    // failed: why
  std::vector<std::string> output_tail;  // failed: the output's last lines

  bool reproduced() const { return status == "reproduced"; }
  nlohmann::ordered_json to_json() const;
};

using EvidenceLock = std::map<std::string, Evidence>;  // by entry id

// Parses verify.lock's text; problems go to `out` as evidence-file errors at their line and
// column, and the records that could be read are kept.
EvidenceLock parse_evidence_lock(std::string_view text, Diagnostics& out);
// The file's text: the records in id order, two-space indented, ending in a newline.
std::string evidence_lock_text(const EvidenceLock& lock);

// The environment in a few words: "Debian GNU/Linux 12 (bookworm), x86_64, torch 1.13.0a0" and
// the GPU's model and driver when there is one.
std::string environment_summary(const nlohmann::ordered_json& environment);

}  // namespace kbc
