#pragma once

// Benchmark of the simulator (issue goal: a 64-rank ring all-reduce with 64 chunks at 1 GiB in
// well under 200 ms). `cstudio simulate --bench` prints the median time of the simulation and
// its ratio against a baseline measured in the same run: reading the same program back from its
// MSCCL XML (the work any tool does before simulating it).

#include <iosfwd>

namespace cs::bench {

struct SimBenchOptions {
  int ranks = 64;
  long long bytes = 1LL << 30;
  int repeats = 5;
};

/// Runs the benchmark and prints one table; returns a process exit code (0 when the run worked).
int runSimBench(const SimBenchOptions& options, std::ostream& out);

} // namespace cs::bench
