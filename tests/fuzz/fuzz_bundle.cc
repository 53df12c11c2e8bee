// libFuzzer target: a bundle (kb.json) as kbc match reads it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/diagnostic.h"
#include "match/bundle_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kbc::match_records_from_bundle_text(
        std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const nlohmann::json::exception&) {  // not JSON: refused with nlohmann's message
  } catch (const kbc::ToolError&) {             // not a bundle: refused with kbc's
  }
  return 0;
}
