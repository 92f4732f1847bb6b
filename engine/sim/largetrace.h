#pragma once

// Traces of a chosen size for benchmarks: the simulated run of a program at the smallest
// power-of-two size whose trace has at least N events (the slicing loop runs more often as the
// size grows). `cstudio replay --bench` and the visual debugger's benchmark use it.

#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"

#include <optional>

namespace cs {

/// The trace (with events and link utilisation) of `program` on `topology` at the first size from
/// 1 MiB up, doubling, that gives at least `events` events; nullopt when the simulation fails.
std::optional<Trace> simulateTraceOfAtLeast(const Program& program, const Topology& topology,
                                            long long events);

} // namespace cs
