#pragma once

// Lifting (DESIGN.md §3): Program -> Schedule, so any MSCCL XML, hand-written or produced by
// another tool, can be shown and edited on the timeline. Sends are matched with receives in order
// per (channel, sender, receiver); each message becomes a copy or reduce transfer (a fused
// rcs / rrs / rrcs chain becomes one transfer per hop), local cpy / re become local transfers,
// and steps are numbered by dependency depth (program order, dependencies, send -> receive).
// Channel and threadblock choices are kept as pins, so lowering the lifted Schedule reproduces
// the original's structure.

#include "../model/program.h"
#include "../model/schedule.h"
#include "lower.h"
#include "model/diagnostic.h"

#include <optional>
#include <vector>

namespace cs {

struct LiftResult {
  /// Absent when the Program cannot be lifted (unmatched sends, operands out of range, …).
  std::optional<Schedule> schedule;
  std::vector<Diagnostic> diagnostics; ///< lift.* codes with the Program location
  /// With a schedule: one entry per instruction that moves data, naming the transfer it carries
  /// (a send and its matching receive name the same transfer; a forwarding rcs names the one it
  /// receives). Nops have none. The editor links instructions and timeline arrows through it.
  std::vector<InstructionOrigin> origins;
};

/// Lifts `program`. Never throws; malformed programs give lift.* diagnostics and no schedule.
LiftResult liftProgram(const Program& program);

} // namespace cs
