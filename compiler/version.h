// kbc's version (the project's, from CMakeLists.txt) and the commit it was built from
// ("0123456789ab", with "-dirty" for a work tree with changes, or "unknown"): version.cc is
// generated at every build by version.cmake.
#pragma once

namespace kbc {

extern const char* const kVersion;  // "0.1.0": SARIF's driver and the MCP server report it
extern const char* const kCommit;

}  // namespace kbc
