#include "base/memory.h"

#include <malloc.h>

namespace kbc {

void return_free_memory() { malloc_trim(0); }

}  // namespace kbc
