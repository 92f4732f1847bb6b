#include "simbench.h"

#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"
#include "library/ringallreduce.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <vector>

namespace cs::bench {

namespace {

template <typename Work>
double medianMs(int repeats, Work&& work)
{
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int runSimBench(const SimBenchOptions& options, std::ostream& out)
{
  const Program program = makeRingAllReduce({options.ranks, 1, Protocol::Simple});
  const std::optional<Topology> topology =
      makePresetTopology("ring-" + std::to_string(options.ranks));
  if (!topology)
    return 2;
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
  char line[256];
  std::snprintf(line, sizeof line,
                "ring all-reduce, %d ranks, %d chunks, %lld bytes on ring-%d: %zu steps x %d "
                "slices = %zu events, simulated time %.1f us\n",
                options.ranks, program.nchunksperloop, options.bytes, options.ranks, steps,
                result.slices, result.trace.events.size(), result.timeUs);
  out << line;
  std::snprintf(line, sizeof line,
                "  simulate          %9.2f ms  (median of %d)\n"
                "  read XML baseline %9.2f ms\n"
                "  ratio             %9.2f x the baseline\n",
                simulateMs, options.repeats, readMs, readMs > 0 ? simulateMs / readMs : 0.0);
  out << line;
  return result.ok ? 0 : 1;
}

} // namespace cs::bench
