// libFuzzer target: the scanner of kbc-disable comments.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "load/suppression_comments.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kbc::scan_suppression_comments(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
