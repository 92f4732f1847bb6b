#include "simbench.h"

#include "benchtiming.h"

#include "catalogue/catalogue.h"
#include "compile/lower.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <vector>

namespace cs::bench {

int runSimBench(const SimBenchOptions& options, std::ostream& out)
{
  // The catalogue's ring all-reduce: on n ranks each rank's buffer has n chunks (64 on 64 ranks).
  const GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = options.ranks});
  const std::optional<Topology> topology =
      makePresetTopology("ring-" + std::to_string(options.ranks));
  if (!generated.schedule || !topology)
    return 2;
  LowerResult lowered;
  const double lowerMs =
      medianMs(options.repeats, [&] { lowered = lowerSchedule(*generated.schedule, {}); });
  if (!lowered.program)
    return 2;
  const Program& program = *lowered.program;
  const std::string xml = writeMscclXml(program, {}).text;
  SimOptions sim;
  sim.bytes = options.bytes;
  SimResult result;
  const double simulateMs =
      medianMs(options.repeats, [&] { result = simulateProgram(program, *topology, sim); });
  std::size_t steps = 0;
  const double readMs = medianMs(options.repeats, [&] {
    const ReadResult read = readMscclXml(xml);
    steps = read.program ? static_cast<std::size_t>(read.program->stepCount()) : 0;
  });
  const double totalMs = lowerMs + simulateMs;
  char line[512];
  std::snprintf(line, sizeof line,
                "ring all-reduce, %d ranks, %d chunks per rank, %lld bytes on ring-%d: %zu "
                "transfers lowered to %zu steps x %d slices = %zu events, simulated time %.1f us\n",
                options.ranks, program.nchunksperloop, options.bytes, options.ranks,
                generated.schedule->transfers.size(), steps, result.slices,
                result.trace.events.size(), result.timeUs);
  out << line;
  std::snprintf(line, sizeof line,
                "  lower             %9.2f ms  (median of %d)\n"
                "  simulate          %9.2f ms\n"
                "  lower + simulate  %9.2f ms  (goal <= 200 ms: %s)\n"
                "  read XML baseline %9.2f ms\n"
                "  ratio             %9.2f x the baseline\n",
                lowerMs, options.repeats, simulateMs, totalMs, totalMs <= 200 ? "met" : "MISSED",
                readMs, readMs > 0 ? totalMs / readMs : 0.0);
  out << line;
  return result.ok ? 0 : 1;
}

} // namespace cs::bench
