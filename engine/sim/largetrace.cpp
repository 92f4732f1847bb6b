#include "largetrace.h"

#include "simulator.h"

namespace cs {

std::optional<Trace> simulateTraceOfAtLeast(const Program& program, const Topology& topology,
                                            long long events)
{
  // The totals-only mode finds the size whose slicing loop runs often enough, cheaply.
  SimOptions sim;
  sim.recordEvents = false;
  sim.recordUtilisation = false;
  const long long steps = program.stepCount();
  for (sim.bytes = 1 << 20; sim.bytes < (1LL << 46); sim.bytes *= 2) {
    const SimResult totals = simulateProgram(program, topology, sim);
    if (!totals.ok)
      return std::nullopt;
    if (steps * totals.slices >= events)
      break;
  }
  sim.recordEvents = true;
  sim.recordUtilisation = true;
  SimResult result = simulateProgram(program, topology, sim);
  if (!result.ok)
    return std::nullopt;
  return std::move(result.trace);
}

} // namespace cs
