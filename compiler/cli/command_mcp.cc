// `kbc mcp [--root DIR | --bundle kb.json] [--no-cache]`
//
// Serves a knowledge base to coding agents as a Model Context Protocol server over stdio
// (mcp/mcp_server.h): JSON-RPC messages, one per line, on standard input and output; the
// server's own messages go to standard error. The entries are read as `kbc match` reads them:
// the schema-valid entries of a knowledge base (no lint), as the published records `kbc build`
// would write, or the records of a published bundle. Ends with exit status 0 at the end of its
// input; 2 when the entries cannot be read or standard output fails.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>

#include "base/diagnostic.h"
#include "base/file_system.h"
#include "base/text.h"
#include "cli/command.h"
#include "cli/diagnostic_output.h"
#include "cli/entry_source.h"
#include "match/matcher.h"
#include "mcp/mcp_server.h"
#include "pipeline.h"
#include "render/record.h"

namespace kbc {
namespace {

using nlohmann::ordered_json;

// The records of a bundle, checked as `kbc match --bundle` checks them.
std::vector<ordered_json> served_records(const std::string& path) {
  ordered_json bundle = read_bundle<ordered_json>("mcp", path);
  bundle_match_records("mcp", path, nlohmann::json(bundle));
  return std::move(bundle.get_ref<ordered_json::array_t&>());
}

// The languages of a bundle, which holds no kbc.yaml: the default base language, then each
// language whose signature the first record has a key for (signature_zh), as kbc build writes
// every record.
std::vector<Language> bundle_languages(const std::vector<ordered_json>& records) {
  // Not `= {front}`: from one json, clang copies it (CWG 1467) where gcc makes an array of it.
  nlohmann::json list = nlohmann::json::array();
  list.push_back(default_language_list().front());
  const ordered_json first = records.empty() ? ordered_json::object() : records.front();
  for (const auto& [key, value] : first.items()) {
    const std::string code = key.starts_with("signature_") ? key.substr(10) : "";
    if (code.size() >= 2 && code.size() <= 3 && ascii_lower(code) == code)
      list.push_back({{"code", code}});
  }
  return languages_from(list, built_in_strings);
}

// What the server serves: records, and the languages they are written in.
struct Served {
  std::vector<ordered_json> records;
  std::vector<Language> languages;
  std::vector<BenignFile> benign;  // kbc.yaml's, for a knowledge base
};

Served bundle_entries(const std::string& path) {
  Served served{served_records(path), {}, {}};
  served.languages = bundle_languages(served.records);
  return served;
}

// The published records of the knowledge base's schema-valid entries.
Served knowledge_base_entries(const std::string& root, bool cache) {
  const KnowledgeBase kb = load_lookup_entries("mcp", root, cache);
  Served served{{}, kb.languages, kb.benign};
  for (const Entry& entry : kb.entries) {
    if (entry.shape_ok)
      served.records.push_back(published_record(entry, kb.languages, kb.current_evidence(entry)));
  }
  return served;
}

}  // namespace

int run_mcp(const Arguments& arguments) {
  if (!arguments.positional.empty())
    throw ToolError("kbc mcp: takes no operands; the client speaks on standard input");
  if (arguments.values.count("--root") && arguments.values.count("--bundle"))
    throw ToolError("kbc mcp: give --root or --bundle, not both");
  // A client starts kbc mcp with pipes on both: without them there is no one to serve.
  for (const auto& [fd, name] :
       {std::pair{STDIN_FILENO, "input"}, std::pair{STDOUT_FILENO, "output"}}) {
    if (::fcntl(fd, F_GETFD) == -1) {
      throw ToolError(std::string("kbc mcp: standard ") + name +
                      " is closed; an MCP client runs kbc mcp with a pipe on its standard input "
                      "and output");
    }
  }
  const bool from_bundle = arguments.values.count("--bundle") > 0;
  Served served =
      from_bundle ? bundle_entries(arguments.values.at("--bundle"))
                  : knowledge_base_entries(arguments.value("--root"), !arguments.has("--no-cache"));
  const McpServer server(std::move(served.records),
                         {kbc_tool_info().version, kMaxMessageBytes, std::move(served.languages),
                          std::move(served.benign)});
  const std::size_t bad = server.tools().matcher().regex_errors().size();
  if (bad > 0 && !from_bundle) {
    std::cerr << "kbc mcp: " << bad << (bad == 1 ? " entry has a regex" : " entries have regexes")
              << " that RE2 does not accept (kbc lint says which); they match by signature only\n";
  }
  std::cerr << "kbc mcp: serving " << server.tools().records().size()
            << " entries; reading JSON-RPC messages, one per line, on standard input\n";
  // A client that goes away makes writes fail (and the server end) instead of killing it.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    if (!serve_lines(server, std::cin, std::cout))
      throw ToolError("kbc mcp: cannot write standard output");
  } catch (const std::ios_base::failure& error) {
    throw ToolError(std::string("kbc mcp: cannot read standard input: ") + error.what());
  }
  return 0;
}

}  // namespace kbc
