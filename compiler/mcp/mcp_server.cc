#include "mcp/mcp_server.h"

#include <algorithm>
#include <istream>
#include <ostream>

#include "base/json_depth.h"
#include "base/text.h"

namespace kbc {

const std::vector<std::string_view> kProtocolVersions = {"2024-11-05", "2025-03-26", "2025-06-18"};

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

enum ErrorCode {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
};

// A request that gets a JSON-RPC error instead of a result.
struct RpcError {
  int code;
  std::string message;
};

// One line of JSON. Text that is not UTF-8 (a log line cut in a character) is written as U+FFFD.
std::string line_of(const ordered_json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

ordered_json error_reply(const ordered_json& id, int code, const std::string& message) {
  ordered_json out;
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["error"] = {{"code", code}, {"message", message}};
  return out;
}

ordered_json result_reply(const ordered_json& id, ordered_json result) {
  ordered_json out;
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["result"] = std::move(result);
  return out;
}

// "Parse error at line 1, column 2: ...": nlohmann's message without its
// "[json.exception.parse_error.101] parse error" prefix, and not too long (it quotes what it read).
std::string parse_error_message(const std::exception& error) {
  std::string message = error.what();
  const std::size_t prefix = message.find("] ");
  if (message.starts_with("[json.exception") && prefix != std::string::npos)
    message.erase(0, prefix + 2);
  if (message.size() > 200) message = message.substr(0, 200) + "…";  // it quotes the input
  if (message.starts_with("parse error")) return "Parse error" + message.substr(11);
  return "Parse error: " + message;
}

bool is_text(const json& value, std::string_view text) {
  return value.is_string() && value.get_ref<const std::string&>() == text;
}

std::string instructions(const std::vector<Language>& languages) {
  std::vector<std::string> names;
  for (const Language& language : languages) names.push_back(language.english_name);
  return "This server answers from a knowledge base of error entries: for an error message or a "
         "log, call lookup_error; it returns the entries that explain it with their best "
         "workaround and the fixes known not to work (dead ends). get_entry gives an entry's full "
         "record and related errors; search finds entries by words, in " +
         joined_list(names, "or") + ".";
}

}  // namespace

McpServer::McpServer(std::vector<ordered_json> records, McpServerOptions options)
    : tools_(std::move(records), options.languages, options.benign), options_(std::move(options)) {}

std::string McpServer::too_long_reply() const {
  return line_of(error_reply(nullptr, kInvalidRequest,
                             "Invalid Request: the message is over " +
                                 std::to_string(options_.max_message_bytes) +
                                 " bytes; it was discarded"));
}

std::optional<std::string> McpServer::handle(std::string_view message) const {
  if (message.size() > options_.max_message_bytes) return too_long_reply();
  json request;
  try {
    request = parse_json_within<json>(message, kMaxMessageDepth);
  } catch (const json::exception& error) {
    return line_of(error_reply(nullptr, kParseError, parse_error_message(error)));
  } catch (const JsonTooDeep& error) {
    return line_of(error_reply(nullptr, kInvalidRequest,
                               std::string("Invalid Request: the message is ") + error.what()));
  }
  ordered_json id;  // null until the request's id is known to be valid
  try {
    bool reply = true;
    ordered_json result = dispatch(request, id, reply);
    if (!reply) return std::nullopt;
    return line_of(result_reply(id, std::move(result)));
  } catch (const RpcError& error) {
    return line_of(error_reply(id, error.code, error.message));
  } catch (const std::exception& error) {
    return line_of(error_reply(id, kInternalError, std::string("Internal error: ") + error.what()));
  }
}

// Checks the envelope; `reply` is false for notifications and responses, which are not answered
// (but an invalid message without an id is: JSON-RPC answers it with id null).
ordered_json McpServer::dispatch(const json& request, ordered_json& id, bool& reply) const {
  if (request.is_array()) {
    throw RpcError{kInvalidRequest, request.empty()
                                        ? "Invalid Request: an empty batch"
                                        : "Invalid Request: batches are not supported; send one "
                                          "request per line"};
  }
  if (!request.is_object()) {
    throw RpcError{
        kInvalidRequest,
        std::string("Invalid Request: a request is a JSON object, not ") + request.type_name()};
  }
  const auto id_it = request.find("id");
  const bool has_id = id_it != request.end();
  if (has_id && !id_it->is_string() && !id_it->is_number()) {
    throw RpcError{
        kInvalidRequest,
        std::string("Invalid Request: id must be a string or a number, not ") + id_it->type_name()};
  }
  if (has_id) id = *id_it;
  const auto method = request.find("method");
  if (method == request.end() && has_id &&
      (request.contains("result") || request.contains("error"))) {
    reply = false;  // a response: the server sends no requests, so there is nothing to do
    return nullptr;
  }
  const auto version = request.find("jsonrpc");
  if (version == request.end() || !is_text(*version, "2.0"))
    throw RpcError{kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\""};
  if (method == request.end() || !method->is_string())
    throw RpcError{kInvalidRequest, "Invalid Request: method must be a string"};
  const auto params = request.find("params");
  if (params != request.end() && !params->is_object() && !params->is_array())
    throw RpcError{kInvalidRequest, "Invalid Request: params must be an object"};
  if (!has_id) {
    reply = false;  // a notification
    return nullptr;
  }
  static const json kNoParams = json::object();
  return call_method(method->get<std::string>(), params == request.end() ? kNoParams : *params);
}

ordered_json McpServer::call_method(const std::string& method, const json& params) const {
  if (!params.is_object())
    throw RpcError{kInvalidParams, "Invalid params: params must be an object"};
  if (method == "initialize") return initialize(params);
  if (method == "ping") return ordered_json::object();
  if (method == "tools/list") return {{"tools", tools_.list()}};
  if (method == "tools/call") return call_tool(params);
  throw RpcError{kMethodNotFound,
                 "Method not found: " + quote_text(method) +
                     did_you_mean(method, {"initialize", "ping", "tools/call", "tools/list"})};
}

ordered_json McpServer::initialize(const json& params) const {
  const auto requested = params.find("protocolVersion");
  std::string_view version = kProtocolVersions.back();
  if (requested != params.end() && requested->is_string()) {
    const auto known = std::find(kProtocolVersions.begin(), kProtocolVersions.end(),
                                 requested->get_ref<const std::string&>());
    if (known != kProtocolVersions.end()) version = *known;
  }
  ordered_json out;
  out["protocolVersion"] = version;
  out["capabilities"] = {{"tools", ordered_json::object()}};
  out["serverInfo"] = {{"name", "kbc"}, {"version", options_.version}};
  out["instructions"] = instructions(options_.languages);
  return out;
}

ordered_json McpServer::call_tool(const json& params) const {
  const auto name = params.find("name");
  if (name == params.end() || !name->is_string())
    throw RpcError{kInvalidParams, "Invalid params: tools/call needs the tool's name, a string"};
  static const json kNoArguments = json::object();
  const auto arguments = params.find("arguments");
  const bool none = arguments == params.end() || arguments->is_null();
  if (!none && !arguments->is_object())
    throw RpcError{kInvalidParams, "Invalid params: arguments must be an object"};
  ToolResult result;
  try {
    result = tools_.call(name->get_ref<const std::string&>(), none ? kNoArguments : *arguments);
  } catch (const InvalidArguments& error) {
    throw RpcError{kInvalidParams, std::string("Invalid params: ") + error.what()};
  }
  const bool failed = !result.error.empty();
  ordered_json out;
  out["content"] = ordered_json::array();
  out["content"].push_back(
      {{"type", "text"}, {"text", failed ? result.error : line_of(result.content)}});
  if (!failed) out["structuredContent"] = std::move(result.content);
  out["isError"] = failed;
  return out;
}

namespace {

enum class LineRead { kLine, kTooLong, kEnd };

// The next line of `in`, without its newline. A line over `limit` bytes is read to its end but
// not kept.
LineRead read_line(std::streambuf& in, std::string& line, std::size_t limit) {
  line.clear();
  bool any = false, too_long = false;
  for (int c; (c = in.sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return too_long ? LineRead::kTooLong : LineRead::kLine;
    if (too_long) continue;
    if (line.size() == limit) {
      too_long = true;
      std::string().swap(line);
      continue;
    }
    line.push_back(static_cast<char>(c));
  }
  if (too_long) return LineRead::kTooLong;
  return any ? LineRead::kLine : LineRead::kEnd;
}

}  // namespace

bool serve_lines(const McpServer& server, std::istream& in, std::ostream& out) {
  std::string line;
  // One byte more than a message may have, for its "\r".
  const std::size_t limit = server.max_message_bytes() + 1;
  for (LineRead read; (read = read_line(*in.rdbuf(), line, limit)) != LineRead::kEnd;) {
    if (read == LineRead::kLine && line.ends_with('\r')) line.pop_back();
    if (read == LineRead::kLine && is_blank(line)) continue;
    const std::optional<std::string> reply =
        read == LineRead::kTooLong ? server.too_long_reply() : server.handle(line);
    if (!reply) continue;
    out << *reply << '\n';
    out.flush();
    if (!out) return false;
  }
  return true;
}

}  // namespace kbc
