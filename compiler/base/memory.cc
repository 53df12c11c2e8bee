#include "base/memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace kbc {

void return_free_memory() { malloc_trim(0); }

void map_large_allocations() {
  mallopt(M_MMAP_THRESHOLD, kLargeAllocation);
  mallopt(M_TRIM_THRESHOLD, kKeptHeapTop);
  mallopt(M_TOP_PAD, kHeapTopPad);
}

namespace {

// Whether the kernel gives huge pages to the memory that asks for them only.
bool huge_pages_on_request() {
  std::string mode;
  std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), mode);
  return mode.find("[madvise]") != std::string::npos;
}

}  // namespace

void use_huge_pages(char** argv) {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)  // their own allocators
  if (const char* tunables = std::getenv("GLIBC_TUNABLES")) {
    if (std::strcmp(tunables, kHugePagesTunable) == 0) ::unsetenv("GLIBC_TUNABLES");
    return;
  }
  if (!huge_pages_on_request() || ::setenv("GLIBC_TUNABLES", kHugePagesTunable, 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("GLIBC_TUNABLES");  // it could not be run again
#else
  (void)argv;
#endif
}

}  // namespace kbc
