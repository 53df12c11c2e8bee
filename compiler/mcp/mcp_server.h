// `kbc mcp`: a Model Context Protocol server over stdio, so that coding agents can look errors
// up in a knowledge base. The tools themselves are in mcp_tools.h; this is the JSON-RPC 2.0 side.
//
// Transport: one JSON-RPC message per line on standard input, one reply per line on standard
// output (nothing else is ever written there), as MCP's stdio transport says. Requests are
// answered in order, each as soon as its line is read. Blank lines are skipped and a trailing
// "\r" is dropped. A line over kMaxMessageBytes is discarded as it is read (memory stays
// bounded) and answered with an Invalid Request error. End of input ends the server.
//
// Methods: initialize (answers the client's protocolVersion when it is one of
// kProtocolVersions, else the latest; capabilities: tools), ping, tools/list and tools/call.
// Requests are served before initialize too. Notifications (a valid request without an id,
// such as notifications/initialized) are never answered, whatever their method; nor are
// responses, since the server sends no requests.
//
// Errors never end the server:
//   -32700 Parse error        the line is not JSON (or not UTF-8); id null
//   -32600 Invalid Request    not an object (a batch, an array, is refused: MCP 2025-06-18 has no
//                             batches), jsonrpc not "2.0", method not a string, id neither a
//                             string nor a number, params neither an object nor an array, or a
//                             line too long; id null unless the request's id could be read
//   -32601 Method not found
//   -32602 Invalid params     params not an object, tools/call without a string name, an unknown
//                             tool, arguments that do not fit the tool's inputSchema
//   -32603 Internal error     a bug: the request failed, the server goes on
// A tool that runs but fails (get_entry of an unknown id) is a result with isError true.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/mcp_tools.h"

namespace kbc {

constexpr std::size_t kMaxMessageBytes = std::size_t{16} << 20;
// A request nested deeper than this is refused (its arguments are a level or two deep).
constexpr int kMaxMessageDepth = 32;

// The protocol versions the server speaks, oldest first; the last is the latest.
extern const std::vector<std::string_view> kProtocolVersions;

struct McpServerOptions {
  std::string version = "0";  // serverInfo.version: kbc's version
  std::size_t max_message_bytes = kMaxMessageBytes;
  std::vector<Language> languages = default_languages();  // those of the knowledge base
  std::vector<BenignFile> benign;  // kbc.yaml's benign files, for the regexes' breadth
};

class McpServer {
 public:
  McpServer(std::vector<nlohmann::ordered_json> records, McpServerOptions options);

  const McpTools& tools() const { return tools_; }
  std::size_t max_message_bytes() const { return options_.max_message_bytes; }

  // The reply to one message (a line without its newline), or nothing for a notification or a
  // response. Never throws.
  std::optional<std::string> handle(std::string_view message) const;

  // The reply to a message longer than max_message_bytes().
  std::string too_long_reply() const;

 private:
  nlohmann::ordered_json dispatch(const nlohmann::json& request, nlohmann::ordered_json& id,
                                  bool& reply) const;
  nlohmann::ordered_json call_method(const std::string& method, const nlohmann::json& params) const;
  nlohmann::ordered_json initialize(const nlohmann::json& params) const;
  nlohmann::ordered_json call_tool(const nlohmann::json& params) const;

  McpTools tools_;
  McpServerOptions options_;
};

// Serves the messages of `in`, one per line, until its end, writing each reply and a newline to
// `out` and flushing it. Returns false when `out` failed (the client went away).
bool serve_lines(const McpServer& server, std::istream& in, std::ostream& out);

}  // namespace kbc
