#include "base/memory.h"

#include <malloc.h>

namespace kbc {

void return_free_memory() { malloc_trim(0); }

void map_large_allocations() {
  mallopt(M_MMAP_THRESHOLD, kLargeAllocation);
  mallopt(M_TRIM_THRESHOLD, kKeptHeapTop);
}

}  // namespace kbc
