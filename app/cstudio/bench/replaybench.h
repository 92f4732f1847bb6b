#pragma once

// Benchmark of replaying a recorded run (the visual debugger's goals: seek to any time in at most
// 5 ms, open a 1,000,000-event trace in at most 2 s). `cstudio replay --bench` indexes a simulated
// trace of the catalogue's ring all-reduce with about `events` events and prints the medians with
// their ratios against baselines measured in the same run: sorting the events by start (what
// any index must at least do) for the build, and one pass over every event (a replay from 0) for
// a seek.

#include <iosfwd>

namespace cs::bench {

struct ReplayBenchOptions {
  int ranks = 64;
  long long events = 100000;
  int repeats = 5;
  int seeks = 200;
};

/// Runs the benchmark and prints one table; returns a process exit code (0 when the run worked).
int runReplayBench(const ReplayBenchOptions& options, std::ostream& out);

} // namespace cs::bench
