#pragma once

// Benchmark of the checks at cluster scale (issue 18, item 3 and its goals): a 512-rank direct
// all-to-all fully checked, races included (goal <= 10 s), and a 1,024-rank ring all-reduce
// generated, lowered and fully checked (goal <= 2 s). `cstudio bench --scale` prints each phase
// with its ratio against a baseline measured in the same run: the full check of a 64-rank direct
// all-to-all (8,128 threadblocks, already past the 4,096 where race detection used to stop).
// Then generate's own path (the checks beside lowering and writing) against a quarter of the
// ranks. Then the simulator's goal: that ring all-reduce at 1 GiB on fabric-h100-128x8 in at most
// 2 s, with its ratio against the same program on ring-1024.

#include <iosfwd>

namespace cs::bench {

struct ScaleBenchOptions {
  int alltoallRanks = 512;
  int ringRanks = 1024;
  int baselineRanks = 64;
  int repeats = 1; ///< the large cases take seconds each; the baseline runs 5 times more
};

/// Runs the benchmark and prints one table; returns 0 when every case ran, 1 otherwise.
int runScaleBench(const ScaleBenchOptions& options, std::ostream& out);

} // namespace cs::bench
