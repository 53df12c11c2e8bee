// A temporary folder for unit tests that need a real file system, removed with what it holds.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace kbc_test {

struct TempDir {
  std::filesystem::path root;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kbc-unit-XXXXXX").string();
    root = mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(root); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace kbc_test
