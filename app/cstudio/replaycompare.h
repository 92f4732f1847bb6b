#pragma once

// `cstudio replay FILE --trace A.json --compare B.json`: designed vs measured (or one version
// vs another) of the same program, step by step and link by link (engine/replay/comparison.h),
// the steps and links that lose the most time first. With `--calibration C --compare B.json`
// the first run is the simulation calibrated by C (engine/replay/designedrun.h).

#include "model/topology.h"
#include "replay/replayindex.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cs::cli {

/// The designed run of `program`: its simulation on `topology` at `bytes`, calibrated by
/// `calibration` (a library name or a file; see calibrationinput.h). nullopt after printing why
/// not (no topology, a calibration that cannot be read or does not fit, a failed simulation).
std::optional<replay::ReplayIndex> designedIndex(const Program& program, const Topology* topology,
                                                 std::int64_t bytes, const std::string& calibration,
                                                 const std::string& library);

/// Prints the comparison of `first` with `second` (a table for people, or JSON); returns the
/// exit code (always Ok).
int printComparison(const replay::ReplayIndex& first, const replay::ReplayIndex& second,
                    const Topology* topology, bool json);

} // namespace cs::cli
