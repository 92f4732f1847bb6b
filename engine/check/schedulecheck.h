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
//   schedule.too-large        the symbolic values ran out of ids (over 4 billion unions)
// Semantics: steps run in order; within a step every transfer reads the state before the step
// and the writes land together (copy: dst = src, reduce: dst = dst ⊕ src). A chunk's value is the
// multiset of (rank, input chunk) contributions it has summed (engine/check/symbolicvalue.h), so
// double counting is visible. Each declared call mode is executed with its aliasing
// (schedulegeometry.h); a problem found in one mode only says which.
//
// Cost: O(chunks + Σ transfer counts + transfers · log transfers) once the values' stored entries
// reach their budget (symbolicvalue.h); a 64-rank, 128-step schedule checks in a few
// milliseconds.

#include "../model/schedule.h"
#include "model/diagnostic.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace cs {

struct ScheduleStates;

/// Diagnostics of a Schedule, each paired with the transfer it is about.
struct ScheduleCheckResult {
  std::vector<Diagnostic> diagnostics;
  /// What every chunk holds after each step (schedulestates.h), when recordStates was asked for
  /// and the Schedule has a usable shape.
  std::shared_ptr<const ScheduleStates> states;

  bool hasErrors() const;
};

struct ScheduleCheckOptions {
  /// Also keep the per-step chunk values of the shown call mode (the timeline's cells).
  bool recordStates = false;
  /// Value ids recorded at most (ScheduleStates::kDefaultBudget when 0).
  std::size_t stateBudget = 0;
};

/// Runs every Schedule check. location.transfer (the transfer id), location.rank and
/// location.step (the Schedule step) are set when a diagnostic is about a transfer, whose message
/// then says "transfer #id". Never throws.
ScheduleCheckResult checkSchedule(const Schedule& schedule,
                                  const ScheduleCheckOptions& options = {});

} // namespace cs
