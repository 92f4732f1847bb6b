#include "largetrace.h"

#include "sim/simulator.h"

#include <algorithm>

namespace cs {

namespace {

/// Events the simulated run at `bytes` records, counted by the totals-only mode (cheap): one per
/// step and iteration of the slicing loop. Negative when the simulation fails.
long long eventsAt(const Program& program, const Topology& topology, long long bytes)
{
  SimOptions sim;
  sim.recordEvents = false;
  sim.recordUtilisation = false;
  sim.bytes = bytes;
  const SimResult totals = simulateProgram(program, topology, sim);
  return totals.ok ? program.stepCount() * totals.slices : -1;
}

} // namespace

std::optional<Trace> simulateTraceOfAtLeast(const Program& program, const Topology& topology,
                                            long long events)
{
  // Doubling brackets the size; bisection then finds the smallest size within 1/64 of it, so a
  // benchmark asking for 10M events gets about 10M, not the 16M the next power of two gives.
  long long high = 1 << 20;
  long long counted = 0;
  for (; high < (1LL << 46); high *= 2) {
    counted = eventsAt(program, topology, high);
    if (counted < 0)
      return std::nullopt;
    if (counted >= events)
      break;
  }
  long long low = high / 2;
  const long long step = std::max(1LL, high / 64);
  while (high - low > step) {
    const long long middle = low + (high - low) / 2;
    counted = eventsAt(program, topology, middle);
    if (counted < 0)
      return std::nullopt;
    (counted >= events ? high : low) = middle;
  }
  SimOptions sim;
  sim.bytes = high;
  SimResult result = simulateProgram(program, topology, sim);
  if (!result.ok)
    return std::nullopt;
  return std::move(result.trace);
}

} // namespace cs
