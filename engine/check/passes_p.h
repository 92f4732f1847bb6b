#pragma once

// The individual passes behind checkProgram(). Internal to engine/check; the order in which
// checker.cpp runs them, and which codes each emits, is documented in docs/diagnostics.md.

#include "checker.h"

namespace cs::passes {

/// structure.*: ids, peers, channels, offsets, counts, connection uniqueness, step positions.
void checkStructure(const Program& program, const Dialect& dialect, Diagnostics& out);
/// limit.*: the target runtime's limits on steps, threadblocks, channels, peers, attributes.
void checkLimits(const Program& program, const Dialect& dialect, Diagnostics& out);
/// limit.residency, limit.residency-gpu: every threadblock of a rank co-resident on the GPU.
void checkResidency(const Program& program, const CheckOptions& options, Diagnostics& out);
/// format.missing-attribute for attributes the target runtime requires but the file lacks,
/// select.*: why the target runtime would never pick this algorithm.
void checkSelection(const Program& program, const Dialect& dialect, Diagnostics& out);
/// limit.scratch-size, limit.protocol: what loads but costs at run time (scratch reserved up
/// front, a protocol the runtime's build may lack).
void checkRunTimeCosts(const Program& program, const Dialect& dialect, Diagnostics& out);
/// match.*: every send has its receive on the peer, same channel, same order, same cnt.
void checkMatching(const Program& program, Diagnostics& out);
/// dep.*: dependency targets exist and are published, nop chains, cycles across tbs and ranks.
void checkDependencies(const Program& program, Diagnostics& out);
/// Whether checkDependencies would find every wait's target (no dep.target-missing), without
/// the rest of its work.
bool dependencyTargetsExist(const Program& program);
/// deadlock, race, race.*, postcondition, postcondition.*: abstract execution per declared mode.
void checkSemantics(const Program& program, const CheckOptions& options, Diagnostics& out);

} // namespace cs::passes
