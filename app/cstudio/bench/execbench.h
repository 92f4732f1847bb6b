#pragma once

// The executor sweep of `cstudio bench FILE --backend B`: an nccl-tests-style table (size, count,
// type, redop, time, algbw, busbw, #wrong) for sizes min, min·factor, … max, plus a `roofline`
// column: the time a plain multi-threaded memcpy, measured in the same run, needs to move the
// bytes this program must read and write, divided by the measured time (1.00 = copy speed).

#include "exec/executor.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::bench {

struct ExecBenchOptions {
  std::string file;
  std::string backend = "cpu";
  std::int64_t minBytes = 1 << 10;
  std::int64_t maxBytes = 64 << 20;
  double factor = 4;
  ExecOptions exec; ///< bytes is set per row; the rest applies to every row
};

/// Runs the sweep, table on `out`, progress on `progress`. Returns the worst exit status of
/// `cstudio run`: 0 verified (or nothing to verify), 1 wrong results, 2 unusable input, 3 hang.
int runExecBench(const ExecBenchOptions& options, std::ostream& out, std::ostream& progress);

/// `cstudio bench FILE --backend B …`: exactly one file; `texts` are the textual options
/// {min-bytes, max-bytes, dtype, op}. Usage errors go to `progress` and return 2.
int runExecBenchFromArgs(ExecBenchOptions options, const std::vector<std::string>& files,
                         const std::array<std::string, 4>& texts, std::ostream& out,
                         std::ostream& progress);

/// Bytes a run of `program` must read and write in local memory, summed over ranks, when every
/// receiver reads the sender's data where it lies (plain `s` costs nothing, a forwarded value not
/// stored anywhere costs one write): the roofline's numerator.
std::int64_t requiredTrafficBytes(const Program& program, std::int64_t chunkBytes);

} // namespace cs::bench
