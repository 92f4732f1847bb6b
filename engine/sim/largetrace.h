#pragma once

// Traces of a chosen size for benchmarks: the simulated run of a program at about the smallest
// size whose trace has at least N events (the slicing loop runs more often as the size grows).
// `cstudio replay --bench` and the visual debugger's benchmark use it.

#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"

#include <optional>

namespace cs {

/// The trace (with events and link utilisation) of `program` on `topology` at a size that gives
/// at least `events` events and at most about 1/64 more than the smallest such size (found by
/// doubling from 1 MiB, then bisecting); nullopt when the simulation fails.
std::optional<Trace> simulateTraceOfAtLeast(const Program& program, const Topology& topology,
                                            long long events);

} // namespace cs
