#pragma once

// `cstudio generate`'s path from a generated Schedule to the written file, timed phase by phase:
// the Schedule check beside the lowering, then the full Program check beside the writing of the
// MSCCL XML (to a sink that only counts, so the disk is not measured). Both the overlapped wall
// time (as generate runs it on two cores) and the sum of the phases (one core) are given.

#include "model/schedule.h"

namespace cs::bench {

struct PipelineTimes {
  double scheduleCheckMs = 0;
  double lowerMs = 0;
  double programCheckMs = 0;
  double writeMs = 0;
  double overlappedMs = 0; ///< wall time of both overlapped pairs, as generate runs them
  long long bytes = 0;     ///< XML written
  bool ok = false;         ///< lowered and checked without an error
  double sequentialMs() const { return scheduleCheckMs + lowerMs + programCheckMs + writeMs; }
};

PipelineTimes timeGeneratePipeline(const Schedule& schedule);

} // namespace cs::bench
