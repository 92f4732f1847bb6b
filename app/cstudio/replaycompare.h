#pragma once

// `cstudio replay FILE --trace A.json --compare B.json`: designed vs measured (or one version
// vs another) of the same program, step by step and link by link (engine/replay/comparison.h),
// the steps and links that lose the most time first.

#include "model/topology.h"
#include "replay/replayindex.h"

namespace cs::cli {

/// Prints the comparison of `first` with `second` (a table for people, or JSON); returns the
/// exit code (always Ok).
int printComparison(const replay::ReplayIndex& first, const replay::ReplayIndex& second,
                    const Topology* topology, bool json);

} // namespace cs::cli
