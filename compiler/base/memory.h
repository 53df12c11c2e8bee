// Giving memory back. glibc's allocator keeps the memory a program frees for its next
// allocations, in one arena per thread that allocated it; after a phase that built and dropped a
// large structure (a chunk of compiled regexes, the YAML of every entry) that memory stays
// resident, and the next phase, whose allocations fall elsewhere, adds to the peak. At 25,000
// entries a lint's peak was 1.36 GB with 0.83 GB in use.
#pragma once

namespace kbc {

// Returns the free memory of every arena to the system (malloc_trim). Costs a walk over the
// free lists: call it between phases, not in loops.
void return_free_memory();

// Has every allocation of `kLargeAllocation` bytes or more mapped on its own, and unmapped when
// freed. glibc raises that threshold as large blocks are freed (up to 32 MB), after which the
// pages, list pages and vectors of a build are carved from the heap instead, around the small
// blocks that freed entries left, and stay resident when freed: at 100,000 entries the site's
// list pages and search indexes added 370 MB to the peak for 120 MB in use.
// Fixing that threshold also fixes the one above which the free top of a heap is given back
// (glibc raises both together), at 128 KiB: the top of every heap was given back and faulted in
// again, and the corpus's `lint --no-cache` spent 2.5 s in the kernel instead of 0.3. It is set
// to 16 MiB (the phases' malloc_trim gives back the rest).
// And it has each heap grow by `kHeapTopPad` at a time. The heap of a thread other than the
// main one grows by the pages an allocation lacks, each an mprotect call: at 100,000 entries a
// build after one edit made 96,000 of them (1.5 s of system time under strace), 28 with the
// pad, which makes a new heap (64 MiB at most) writable whole. The pad is address space, not
// memory: a page is resident once written. The main heap keeps as much free at its top.
void map_large_allocations();
inline constexpr int kLargeAllocation = 128 * 1024;
inline constexpr int kHeapTopPad = 64 * 1024 * 1024;

// Runs kbc again (the same executable and arguments) with glibc's allocator asked to back its
// heaps with transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), where the kernel
// gives them only to memory that asks (THP "madvise", Debian's default) and GLIBC_TUNABLES is
// not set: glibc reads its tunables at start only. A build after one edit at 100,000 entries
// touches 1.1 GB of fresh heap, a page fault every 4 KiB; with 2 MiB pages its system time
// fell from 10-11 to 7-8 s. Returns when kbc goes on as it is: in the process run again, which
// takes GLIBC_TUNABLES out of its environment so that what it runs does not inherit it; where
// the tunable is set already (to 0, it keeps the heaps as they were); where it cannot be run again.
void use_huge_pages(char** argv);
inline constexpr char kHugePagesTunable[] = "glibc.malloc.hugetlb=1";
inline constexpr int kKeptHeapTop = 16 * 1024 * 1024;

}  // namespace kbc
