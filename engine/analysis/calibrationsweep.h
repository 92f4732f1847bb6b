#pragma once

// The measured sweep behind a Calibration (sim/calibration.h): probe programs run on an execution
// backend over a range of sizes, each probe fitted to time = α + bytes/β.
//
// Probes, each a custom collective of one chunk in the Simple protocol:
// - per link kind of the topology, a one-hop copy on one (sender, receiver) pair alone: an `s` on
//   one rank and an `r` on the other. Its route in the topology (a rank pair whose slowest link is
//   that kind, else any route through it) gives the hops α is split over.
// - a local copy (`cpy` i → o) and a local reduce (`re` i into o) on one rank.
// Each is measured alone: the simulator shares links, and with a CPU calibration the host, among
// what runs at once, so figures measured under load would count the sharing twice.
// - on the CPU executor, whose ranks are threads sharing the host's cores and memory, the one-hop
//   copy again on `pairs` disjoint pairs at once ("host"): what they move together is the host's
//   capacity under a collective's load. `pairs` defaults to half the topology's ranks, so every
//   rank is busy. A GPU backend places the probe's ranks on the devices the topology's ranks are
//   (ExecOptions::deviceOfRank) where it can.

#include "exec/executor.h"
#include "model/topology.h"
#include "sim/calibration.h"

#include <cstdint>
#include <functional>
#include <string>

namespace cs {

struct CalibrationSweepOptions {
  std::int64_t minBytes = 256 << 10; ///< smallest probe size
  std::int64_t maxBytes = 16 << 20;  ///< largest; sizes go ×2 from minBytes
  int pairs = 0;      ///< pairs of the CPU host probe at once; 0: half the topology's ranks
  int iterations = 3; ///< timed runs per point; the fastest is the point
  int warmup = 1;
  /// Called before each probe size with a line for people ("nvlink 1 MiB").
  std::function<void(const std::string&)> progress;
};

struct CalibrationSweepResult {
  std::optional<Calibration> calibration;
  std::string error; ///< which probe failed and why, or why the sweep cannot be fitted
};

/// Runs the sweep on `executor` for `topology` and fits it. The calibration's host and date are
/// left for the caller (they belong to the surface that records them).
CalibrationSweepResult runCalibrationSweep(Executor& executor, const Topology& topology,
                                           const CalibrationSweepOptions& options);

/// The probe programs, for tests and for people who want to run them by hand.
Program oneHopProbe(int pairs);
Program localProbe(int ranks, OpType type);

} // namespace cs
