// The tools `kbc mcp` serves over a knowledge base's published records:
//
//   lookup_error {error, top?}          the entries that explain an error message or a log, ranked
//                                       by the Matcher, each hit as `kbc match --json` prints it
//   get_entry {id}                      an entry's record and the entries related to it, in both
//                                       directions of the transition graph
//   search {query, language?, top?}     text search as the site does it (entry_search.h)
//
// McpTools knows nothing of JSON-RPC: arguments that do not fit a tool's input schema throw
// InvalidArguments, which the server turns into a protocol error (-32602); a tool that runs but
// fails (an unknown id, a query without words) returns a ToolResult with `error` set, which the
// client sees as a result with isError. Everything is computed from the records alone, and the
// same call always gives the same bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "match/benign_corpus.h"
#include "match/matcher.h"
#include "mcp/entry_search.h"
#include "model/languages.h"

namespace kbc {

// Arguments that do not fit a tool's input schema, or a tool that does not exist.
class InvalidArguments : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ToolResult {
  nlohmann::ordered_json content;  // a JSON object: the structured result (when error is empty)
  std::string error;               // what went wrong, for the client's model to read
};

// Bounds on what a call may ask for.
constexpr int kMaxTop = 50;
constexpr std::size_t kMaxQueryBytes = 1024;  // checked first: tokenizing costs memory
constexpr std::size_t kMaxQueryTokens = 64;

// For messages that quote what a client sent: `text` in single quotes, cut after about 120 bytes
// (on a UTF-8 boundary) when longer.
std::string quote_text(std::string_view text);
// "; did you mean 'x'?" when a candidate is close to a short `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

class McpTools {
 public:
  // The records of the entries (published records, or a bundle's), in any order: they are
  // sorted by id. `languages` are those of the knowledge base, which `search` offers.
  // `benign`: kbc.yaml's benign files of the knowledge base, if any (kept, for the matcher).
  explicit McpTools(std::vector<nlohmann::ordered_json> records,
                    std::vector<Language> languages = default_languages(),
                    std::vector<BenignFile> benign = {});
  ~McpTools();
  McpTools(const McpTools&) = delete;
  McpTools& operator=(const McpTools&) = delete;

  const std::vector<nlohmann::ordered_json>& records() const { return records_; }
  const Matcher& matcher() const { return *matcher_; }

  // The tools/list array: each tool's name, title, description, inputSchema and annotations.
  nlohmann::ordered_json list() const;

  // Runs a tool. `arguments` is the JSON object of the call's arguments.
  ToolResult call(std::string_view name, const nlohmann::json& arguments) const;

  ToolResult lookup_error(const nlohmann::json& arguments) const;
  ToolResult get_entry(const nlohmann::json& arguments) const;
  ToolResult search(const nlohmann::json& arguments) const;

 private:
  // The entries related to record `index`: leads_to, preceded_by, frequently_confused_with.
  nlohmann::ordered_json related(std::size_t index) const;
  nlohmann::ordered_json link_item(const std::string& id, const char* direction) const;

  std::vector<nlohmann::ordered_json> records_;
  std::vector<BenignFile> benign_files_;
  std::vector<BenignLine> benign_;  // views into benign_files_
  std::vector<Language> languages_;
  std::map<std::string, std::size_t, std::less<>> by_id_;  // the first record of each id
  std::unique_ptr<Matcher> matcher_;
  std::unique_ptr<EntrySearch> search_;
};

}  // namespace kbc
