#pragma once

// Benchmark of reading and fully checking MSCCL XML (issue: "one frame, so the editor can
// re-check on every edit"). Prints medians and ratios against a baseline measured in the same
// run: a bare pugixml parse of the same bytes, the floor any XML reader pays on this machine.

#include <iosfwd>
#include <string>
#include <vector>

namespace cs::bench {

struct CheckerBenchOptions {
  std::vector<std::string> files;
  int repeats = 15;
  /// Reading (the runtimes' lexical rules and the model, in one pass) against the bare parse.
  double readGoalRatio = 3.0;
  double checkGoalMs = 10.0;
};

/// Runs the benchmark and prints a table to `out`; returns 0, or 2 when a file cannot be read.
int runCheckerBench(const CheckerBenchOptions& options, std::ostream& out);

} // namespace cs::bench
