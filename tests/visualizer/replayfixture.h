#pragma once

// A simulated ring all-reduce opened as a replay session, for the visualizer's tests.

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "session/replaysession.h"
#include "sim/simulator.h"

#include <QtGlobal>

#include <memory>

namespace cs::visualizer::test {

/// Simulates the catalogue's ring all-reduce on `ranks` ranks over `preset` and opens its trace.
inline std::unique_ptr<ReplaySession> simulatedRing(int ranks, const char* preset,
                                                    std::int64_t bytes = 1 << 20)
{
  const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
  const Topology topology = *makePresetTopology(preset);
  SimOptions options;
  options.bytes = bytes;
  const SimResult result = simulateProgram(program, topology, options);
  ReplayOpen opened =
      ReplaySession::open(program, result.trace, topology, declaredModes(program).front());
  if (!opened.session)
    qFatal("replay refused a simulated trace");
  return std::move(opened.session);
}

} // namespace cs::visualizer::test
