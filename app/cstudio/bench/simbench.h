#pragma once

// Benchmark of lowering and simulating (issue goal: lower a 64-rank ring all-reduce with 64
// chunks per rank and simulate it at 1 GiB in at most 200 ms). `cstudio simulate --bench` prints
// the medians and their ratio against a baseline measured in the same run: reading the lowered
// program back from its MSCCL XML (the work any tool does before simulating it).

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
