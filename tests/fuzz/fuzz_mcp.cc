// libFuzzer target: one MCP request line, answered from two small entries.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mcp/mcp_server.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kbc::McpServer server(
      {nlohmann::ordered_json{
           {"id", "cuda/oom"},
           {"signature", "CUDA error: out of memory"},
           {"regex", "(?i)CUDA (error: )?out of memory"},
           {"domain", "cuda"},
           {"fix_success_rate", 0.8},
           {"workarounds", {{{"action", "Lower the batch size"}, {"success_rate", 0.8}}}}},
       nlohmann::ordered_json{{"id", "pip/externally-managed"},
                              {"signature", "error: externally-managed-environment"},
                              {"regex", "externally-managed-environment"},
                              {"domain", "pip"},
                              {"fix_success_rate", 0.9}}},
      {});
  server.handle(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
