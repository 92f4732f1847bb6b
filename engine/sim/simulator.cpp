#include "simulator.h"

#include "model/fifodepth.h"
#include "simengine_p.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cs {

namespace {

/// Above this many step executions the run would take too long to be useful interactively.
constexpr double kMaxStepExecutions = 5e7;

/// Efficiency in (0, 1], latencies and slice not negative, every bandwidth given positive.
bool validParameters(const ProtocolParams& protocol, const SimOptions& options)
{
  return protocol.efficiency > 0 && protocol.efficiency <= 1 && protocol.latencyUs >= 0 &&
         protocol.hopLatencyUs(HopClass::Pcie) >= 0 &&
         protocol.hopLatencyUs(HopClass::Network) >= 0 && protocol.sliceBytes >= 0 &&
         options.localGBps > 0 && options.localReduceGBps.value_or(1) > 0 &&
         options.fusedReduceGBps.value_or(1) > 0 && options.hostGBps.value_or(1) > 0;
}

} // namespace

SimResult simulateProgram(const Program& program, const Topology& topology,
                          const SimOptions& options)
{
  SimResult result;
  Diagnostics diagnostics;
  result.protocol = options.protocol.value_or(defaultProtocolParams(program.proto));
  const ProtocolParams& protocol = result.protocol;
  result.trace.source = "simulator";
  result.trace.device = "simulated " + topology.name;
  result.trace.ranks = static_cast<int>(program.gpus.size());
  result.trace.bytes = options.bytes;

  if (options.bytes <= 0)
    diagnostics.error("sim.bad-size",
                      "the size must be positive, not " + std::to_string(options.bytes) + " bytes");
  if (program.nchunksperloop <= 0)
    diagnostics.error("sim.invalid-program", "nchunksperloop must be positive");
  if (!validParameters(protocol, options))
    diagnostics.error("sim.bad-parameters",
                      "protocol efficiency must be in (0, 1], latency and slice size not "
                      "negative, local and host bandwidths positive");
  if (diagnostics.hasErrors()) {
    result.diagnostics = diagnostics.take();
    return result;
  }

  const std::optional<sim::SimIndex> index = sim::buildSimIndex(program, topology, diagnostics);
  if (!index) {
    result.diagnostics = diagnostics.take();
    return result;
  }
  const double chunkBytes = static_cast<double>(options.bytes) / program.nchunksperloop;
  if (options.bytes % program.nchunksperloop != 0)
    diagnostics.warning("sim.size-not-divisible",
                        std::to_string(options.bytes) + " bytes do not split into " +
                            std::to_string(program.nchunksperloop) +
                            " equal chunks; the runtime would not select this algorithm "
                            "(simulated with fractional chunks)");
  result.slices = protocol.sliceBytes > 0
                      ? std::max(1, static_cast<int>(std::ceil(chunkBytes / protocol.sliceBytes)))
                      : 1;
  if (static_cast<double>(result.slices) * std::max(1, program.stepCount()) > kMaxStepExecutions) {
    diagnostics.error("sim.too-large",
                      std::to_string(result.slices) + " slices of " +
                          std::to_string(program.stepCount()) +
                          " steps are too many to simulate; use a larger slice size");
    result.diagnostics = diagnostics.take();
    return result;
  }

  sim::Granularity granularity;
  granularity.chunkBytes = chunkBytes;
  granularity.slices = result.slices;
  granularity.piecesPerMessage = piecesPerMessage(program.proto);
  granularity.pieceCapacity =
      std::max(1, options.fifoSlots.value_or(connectionSlots(program.proto))) *
      granularity.piecesPerMessage;
  sim::Engine engine(topology, *index, options, protocol, granularity);
  result.cancelled = !engine.run();
  if (result.cancelled) {
    diagnostics.error("sim.cancelled", "the simulation was cancelled at " +
                                           std::to_string(engine.now()) + " µs simulated");
    result.trace.stoppedUs = engine.now();
  } else if (engine.unfinished() > 0) {
    engine.reportDeadlock(diagnostics);
  }
  result.trace.events = engine.takeEvents();
  engine.fillTrace(result.trace, result.busiestLinks);
  result.timeUs = engine.endTime();
  result.trace.totalUs = result.timeUs;
  if (result.timeUs > 0) {
    result.algbwGBps = static_cast<double>(options.bytes) / (result.timeUs * 1e3);
    result.busbwGBps =
        result.algbwGBps * busBandwidthFactor(program.collective, result.trace.ranks);
  }
  result.nccl = sim::estimateNccl(topology, *index, result.trace.ranks, options.bytes, protocol);
  result.ok = !diagnostics.hasErrors();
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
