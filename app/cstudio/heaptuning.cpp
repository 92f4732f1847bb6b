#include "heaptuning.h"

#if __has_include(<malloc.h>)
#include <malloc.h> // also what defines __GLIBC__ (through <features.h>)
#endif

namespace cs::cli {

void keepFreedMemory()
{
#if defined(__GLIBC__)
  // No separate mappings: big blocks come from the heap, where a freed one is reused. (When the
  // heap cannot grow, glibc still falls back to a mapping.)
  mallopt(M_MMAP_MAX, 0);
  // Never hand the heap's free top back: the next big vector would fault it in again.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // One arena for every thread: a second thread's own arena is made of 64 MiB mappings that
  // glibc shrinks and unmaps, faulting the same pages in again (368,000 faults instead of 211,000
  // when generate checks beside its writing).
  mallopt(M_ARENA_MAX, 1);
  // Grow the heap 64 MiB at a time instead of 128 KiB (hundreds of brk calls).
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

} // namespace cs::cli
