#pragma once

// A fault in a generated or scaled-up algorithm repeats on every rank: a 1,024-rank program with
// one wrong rule gives thousands of diagnostics that say the same thing about different places.
// People read them grouped ("… and 1,021 more like it on ranks 3-1023"); machines (--json) still
// get every one.

#include "diagnostic.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cs {

/// Diagnostics that say the same thing: same severity and code, and the same message once every
/// run of digits in it is set aside.
struct DiagnosticGroup {
  std::vector<std::size_t> members; ///< indices into the list, in order; the first stands for all
};

/// The groups of `diagnostics`, ordered by where each group first appears; every diagnostic is in
/// exactly one group.
std::vector<DiagnosticGroup> groupRepeatedDiagnostics(const std::vector<Diagnostic>& diagnostics);

/// "3", "0-1023", "0, 2, 4-7": sorted, duplicates dropped, runs of consecutive values joined.
std::string describeRanges(std::vector<int> values);

/// The ranks the members from `from` on point at, as "rank 5" or "ranks 3-1023"; empty when none
/// of them names a rank.
std::string describeGroupRanks(const std::vector<Diagnostic>& diagnostics,
                               const DiagnosticGroup& group, std::size_t from = 0);

} // namespace cs
