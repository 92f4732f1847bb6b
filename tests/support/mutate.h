#pragma once

// Small edits on a Program for the "broken variant" tests: each check must report its code on a
// program that differs from a correct one by exactly one such edit.

#include "model/program.h"

namespace cs::test {

/// A step with every field given (s is left 0: renumberSteps() or the caller sets it).
Step makeStep(OpType type, Buffer srcBuf, int srcOff, Buffer dstBuf, int dstOff, int cnt = 1,
              int depid = -1, int deps = -1, bool hasdep = false);

/// The threadblock with `tbId` on `rank`; fails the test (and returns a dummy) if absent.
ThreadBlock& threadblockAt(Program& program, int rank, int tbId);
/// Step `position` of that threadblock.
Step& stepAt(Program& program, int rank, int tbId, int position);
/// Removes a step and renumbers `s` of the following steps so positions stay consistent.
void eraseStep(Program& program, int rank, int tbId, int position);
/// Inserts a step before `position` (or at the end) and renumbers `s`.
void insertStep(Program& program, int rank, int tbId, int position, Step step);
/// Swaps two steps of a threadblock and renumbers `s`.
void swapSteps(Program& program, int rank, int tbId, int a, int b);
/// Sets `s` to the position of every step of every threadblock.
void renumberSteps(Program& program);

} // namespace cs::test
