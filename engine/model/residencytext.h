#pragma once

// The words of the residency limit (limit.residency), shared by the check that finds it in a
// Program and by `cstudio generate`, which refuses a design no lowering can fit before lowering
// it. Kept apart from gpumodel.h, which most of the engine includes, as only those two talk.

#include "dialect.h"
#include "gpumodel.h"

#include <string>
#include <string_view>

namespace cs {

/// "an H100 SXM", "a B200".
std::string gpuWithArticle(const GpuModel& model);

/// "148 of the NCCL executor runtime's blocks resident (148 SMs x 1: why)".
std::string residencyFigure(const GpuModel& model, DialectId dialect);

/// The subject of "… keeps at most N": the chosen model ("an H100 SXM"), or, when none was
/// chosen and the check assumed the vendor's most permissive one, "no GPU was chosen, and even a
/// B200, the known GPU of this vendor with the most SMs,".
std::string residencySubject(const GpuModel& model, bool chosen);

/// What follows the figure in both messages: why it matters …
inline constexpr std::string_view kResidencyHang =
    ": the runtime would hang waiting for blocks that never start";
/// … and the remedy both end with.
inline constexpr std::string_view kFewerPeers = "choose an algorithm with fewer peers per rank";

} // namespace cs
