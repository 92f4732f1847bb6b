#pragma once

// Whether a Trace can be replayed against a Program: every event names a rank, threadblock and
// step the program has, with that step's instruction, finite non-negative times that do not run
// backwards, and no (rank, tb, step, slice) twice; link ids exist in the topology. A trace of
// another program, a corrupt file or a fuzzed one fails here with messages that say which event
// and what does not match, before anything is indexed.

#include "model/diagnostic.h"
#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"

namespace cs::replay {

/// Appends replay.* errors to `out`; true when the trace fits.
bool traceFitsProgram(const Program& program, const Trace& trace, const Topology* topology,
                      Diagnostics& out);

} // namespace cs::replay
