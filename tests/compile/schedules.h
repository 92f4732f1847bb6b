#pragma once

// Schedules the compile tests build by hand, independent of engine/catalogue, so the compiler is
// tested against designs whose every transfer is known.

#include "model/schedule.h"

namespace cs::test {

/// In-place ring all-reduce on n ranks, n chunks per rank: n-1 reduce-scatter steps (rank r
/// sends chunk r-s to r+1, reduce), then n-1 all-gather steps (rank r sends chunk r+1-s, copy).
Schedule ringAllReduceSchedule(int ranks);
/// Out-of-place ring all-gather: step 0 copies i[0] to o[r] locally and sends it to r+1; step s
/// forwards o[r-s] to r+1.
Schedule ringAllGatherSchedule(int ranks);
/// Out-of-place direct all-to-all: everything in step 0, one transfer per (rank, peer).
Schedule directAllToAllSchedule(int ranks);
/// In-place all-reduce through rank 0's scratch: gather into s[r], local reduces into s[0], a
/// local copy back to i[0], then a broadcast of i[0]. Exercises cpy, re, scratch and hazards.
Schedule scratchAllReduceSchedule(int ranks);

} // namespace cs::test
