#pragma once

// Checks of a Schedule (DESIGN.md §4), run by the editor on every edit and by `cstudio generate`
// before lowering. Codes (docs/diagnostics.md), all `schedule.*`:
//   schedule.shape            ranks < 1 or buffers.size() != ranks
//   schedule.duplicate-id     two transfers share an id (or an id is negative)
//   schedule.step             a negative step
//   schedule.rank             a source or destination rank out of range
//   schedule.count            count < 1
//   schedule.index            chunks index .. index+count-1 outside the buffer
//   schedule.write-conflict   two transfers write one chunk in one step
//   schedule.race             a transfer reads a chunk another writes in the same step
//   schedule.uninitialised    a transfer reads a chunk nobody wrote yet
//   schedule.postcondition    the collective's result is wrong after the last step
//   schedule.postcondition.unknown (warning) custom collectives: no postcondition is known
//   schedule.root             broadcast / reduce without a valid Schedule::root
//   schedule.mode (warning)   neither in-place nor out-of-place is declared
// Semantics: steps run in order; within a step every transfer reads the state before the step
// and the writes land together (copy: dst = src, reduce: dst = dst ⊕ src). A chunk's value is the
// multiset of (rank, input chunk) contributions it has summed (engine/check/symbolicvalue.h), so
// double counting is visible. Each declared call mode is executed with its aliasing
// (schedulegeometry.h); a problem found in one mode only says which.
//
// Cost: O(chunks + Σ transfer counts · value size + transfers · log transfers); a 64-rank,
// 128-step schedule checks in a few milliseconds.

#include "../model/schedule.h"
#include "model/diagnostic.h"

#include <vector>

namespace cs {

/// Diagnostics of a Schedule, each paired with the transfer it is about.
struct ScheduleCheckResult {
  std::vector<Diagnostic> diagnostics;

  bool hasErrors() const;
};

/// Runs every Schedule check. location.rank and location.step (the schedule step) are set when a
/// diagnostic is about a transfer, whose message then says "transfer #id". Never throws.
ScheduleCheckResult checkSchedule(const Schedule& schedule);

} // namespace cs
