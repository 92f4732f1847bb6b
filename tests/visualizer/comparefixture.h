#pragma once

// Runs of the 4-rank ring all-reduce for the compare and hang-forensics tests: a CPU run (one
// that ends, or one with one slot per connection that the watchdog stops), opened as a session.

#include "catalogue/ringallreduce.h"
#include "exec/executor.h"
#include "model/topologypresets.h"
#include "session/replaysession.h"

#include <QtGlobal>

#include <memory>

namespace cs::visualizer::test {

/// A CPU run of the 4-rank ring all-reduce, traced; with `oneSlot` 1 the ring deadlocks and the
/// watchdog stops it after a short timeout.
inline Trace cpuRingTrace(std::optional<int> oneSlot = std::nullopt)
{
  ExecOptions options;
  options.bytes = 4 * 64 * 4;
  options.trace = true;
  options.timeoutSeconds = oneSlot ? 0.5 : 5;
  options.connectionSlots = oneSlot;
  return makeExecutor("cpu")->run(makeRingAllReduce({4, 1, Protocol::Simple}), options).trace;
}

/// Opens `trace` as a run of the 4-rank ring all-reduce over ring-4.
inline std::unique_ptr<ReplaySession> openRing(const Trace& trace)
{
  const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
  ReplayOpen opened = ReplaySession::open(program, trace, *makePresetTopology("ring-4"),
                                          declaredModes(program).front());
  if (!opened.session)
    qFatal("replay refused a trace of the ring");
  return std::move(opened.session);
}

} // namespace cs::visualizer::test
