#pragma once

// What the CPU executor copies before it sends, for the simulator's host model (issue 15): the
// simulator counts a transfer as one copy pass, the receiver's, but the executor also copies a
// message into its connection wherever it cannot be read in place (PlannedStep::sendsInPlace),
// and a forwarding step that is not in place writes what it received twice. A calibrated
// simulation of the CPU executor charges those passes (SimOptions::sendCopies).

#include "exec/executor.h"
#include "sim/calibration.h"
#include "sim/simulator.h"

#include <vector>

namespace cs::plan {

/// The sending steps of `program` that the CPU executor copies before sending at `options`'
/// size and slicing (a plain s: one pass; rcs / rrcs: half a pass, the second write); rrs
/// reduces straight into its connection and costs nothing more. Empty when the program cannot
/// be planned (the simulation then charges transfers only).
std::vector<SendCopy> cpuSendCopies(const Program& program, const ExecOptions& options);

/// cpuSendCopies() at `bytes` where `calibration` models the CPU executor's shared host (the one
/// backend whose sends copy), else none: what a calibrated simulation of `program` sets as
/// SimOptions::sendCopies.
std::vector<SendCopy> calibratedSendCopies(const Calibration* calibration, const Program& program,
                                           std::int64_t bytes);

} // namespace cs::plan
