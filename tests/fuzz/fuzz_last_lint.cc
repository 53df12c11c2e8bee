// libFuzzer target: the readers of the last lint's two parts, as a damaged cache would give them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lint/last_lint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  kbc::LastLint last;
  if (std::optional<kbc::LastLint> read = kbc::LastLint::from_bytes(bytes)) last = std::move(*read);
  last.digest = "kb-1";  // the digest the seeds' facts name
  last.add_facts(bytes);
  return 0;
}
