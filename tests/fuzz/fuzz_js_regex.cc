// libFuzzer target: the RE2-to-JavaScript translator of the site's paste box.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "match/js_regex.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kbc::js_regex(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
