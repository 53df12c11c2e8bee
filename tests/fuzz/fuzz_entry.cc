// libFuzzer target: an entry file through the YAML loader and the schema, as lint loads it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/text.h"
#include "load/yaml_loader.h"
#include "resources.h"
#include "validate/schema_validator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kbc::SchemaValidator schema(
      nlohmann::json::parse(kbc::embedded_resource("schema/entry.schema.json").value()));
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (kbc::find_invalid_utf8(text)) return 0;  // lint reports it before parsing (yaml-encoding)
  kbc::Diagnostics out;
  if (auto document = kbc::load_yaml("entries/x/y.yaml", text, out))
    schema.validate("entries/x/y.yaml", document->value, document->sources, out);
  return 0;
}
