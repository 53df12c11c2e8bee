// `kbc import`: published JSON records back into entry YAML files.
//
// The YAML keeps the record's key order and leaves out what the build would put back anyway
// (null, empty lists and maps of optional keys, empty conditions and sources), so that
// import followed by build gives back the same record.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/languages.h"

namespace kbc {

// The YAML text of one record, for a knowledge base in `languages`.
std::string record_to_yaml(const nlohmann::ordered_json& record,
                           const std::vector<Language>& languages = default_languages());

}  // namespace kbc
