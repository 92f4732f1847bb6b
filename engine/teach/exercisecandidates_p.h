#pragma once

// The edits generateExercises() tries, per kind, in a fixed order that favours the places a
// teacher would pick: transfers between ranks in the middle step, rank 1 before the others (rank 0
// is often a root or a ring's start, where mistakes look special). Each list is bounded by
// `limit`; the generator measures each candidate and keeps the ones that break something.

#include "exercises.h"

#include <vector>

namespace cs::teach {

/// Remove-transfer and wrong-chunk edits of `schedule`.
std::vector<ExerciseEdit> transferCandidates(const Schedule& schedule, ExerciseKind kind,
                                             int limit);
/// Two sending instructions of one threadblock swapped (their dependency flags stay put).
std::vector<ExerciseEdit> swapCandidates(const Program& program, int limit);
/// One instruction's depid/deps removed.
std::vector<ExerciseEdit> dependencyCandidates(const Program& program, int limit);

} // namespace cs::teach
