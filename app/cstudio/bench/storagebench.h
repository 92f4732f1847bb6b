#pragma once

// Benchmark of the SQLite library (issue: "list and search over 10,000 algorithms <= 20 ms;
// saving a 1.4 MB version <= 50 ms"). Runs `cstudio library bench`. Each figure is a median and
// is printed with a ratio against bare SQLite doing the same I/O in the same run (a plain SELECT
// of the rows, a plain INSERT of the bytes), so the cost of the library's own work shows apart
// from the machine's speed.

#include <iosfwd>
#include <string>

namespace cs::bench {

struct StorageBenchOptions {
  int algorithms = 10000;
  std::string largeXml; ///< MSCCL XML to save; empty: a generated ring of about 1.4 MB
  int repeats = 9;
  double listGoalMs = 20.0;
  double saveGoalMs = 50.0;
};

/// Builds a library in a temporary directory, prints the table to `out` and removes it. Returns 0,
/// or 2 when the library cannot be built or the XML cannot be read.
int runStorageBench(const StorageBenchOptions& options, std::ostream& out);

} // namespace cs::bench
