#pragma once

// A simulated ring all-reduce opened as a replay session, for the views' tests: the run on a
// preset topology, optionally cut short (events after a time dropped, as a run stopped by the
// watchdog leaves them) or without the simulator's link samples (as a measured run has none).

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "session/replaysession.h"
#include "sim/simulator.h"

#include <QtGlobal>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace cs::visualizer::test {

struct RunOptions {
  int ranks = 4;
  const char* preset = "ring-4";
  double cutAtFraction = 0; ///< > 0: keep only events that ended by this fraction of the run
  bool dropLinkSamples = false;
  bool dropLinkPaths = false; ///< as a measured run: routes come from the topology
  bool withTopology = true;
  std::int64_t bytes = 1 << 20;
};

inline std::unique_ptr<ReplaySession> openSimulatedRing(const RunOptions& options)
{
  const Program program = makeRingAllReduce({options.ranks, 1, Protocol::Simple});
  const Topology topology = *makePresetTopology(options.preset);
  SimOptions sim;
  sim.bytes = options.bytes;
  Trace trace = simulateProgram(program, topology, sim).trace;
  if (options.cutAtFraction > 0) {
    const double cut = trace.totalUs * options.cutAtFraction;
    std::erase_if(trace.events, [cut](const TraceEvent& e) { return e.end > cut; });
    trace.totalUs = cut;
  }
  if (options.dropLinkSamples)
    trace.links.clear();
  if (options.dropLinkPaths) {
    for (TraceEvent& event : trace.events)
      event.linkPath.clear();
  }
  std::optional<Topology> used;
  if (options.withTopology)
    used = topology;
  ReplayOpen opened = ReplaySession::open(program, trace, used, CallMode::OutOfPlace);
  if (!opened.session)
    qFatal("the session refused a simulated trace: %s", opened.diagnostics.front().message.c_str());
  return std::move(opened.session);
}

} // namespace cs::visualizer::test
