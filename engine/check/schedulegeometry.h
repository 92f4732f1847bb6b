#pragma once

// Buffer geometry of a Schedule (msccl-format.md §4.1, the Schedule-level mirror of
// model/buffergeometry.h): how many chunks the collective's buffers hold and which memory `i` and
// `o` share when the algorithm is called in place. The Schedule checks and the generators'
// tests use this one definition; its aliasing is aliasedSlot() of buffergeometry.h.

#include "../model/buffergeometry.h"
#include "../model/schedule.h"

namespace cs {

/// The chunk counts a collective implies, read from rank 0's buffers: N ("whole", the big side)
/// and K = N / ranks ("share", the per-rank block of all-gather, reduce-scatter and all-to-all).
struct ScheduleGeometry {
  Collective collective = Collective::AllReduce;
  int ranks = 0;
  int whole = 0; ///< N: all-gather output, reduce-scatter input, everything else's input
  int share = 0; ///< K = N / ranks
};

/// The geometry of `schedule`; all-gather derives N from the input (K chunks), the others from
/// the input's size N. Zero sizes when the schedule has no ranks.
ScheduleGeometry scheduleGeometry(const Schedule& schedule);

/// The memory chunk `ref` occupies when called in `mode` (aliasedSlot() with K = share):
/// in place, all-gather i[k] is o[rank·K + k], reduce-scatter o[k] is i[rank·K + k], and every
/// other collective's o[k] is i[k]. Out of place, and for scratch, the reference itself.
ChunkRef aliasedChunk(const ScheduleGeometry& geometry, ChunkRef ref, CallMode mode);

} // namespace cs
