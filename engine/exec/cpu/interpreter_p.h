#pragma once

// The threadblock interpreter: what one worker thread runs for one (rank, tb). It replays the
// step list once per slice of the runtime's slicing loop (msccl-format.md §4.2); in slice k every
// step works on elements [k·slice, k·slice + n) of each of its cnt chunks. Before a step it waits
// for its dependency flag, then for its incoming message and for room on its outgoing connection;
// after it, a hasdep step publishes its position. Every wait is abortable (see waiting.h).

#include "exec/cpu/runstate_p.h"

namespace cs::cpu {

/// Runs plan.threadblocks[index] to the end or until the run is aborted.
void runThreadblock(RunState& state, int index);

} // namespace cs::cpu
