#include "replaybench.h"

#include "benchtiming.h"

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "replay/bufferreplay.h"
#include "replay/replayindex.h"
#include "sim/largetrace.h"

#include <cstdio>
#include <ostream>
#include <random>

namespace cs::bench {

namespace {

/// The baseline of a seek: one pass over every event, as a replay from time 0 would take.
std::size_t doneByScanning(const Trace& trace, double timeUs)
{
  std::size_t done = 0;
  for (const TraceEvent& event : trace.events)
    done += event.end <= timeUs ? 1 : 0;
  return done;
}

} // namespace

int runReplayBench(const ReplayBenchOptions& options, std::ostream& out)
{
  const Program program = makeRingAllReduce({options.ranks, 1, Protocol::Simple});
  const std::optional<Topology> topology =
      makePresetTopology("ring-" + std::to_string(options.ranks));
  if (!topology)
    return 2;
  const std::optional<Trace> trace = simulateTraceOfAtLeast(program, *topology, options.events);
  if (!trace)
    return 2;

  std::optional<replay::ReplayIndex> index;
  const double buildMs = medianMs(options.repeats, [&] {
    index = replay::ReplayIndex::build(program, *trace, &*topology).index;
  });
  if (!index)
    return 1;
  const double sortMs = medianMs(options.repeats, [&] {
    std::vector<double> starts;
    starts.reserve(trace->events.size());
    for (const TraceEvent& event : trace->events)
      starts.push_back(event.start);
    std::sort(starts.begin(), starts.end());
  });
  const double buffersMs = medianMs(
      options.repeats, [&] { (void)replay::BufferReplay(program, *trace, CallMode::InPlace); });

  std::mt19937 random(7);
  std::uniform_real_distribution<double> anyTime(0, index->endUs());
  std::vector<double> times(static_cast<std::size_t>(std::max(1, options.seeks)));
  for (double& time : times)
    time = anyTime(random);
  std::size_t checksum = 0;
  const double seekMs = medianMs(options.repeats,
                                 [&] {
                                   for (const double time : times)
                                     checksum += index->at(time).counts.done;
                                 }) /
                        static_cast<double>(times.size());
  std::size_t scanned = 0;
  const double scanMs = medianMs(options.repeats,
                                 [&] {
                                   for (const double time : times)
                                     scanned += doneByScanning(*trace, time);
                                 }) /
                        static_cast<double>(times.size());
  if (checksum != scanned)
    return 1; // the index and the scan disagree on what is done: not a benchmark, a bug

  char text[640];
  std::snprintf(
      text, sizeof text,
      "replay of a simulated ring all-reduce, %d ranks on ring-%d: %zu events, %zu "
      "messages, %.1f us\n"
      "  index build        %9.2f ms  (median of %d; goal at 1,000,000 events <= 2000 ms)\n"
      "  sort baseline      %9.2f ms  ratio %6.2f x\n"
      "  buffer replay      %9.2f ms\n"
      "  seek (full state)  %9.4f ms  (median over %zu times; goal <= 5 ms: %s)\n"
      "  scan baseline      %9.4f ms  ratio %6.2f x\n",
      options.ranks, options.ranks, trace->events.size(), index->messages().size(), index->endUs(),
      buildMs, options.repeats, sortMs, sortMs > 0 ? buildMs / sortMs : 0, buffersMs, seekMs,
      times.size(), seekMs <= 5 ? "met" : "MISSED", scanMs, scanMs > 0 ? seekMs / scanMs : 0);
  out << text;
  return 0;
}

} // namespace cs::bench
