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
#include <string_view>

namespace cs {

struct CalibrationSweepOptions {
  std::int64_t minBytes = 256 << 10; ///< smallest probe size
  std::int64_t maxBytes = 16 << 20;  ///< largest; sizes go ×2 from minBytes
  int pairs = 0;      ///< pairs of the CPU host probe at once; 0: half the topology's ranks
  int iterations = 3; ///< timed runs per point; the fastest is the point
  int warmup = 1;
  /// When positive, a link's α is the fastest run of its probe at this size (one small message,
  /// whose time is all latency) and only β is fitted on the sizes above. A sweep beyond the
  /// cache (the CPU executor's) takes milliseconds per point, and α drowns in their noise.
  std::int64_t latencyBytes = 0;
  /// The host's last-level cache, recorded with the shared host (Calibration::hostCacheBytes);
  /// 0: not known.
  std::int64_t hostCacheBytes = 0;
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

/// The sweep of `backend` unless told otherwise. A GPU's: 256 KiB to 16 MiB, α and β fitted
/// together. The CPU executor's: from the host's last-level cache (a power of two, 4 to 64 MiB)
/// to four times it, where the buffers of the collectives people simulate lie (a copy of the
/// smallest already reads and writes twice what the cache holds), with α measured apart at 4 KiB.
/// Within the cache a copy runs two to three times as fast, and a sweep across both fits neither
/// (docs/simulator.md §5.1).
CalibrationSweepOptions defaultSweepOptions(std::string_view backend);
/// The same for a host whose last-level cache holds `cacheBytes` (the CPU sweep's only input).
CalibrationSweepOptions defaultSweepOptions(std::string_view backend, std::int64_t cacheBytes);

/// The largest data cache of the host's first CPU in bytes, as Linux describes it in sysfs (what
/// lscpu prints), or `fallback` where it does not say. Not sysconf: in a VM that reports the whole
/// host's cache, which one guest never gets. `cacheDir` is the folder holding index0, index1, …
/// (another one in tests).
inline constexpr std::string_view kCpu0CacheDir = "/sys/devices/system/cpu/cpu0/cache";
std::int64_t lastLevelCacheBytes(std::int64_t fallback = std::int64_t{32} << 20,
                                 std::string_view cacheDir = kCpu0CacheDir);

/// The probe programs, for tests and for people who want to run them by hand.
Program oneHopProbe(int pairs);
Program localProbe(int ranks, OpType type);

} // namespace cs
