// kbc mcp: the JSON-RPC side of the server (mcp_server.h) message by message, its tools
// (mcp_tools.h) and their search (entry_search.h), on three hand-written records, and the loop
// over a stream of lines.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mcp/entry_search.h"
#include "mcp/mcp_server.h"

using namespace kbc;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// a/alpha leads to b/beta and is confused with c/gamma; c/gamma leads to a/alpha, to an entry
// that is not there, and says it is confused with a/alpha too.
std::vector<ordered_json> fixture_records() {
  return {
      ordered_json::parse(R"({
        "id": "c/gamma", "signature": "GammaError: widget license expired",
        "regex": "license (has )?expired", "error_code": "E_GAMMA",
        "root_cause": "The license ran out.", "fix_success_rate": 0.5,
        "tags": [], "aliases": [], "workarounds": [], "dead_ends": [],
        "transition_graph": {"leads_to": [{"error_id": "a/alpha"}, {"error_id": "z/missing"}],
                             "preceded_by": [],
                             "frequently_confused_with": [{"error_id": "a/alpha"}]}})"),
      ordered_json::parse(R"({
        "id": "a/alpha", "signature": "AlphaError: widget failed to start",
        "signature_zh": "阿尔法错误：部件启动失败",
        "regex": "widget failed to start", "error_code": "E_ALPHA",
        "root_cause": "The widget needs a license. Without one it stops.",
        "root_cause_zh": "部件需要许可证。",
        "fix_success_rate": 0.8, "tags": ["widget", "license"], "aliases": ["ALPHA_FAIL"],
        "workarounds": [{"action": "Install a license", "success_rate": 0.9,
                         "how": "kbc-license install"},
                        {"action": "Ask for a trial", "success_rate": 0.4, "how": ""}],
        "dead_ends": [{"action": "Restart the widget", "fail_rate": 0.7}],
        "transition_graph": {"leads_to": [{"error_id": "b/beta"}], "preceded_by": [],
                             "frequently_confused_with": [{"error_id": "c/gamma"},
                                                          {"error_id": "a/alpha"}]}})"),
      ordered_json::parse(R"({
        "id": "b/beta", "signature": "BetaError: gadget overheated",
        "signature_zh": "贝塔错误：小工具过热",
        "regex": "gadget overheated", "error_code": null,
        "root_cause": "The fan stopped.", "root_cause_zh": "小工具过热，风扇停止转动。",
        "fix_success_rate": 0.3, "tags": ["fan"], "aliases": [], "workarounds": [],
        "dead_ends": [], "transition_graph": {"leads_to": [], "preceded_by": [],
                                              "frequently_confused_with": []}})"),
  };
}

McpServer make_server(std::size_t max_message_bytes = kMaxMessageBytes) {
  McpServerOptions options;
  options.version = "9.9.9";
  options.max_message_bytes = max_message_bytes;
  return McpServer(fixture_records(), options);
}

// The reply to one message, parsed; it must be one line.
json reply_to(const McpServer& server, const std::string& message) {
  const std::optional<std::string> reply = server.handle(message);
  INFO(message);
  REQUIRE(reply);
  CHECK(reply->find('\n') == std::string::npos);
  return json::parse(*reply);
}

std::string call(const std::string& tool, const std::string& arguments, int id = 1) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments +
         "}}";
}

// The result of a tools/call that must succeed as a protocol call.
json tool_result(const McpServer& server, const std::string& tool, const std::string& arguments) {
  const json reply = reply_to(server, call(tool, arguments));
  INFO(reply.dump());
  REQUIRE(reply.contains("result"));
  return reply["result"];
}

std::vector<std::string> ids_of(const json& items) {
  std::vector<std::string> out;
  for (const json& item : items) out.push_back(item["id"]);
  return out;
}

}  // namespace

TEST_CASE("mcp initialize answers the client's protocol version when supported, else the latest") {
  const McpServer server = make_server();
  for (const std::string version : {"2024-11-05", "2025-03-26", "2025-06-18"}) {
    const json reply = reply_to(
        server, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
                    version + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    CHECK(reply["jsonrpc"] == "2.0");
    CHECK(reply["id"] == 0);
    CHECK(reply["result"]["protocolVersion"] == version);
    CHECK(reply["result"]["capabilities"] == json::parse(R"({"tools":{}})"));
    CHECK(reply["result"]["serverInfo"] == json::parse(R"({"name":"kbc","version":"9.9.9"})"));
    CHECK(reply["result"]["instructions"].is_string());
  }
  for (const std::string params :
       {R"({"protocolVersion":"1999-01-01"})", R"({"protocolVersion":7})", "{}"}) {
    const json reply = reply_to(
        server, R"({"jsonrpc":"2.0","id":"i","method":"initialize","params":)" + params + "}");
    CHECK(reply["id"] == "i");
    CHECK(reply["result"]["protocolVersion"] == "2025-06-18");
  }
  CHECK(
      reply_to(server,
               R"({"jsonrpc":"2.0","id":1,"method":"initialize"})")["result"]["protocolVersion"] ==
      "2025-06-18");
}

TEST_CASE("mcp notifications and responses get no reply, whatever their method") {
  const McpServer server = make_server();
  for (const std::string message : {
           R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
           R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})",
           R"({"jsonrpc":"2.0","method":"no/such/method"})",
           R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}})",
           R"({"jsonrpc":"2.0","method":"ping","params":[1,2]})",
           R"({"jsonrpc":"2.0","id":5,"result":{}})",
           R"({"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}})",
       }) {
    INFO(message);
    CHECK_FALSE(server.handle(message));
  }
}

TEST_CASE("mcp ping answers an empty result with the request's id") {
  const McpServer server = make_server();
  CHECK(reply_to(server, R"({"jsonrpc":"2.0","id":"p-1","method":"ping"})") ==
        json::parse(R"({"jsonrpc":"2.0","id":"p-1","result":{}})"));
  // A number id is echoed as it was, a fraction too (JSON-RPC discourages it, MCP allows it).
  CHECK(reply_to(server, R"({"jsonrpc":"2.0","id":2.5,"method":"ping","params":{}})")["id"] == 2.5);
}

TEST_CASE("mcp tools/list describes the three tools with JSON Schemas of their arguments") {
  const McpServer server = make_server();
  const json reply = reply_to(server, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  const json& tools = reply["result"]["tools"];
  REQUIRE(tools.size() == 3);
  CHECK(tools[0]["name"] == "lookup_error");
  CHECK(tools[1]["name"] == "get_entry");
  CHECK(tools[2]["name"] == "search");
  for (const json& tool : tools) {
    INFO(tool["name"]);
    CHECK(tool["description"].get<std::string>().size() > 40);
    CHECK(tool["inputSchema"]["type"] == "object");
    CHECK(tool["inputSchema"]["additionalProperties"] == false);
    CHECK(tool["annotations"]["readOnlyHint"] == true);
    for (const json& name : tool["inputSchema"]["required"])
      CHECK(tool["inputSchema"]["properties"].contains(name.get<std::string>()));
  }
  CHECK(tools[0]["inputSchema"]["required"] == json::parse(R"(["error"])"));
  CHECK(tools[0]["inputSchema"]["properties"]["top"] ==
        json::parse(R"({"type":"integer","minimum":1,"maximum":50,"default":5,
                        "description":"how many entries to return at most"})"));
  CHECK(tools[1]["inputSchema"]["required"] == json::parse(R"(["id"])"));
  CHECK(tools[2]["inputSchema"]["properties"]["language"]["enum"] == json::parse(R"(["en","zh"])"));
}

TEST_CASE("mcp lookup_error gives the hits as kbc match --json does") {
  const McpServer server = make_server();
  const json result =
      tool_result(server, "lookup_error",
                  R"({"error":"starting up\nAlphaError: widget failed to start (code 3)\nbye"})");
  CHECK(result["isError"] == false);
  const json& hits = result["structuredContent"];
  CHECK(hits["version"] == 1);
  CHECK(hits["entries"] == 3);
  CHECK(hits["lines"] == 3);
  REQUIRE(hits["hits"].size() == 1);
  const json& hit = hits["hits"][0];
  CHECK(hit["rank"] == 1);
  CHECK(hit["id"] == "a/alpha");
  CHECK(hit["line"] == 2);
  CHECK(hit["text"] == "AlphaError: widget failed to start (code 3)");
  CHECK(hit["match"] == json::parse(R"({"begin":0,"end":34,"by":"signature"})"));
  CHECK(hit["workaround"] ==
        json::parse(R"({"action":"Install a license","how":"kbc-license install",
                        "success_rate":0.9,"condition":""})"));
  CHECK(hit["dead_ends"] == json::parse(R"([{"action":"Restart the widget","fail_rate":0.7}])"));
  // The text content is the structured content, serialized, for clients without it.
  REQUIRE(result["content"].size() == 1);
  CHECK(result["content"][0]["type"] == "text");
  CHECK(json::parse(result["content"][0]["text"].get<std::string>()) == hits);
}

TEST_CASE("mcp lookup_error keeps the top hits, and nothing matching is not an error") {
  const McpServer server = make_server();
  const std::string log = R"(gadget overheated\nwidget failed to start\nlicense expired)";
  CHECK(tool_result(server, "lookup_error",
                    R"({"error":")" + log + R"("})")["structuredContent"]["hits"]
            .size() == 3);
  const json two = tool_result(server, "lookup_error", R"({"error":")" + log + R"(","top":2})");
  CHECK(two["structuredContent"]["hits"].size() == 2);
  const json none = tool_result(server, "lookup_error", R"({"error":"all tests passed"})");
  CHECK(none["isError"] == false);
  CHECK(none["structuredContent"]["hits"].empty());
  CHECK(none["structuredContent"]["lines"] == 1);
}

TEST_CASE("mcp get_entry gives the record and related entries in both directions") {
  const McpServer server = make_server();
  const json result = tool_result(server, "get_entry", R"({"id":"a/alpha"})");
  CHECK(result["isError"] == false);
  const json& out = result["structuredContent"];
  CHECK(out["entry"] == json(fixture_records()[1]));
  // c/gamma says it leads to a/alpha: a/alpha is preceded by it, though a/alpha does not say so.
  // Both say they are confused with each other; a/alpha's link to itself is left out.
  CHECK(out["related"] == json::parse(R"({
    "leads_to": [{"id":"b/beta","signature":"BetaError: gadget overheated",
                  "direction":"outgoing"}],
    "preceded_by": [{"id":"c/gamma","signature":"GammaError: widget license expired",
                     "direction":"incoming"}],
    "frequently_confused_with": [{"id":"c/gamma","signature":"GammaError: widget license expired",
                                  "direction":"both"}]})"));
  // The record keeps its key order, as published.
  const std::string text = result["content"][0]["text"];
  CHECK(text.starts_with(R"({"entry":{"id":"a/alpha","signature":)"));

  const json beta = tool_result(server, "get_entry", R"({"id":"b/beta"})")["structuredContent"];
  CHECK(ids_of(beta["related"]["preceded_by"]) == std::vector<std::string>{"a/alpha"});
  CHECK(beta["related"]["preceded_by"][0]["direction"] == "incoming");
  CHECK(beta["related"]["leads_to"].empty());
  CHECK(beta["related"]["frequently_confused_with"].empty());

  // A link to an entry that is not there keeps its id, without a signature.
  const json gamma = tool_result(server, "get_entry", R"({"id":"c/gamma"})")["structuredContent"];
  CHECK(gamma["related"]["leads_to"] == json::parse(R"([
    {"id":"a/alpha","signature":"AlphaError: widget failed to start","direction":"outgoing"},
    {"id":"z/missing","signature":null,"direction":"outgoing"}])"));
}

TEST_CASE("mcp get_entry of an unknown id is a tool error with a did-you-mean") {
  const McpServer server = make_server();
  const json result = tool_result(server, "get_entry", R"({"id":"a/alpah"})");
  CHECK(result["isError"] == true);
  CHECK_FALSE(result.contains("structuredContent"));
  CHECK(result["content"] == json::parse(R"([{"type":"text",
                         "text":"no entry has the id 'a/alpah'; did you mean 'a/alpha'?"}])"));
  CHECK(tool_result(server, "get_entry", R"({"id":"nothing/like-it"})")["content"][0]["text"] ==
        "no entry has the id 'nothing/like-it'");
}

TEST_CASE("mcp search refuses a query over 1,024 bytes or 64 words, as a tool error") {
  const McpServer server = make_server();
  const auto error_of = [&](const std::string& query) {
    const json result = tool_result(server, "search", json{{"query", query}}.dump());
    CHECK(result["isError"] == true);
    return result["content"][0]["text"].get<std::string>();
  };
  CHECK(
      error_of(std::string(1025, 'a')).find("the query is 1025 bytes; search takes at most 1024") !=
      std::string::npos);
  std::string words;
  for (int i = 0; i < 65; ++i) words += "w" + std::to_string(i) + " ";
  CHECK(error_of(words).find("the query holds 65 words; search takes at most 64") !=
        std::string::npos);
  CHECK(tool_result(server, "search", json{{"query", std::string(1024, 'a')}}.dump())["isError"] ==
        false);
}

TEST_CASE("mcp search ranks by summed field weights, ties by id") {
  const McpServer server = make_server();
  const auto search = [&](const std::string& arguments) {
    const json result = tool_result(server, "search", arguments);
    INFO(result.dump());
    CHECK(result["isError"] == false);
    return result["structuredContent"];
  };
  // "widget" is in both signatures (8, an exact word: twice that); a tie, so by id.
  const json widget = search(R"({"query":"Widget"})");
  CHECK(widget["language"] == "en");
  CHECK(widget["total"] == 2);
  CHECK(widget["results"] == json::parse(R"([
    {"rank":1,"id":"a/alpha","signature":"AlphaError: widget failed to start","score":16,
     "snippet":"The widget needs a license."},
    {"rank":2,"id":"c/gamma","signature":"GammaError: widget license expired","score":16,
     "snippet":"The license ran out."}])"));
  // A word begins longer words: "lic" finds c/gamma's signature (8) before a/alpha's tag (5).
  const json lic = search(R"({"query":"lic"})");
  CHECK(ids_of(lic["results"]) == std::vector<std::string>{"c/gamma", "a/alpha"});
  CHECK(lic["results"][0]["score"] == 8);
  CHECK(lic["results"][1]["score"] == 5);
  // Every word must occur; the error code weighs most.
  const json both = search(R"({"query":"widget alpha","top":5})");
  CHECK(ids_of(both["results"]) == std::vector<std::string>{"a/alpha"});
  CHECK(both["results"][0]["score"] == 16 + 20);
  CHECK(search(R"({"query":"widget","top":1})")["results"].size() == 1);
  CHECK(search(R"({"query":"widget","top":1})")["total"] == 2);
  CHECK(search(R"({"query":"nothing-here"})")["results"].empty());
}

TEST_CASE("mcp search finds Chinese text by two characters") {
  const McpServer server = make_server();
  const auto search = [&](const std::string& arguments) {
    return tool_result(server, "search", arguments)["structuredContent"];
  };
  const json overheated = search(R"({"query":"过热","language":"zh"})");
  REQUIRE(overheated["results"].size() == 1);
  CHECK(overheated["results"][0] ==
        json::parse(R"({"rank":1,"id":"b/beta","signature":"贝塔错误：小工具过热","score":16,
                        "snippet":"小工具过热，风扇停止转动。"})"));
  // Two characters out of the middle of a root cause (weight 1, a pair counts double).
  const json license = search(R"({"query":"许可","language":"zh"})");
  CHECK(ids_of(license["results"]) == std::vector<std::string>{"a/alpha"});
  CHECK(license["results"][0]["score"] == 2);
  // Chinese readers search the English root causes too; English readers do not see the _zh.
  CHECK(ids_of(search(R"({"query":"fan","language":"zh"})")["results"]) ==
        std::vector<std::string>{"b/beta"});
  CHECK(search(R"({"query":"过热"})")["results"].empty());
}

TEST_CASE("mcp search offers the knowledge base's languages, and searches each one's texts") {
  std::vector<ordered_json> records = fixture_records();
  records[1]["signature_ja"] = "アルファエラー：部品が起動しない";
  const std::vector<Language> languages =
      languages_from(json::parse(R"([{"code": "en"}, {"code": "ja", "name": "日本語"}])"),
                     [](const std::string& code) -> std::optional<json> {
                       if (code == "ja") return json{{"english_name", "Japanese"}};
                       return built_in_strings(code);
                     });
  McpServerOptions options;
  options.version = "9.9.9";
  options.languages = languages;
  const McpServer server(records, options);
  const json tools = reply_to(server, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  const json& language = tools["result"]["tools"][2]["inputSchema"]["properties"]["language"];
  CHECK(language["enum"] == json::parse(R"(["en","ja"])"));
  CHECK(language["description"] ==
        "ja searches the Japanese translations (and the English root causes)");
  CHECK(tools["result"]["tools"][1]["description"].get<std::string>().find(
            "in English and where translated in Japanese: the _ja fields") != std::string::npos);
  const json found = tool_result(server, "search", R"({"query":"起動","language":"ja"})");
  CHECK(ids_of(found["structuredContent"]["results"]) == std::vector<std::string>{"a/alpha"});
  CHECK(found["structuredContent"]["results"][0]["signature"] ==
        "アルファエラー：部品が起動しない");
  CHECK(reply_to(server, call("search", R"({"query":"x","language":"zh"})"))["error"]["message"] ==
        "Invalid params: search: 'language' must be \"en\" or \"ja\", not 'zh'");
}

TEST_CASE("mcp search: a query without words, or with too many, is a tool error") {
  const McpServer server = make_server();
  const json empty = tool_result(server, "search", R"({"query":" !?. "})");
  CHECK(empty["isError"] == true);
  CHECK(empty["content"][0]["text"].get<std::string>().starts_with("the query holds no word"));
  std::string words;
  for (int i = 0; i < 65; ++i) words.append("w").append(std::to_string(i)).append(" ");
  const json many = tool_result(server, "search", R"({"query":")" + words + R"("})");
  CHECK(many["isError"] == true);
  CHECK(many["content"][0]["text"].get<std::string>().starts_with("the query holds 65 words"));
  const json long_query =
      tool_result(server, "search", R"({"query":")" + std::string(1025, 'a') + R"("})");
  CHECK(long_query["isError"] == true);
  CHECK(long_query["content"][0]["text"].get<std::string>().starts_with("the query is 1025 bytes"));
}

TEST_CASE("mcp answers malformed messages with JSON-RPC errors") {
  const McpServer server = make_server();
  struct Case {
    std::string message;
    int code;
    json id;
    std::string message_start;
  };
  const Case cases[] = {
      {"hello", -32700, nullptr, "Parse error at line 1, column "},
      {R"({"jsonrpc":"2.0","id":1,"method":)", -32700, nullptr, "Parse error at line 1, column "},
      {"\"\xff\"", -32700, nullptr, "Parse error at line 1, column "},  // not UTF-8
      {"42", -32600, nullptr, "Invalid Request: a request is a JSON object, not number"},
      {R"("ping")", -32600, nullptr, "Invalid Request: a request is a JSON object, not string"},
      {"null", -32600, nullptr, "Invalid Request: a request is a JSON object, not null"},
      {"[]", -32600, nullptr, "Invalid Request: an empty batch"},
      {R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", -32600, nullptr,
       "Invalid Request: batches are not supported"},
      {R"({"id":1,"method":"ping"})", -32600, 1, "Invalid Request: jsonrpc must be \"2.0\""},
      {R"({"jsonrpc":"1.0","id":1,"method":"ping"})", -32600, 1, "Invalid Request: jsonrpc"},
      {R"({"jsonrpc":2.0,"id":1,"method":"ping"})", -32600, 1, "Invalid Request: jsonrpc"},
      {R"({"jsonrpc":"2.0","id":"a"})", -32600, "a", "Invalid Request: method must be a string"},
      {R"({"jsonrpc":"2.0","id":1,"method":5})", -32600, 1, "Invalid Request: method must be"},
      {R"({"jsonrpc":"2.0","method":5})", -32600, nullptr, "Invalid Request: method must be"},
      {R"({})", -32600, nullptr, "Invalid Request: jsonrpc"},
      {R"({"jsonrpc":"2.0","id":true,"method":"ping"})", -32600, nullptr,
       "Invalid Request: id must be a string or a number, not boolean"},
      {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", -32600, nullptr,
       "Invalid Request: id must be a string or a number, not null"},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", -32600, nullptr,
       "Invalid Request: id must be"},
      {R"({"jsonrpc":"2.0","id":[1],"method":"ping"})", -32600, nullptr,
       "Invalid Request: id must be"},
      {R"({"jsonrpc":"2.0","id":1,"method":"ping","params":"x"})", -32600, 1,
       "Invalid Request: params must be an object"},
      {R"({"jsonrpc":"2.0","id":1,"method":"tools/lists"})", -32601, 1,
       "Method not found: 'tools/lists'; did you mean 'tools/list'?"},
      {R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})", -32601, 1,
       "Method not found: 'resources/list'"},
      {R"({"jsonrpc":"2.0","id":1,"method":"notifications/initialized"})", -32601, 1,
       "Method not found"},
      {R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[]})", -32602, 1,
       "Invalid params: params must be an object"},
  };
  for (const Case& c : cases) {
    const json reply = reply_to(server, c.message);
    INFO(reply.dump());
    CHECK(reply["jsonrpc"] == "2.0");
    CHECK(reply["id"] == c.id);
    CHECK(reply["error"]["code"] == c.code);
    CHECK(reply["error"]["message"].get<std::string>().starts_with(c.message_start));
    CHECK_FALSE(reply.contains("result"));
  }
  // The server goes on.
  CHECK(reply_to(server, R"({"jsonrpc":"2.0","id":9,"method":"ping"})")["result"] ==
        json::object());
}

TEST_CASE("mcp tools/call: unknown tools and bad arguments are invalid params") {
  const McpServer server = make_server();
  struct Case {
    std::string params;
    std::string message;
  };
  const Case cases[] = {
      {R"({"arguments":{}})", "Invalid params: tools/call needs the tool's name, a string"},
      {R"({"name":5})", "Invalid params: tools/call needs the tool's name, a string"},
      {R"({"name":"lookup_eror","arguments":{}})",
       "Invalid params: unknown tool 'lookup_eror'; did you mean 'lookup_error'?"},
      {R"({"name":"get_entry","arguments":"a/alpha"})",
       "Invalid params: arguments must be an object"},
      {R"({"name":"get_entry","arguments":["a/alpha"]})",
       "Invalid params: arguments must be an object"},
      {R"({"name":"get_entry"})", "Invalid params: get_entry: the argument 'id' is required"},
      {R"({"name":"get_entry","arguments":{"id":null}})",
       "Invalid params: get_entry: 'id' must be a string, not null"},
      {R"({"name":"get_entry","arguments":{"idd":"a/alpha"}})",
       "Invalid params: get_entry: unknown argument 'idd'; did you mean 'id'?"},
      {R"({"name":"lookup_error","arguments":{}})",
       "Invalid params: lookup_error: the argument 'error' is required"},
      {R"({"name":"lookup_error","arguments":{"error":5}})",
       "Invalid params: lookup_error: 'error' must be a string, not number"},
      {R"({"name":"lookup_error","arguments":{"eror":"x"}})",
       "Invalid params: lookup_error: unknown argument 'eror'; did you mean 'error'?"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":"3"}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":2.5}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":0}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50, not 0"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":-3}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50, not -3"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":51}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50, not 51"},
      {R"({"name":"lookup_error","arguments":{"error":"x","top":18446744073709551615}})",
       "Invalid params: lookup_error: 'top' must be a whole number from 1 to 50, not "
       "18446744073709551615"},
      {R"({"name":"search","arguments":{"query":"x","language":"fr"}})",
       "Invalid params: search: 'language' must be \"en\" or \"zh\", not 'fr'"},
      {R"({"name":"search","arguments":{"query":["x"]}})",
       "Invalid params: search: 'query' must be a string, not array"},
  };
  for (const Case& c : cases) {
    const json reply = reply_to(
        server, R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":)" + c.params + "}");
    INFO(reply.dump());
    CHECK(reply["id"] == "c");
    CHECK(reply["error"]["code"] == -32602);
    CHECK(reply["error"]["message"] == c.message);
  }
  // Null arguments are no arguments.
  CHECK(reply_to(server, call("lookup_error", "null"))["error"]["message"] ==
        "Invalid params: lookup_error: the argument 'error' is required");
}

TEST_CASE("mcp survives deeply nested and long messages") {
  const McpServer server = make_server();
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(reply_to(server, deep)["error"]["code"] == -32600);
  CHECK(reply_to(server, R"({"jsonrpc":"2.0","id":)" + deep +
                             R"(,"method":"ping"})")["error"]["code"] == -32600);
  // Nested deeper than kMaxMessageDepth: refused as it is read, wherever the nesting is.
  const json in_params = reply_to(server, call("search", R"({"query":)" + deep + "}"));
  CHECK(in_params["error"]["code"] == -32600);
  CHECK(in_params["error"]["message"] ==
        "Invalid Request: the message is nested deeper than 32 levels");
  CHECK(reply_to(server, std::string(100000, '{'))["error"]["code"] == -32700);  // '{{'
  // Nested 32 levels, the arguments are read and refused as what they are.
  const std::string nested = std::string(29, '[') + std::string(29, ']');
  CHECK(reply_to(server, call("search", R"({"query":)" + nested + "}"))["error"]["code"] == -32602);
  CHECK(reply_to(server, "[[[")["error"]["code"] == -32700);
  // A long unknown id is quoted only in part, and a long log is matched.
  const json unknown =
      tool_result(server, "get_entry", R"({"id":")" + std::string(5000, 'x') + R"("})");
  CHECK(unknown["content"][0]["text"].get<std::string>().size() < 200);
  std::string log;
  for (int i = 0; i < 20000; ++i) log += "line " + std::to_string(i) + " ok\\n";
  log += "BetaError: gadget overheated";
  const json hits =
      tool_result(server, "lookup_error", R"({"error":")" + log + R"("})")["structuredContent"];
  CHECK(hits["lines"] == 20001);
  CHECK(ids_of(hits["hits"]) == std::vector<std::string>{"b/beta"});
  // A line over kMaxLineBytes is matched in pieces, which may cut a character: the reply is
  // still JSON, with U+FFFD for the cut bytes.
  std::string chinese;
  while (chinese.size() < kMaxLineBytes + 100) chinese += "错";
  const json cut = tool_result(server, "lookup_error",
                               R"({"error":")" + chinese + R"(BetaError: gadget overheated"})");
  REQUIRE(cut["structuredContent"]["hits"].size() == 1);
  CHECK(cut["structuredContent"]["hits"][0]["id"] == "b/beta");
}

TEST_CASE("mcp refuses a message over the size limit and goes on") {
  const McpServer server = make_server(64);
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  CHECK(reply_to(server, ping)["result"] == json::object());
  const json too_long = reply_to(server, ping + std::string(64 - ping.size() + 1, ' '));
  CHECK(too_long == json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,
    "message":"Invalid Request: the message is over 64 bytes; it was discarded"}})"));
  CHECK(reply_to(server, ping + std::string(64 - ping.size(), ' '))["result"] == json::object());
}

TEST_CASE("mcp serve_lines answers line by line and ends at the end of input") {
  const McpServer server = make_server(64);
  const std::string ping = R"({"jsonrpc":"2.0","id":N,"method":"ping"})";
  const auto with_id = [](std::string text, char id) {
    text[text.find('N')] = id;
    return text;
  };
  std::istringstream in(with_id(ping, '1') + "\n\n   \n" +
                        R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\n" +
                        std::string(1000, 'x') + "\n" + with_id(ping, '2') + "\r\n" + "not json\n" +
                        std::string(65, ' ') + "\r\n" +
                        with_id(ping, '3'));  // no newline at the end
  std::ostringstream out;
  CHECK(serve_lines(server, in, out));
  const std::string result = R"({"jsonrpc":"2.0","id":N,"result":{}})";
  const std::string too_long =
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":)"
      R"("Invalid Request: the message is over 64 bytes; it was discarded"}})";
  const std::string not_json =
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error at line 1, )"
      R"(column 2: syntax error while parsing value - invalid literal; last read: 'no'"}})";
  std::string expected;
  for (const std::string& line : {with_id(result, '1'), too_long, with_id(result, '2'), not_json,
                                  too_long, with_id(result, '3')})
    expected += line + "\n";
  CHECK(out.str() == expected);
  std::istringstream empty("");
  std::ostringstream nothing;
  CHECK(serve_lines(server, empty, nothing));
  CHECK(nothing.str().empty());
}
