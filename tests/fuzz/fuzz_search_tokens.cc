// libFuzzer target: the site search's tokenizer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "search/search_index.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kbc::search_tokens(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
