#pragma once

// What the CPU executor does beyond or short of the simulator's model, for a calibrated
// simulation of it (issue 15; SimOptions::executor). The simulator counts a transfer as one copy
// pass, the receiver's, and a cpy as one. The executor also copies a message into its connection
// wherever it cannot be read in place (PlannedStep::sendsInPlace), a forwarding step that is not
// in place writes what it received twice, and a cpy whose source is its destination after the
// buffers are aliased (an in-place collective's own chunk) is skipped. A copy into slots the
// host's cache holds costs no more memory traffic than the transfer's own pass (docs/simulator.md
// §5.1).

#include "exec/executor.h"
#include "sim/calibration.h"
#include "sim/simulator.h"

#include <cstdint>

namespace cs::plan {

/// The CPU executor's costs for `program` at `options`' size and slicing: the sending steps it
/// copies before sending (a plain s: one pass; rcs / rrcs: half a pass, the second write; rrs
/// reduces straight into its connection and costs nothing more) and the cpy steps it skips.
/// Where every slot those sends write into fits half a host cache of `cacheBytes`
/// (copiedSlotBytes(); the data streamed meanwhile takes the other half), the receiver reads the
/// copy back from the cache and the sends cost nothing more (0: no cache known).
/// Empty when the program cannot be planned (the simulation then charges what the model does).
ExecutorCosts cpuExecutorCosts(const Program& program, const ExecOptions& options,
                               std::int64_t cacheBytes = 0);

/// The bytes of all slots of the connections the executor copies sends into: slots × the largest
/// message of each (2 × 2 MiB Simple at 64 MiB). 0 when nothing is copied or no plan is made.
std::int64_t copiedSlotBytes(const Program& program, const ExecOptions& options);

/// cpuExecutorCosts() at `bytes` and with the calibration's host cache where `calibration` models
/// the CPU executor's shared host (the one backend measured on a host), else none: what a
/// calibrated simulation of `program` sets as SimOptions::executor.
ExecutorCosts calibratedExecutorCosts(const Calibration* calibration, const Program& program,
                                      std::int64_t bytes);

} // namespace cs::plan
