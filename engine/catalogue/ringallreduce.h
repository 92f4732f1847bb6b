#pragma once

// The ring all-reduce at the Program level, as msccl-tools lowers it: one threadblock per rank
// and channel that sends to the next rank and receives from the previous one; n-1 steps of
// reduce-scatter fused into rrs/rrcs, then n-1 steps of all-gather as rcs and a final r.
// It is the built-in example of `cstudio generate` and the base of many tests; the Schedule-level
// generators of engine/catalogue supersede it for editing.

#include "../model/program.h"

namespace cs {

struct RingAllReduceOptions {
  int ranks = 4;    ///< at least 2
  int channels = 1; ///< independent rings, each on its own channel and chunk range
  Protocol protocol = Protocol::Simple;
};

/// An in-place ring all-reduce with ranks × channels chunks. Ranks below 2 are raised to 2 and
/// channels below 1 to 1.
Program makeRingAllReduce(const RingAllReduceOptions& options);

} // namespace cs
