#pragma once

// What one runtime does with a file, in the three states the runtimes themselves distinguish
// (issue 16 item 2): it refuses to load it (with the runtime's reason), it loads it but its size
// or mode rule never selects it (with the rule, and how a user can still reach it), or it selects
// it for a range of call sizes in some call modes. `cstudio info` prints it per dialect.

#include "../model/buffergeometry.h"
#include "../model/dialect.h"
#include "../model/gpumodel.h"
#include "../model/program.h"
#include "model/diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cs {

enum class RuntimeState : std::uint8_t {
  Refused,       ///< the loader refuses the file
  NeverSelected, ///< loaded, but no call size or mode satisfies its selection rule
  Selected,      ///< selected for `sizes` in `modes`
};

/// "does not load", "loads, never selected" or "loads and is selected".
std::string_view runtimeStateName(RuntimeState state);

struct RuntimeVerdict {
  DialectId dialect = DialectId::Executor;
  RuntimeState state = RuntimeState::Refused;
  /// Inclusive byte range of the size rule when selected; `second` is INT64_MAX when the runtime
  /// puts no upper bound (executor maxBytes="0").
  std::optional<std::pair<std::int64_t, std::int64_t>> sizes;
  std::vector<CallMode> modes; ///< the call modes that select it (empty unless selected)
  /// Why: the runtime's refusals, the rule that excludes every call, or the selection rule.
  std::vector<std::string> reasons;

  bool loads() const { return state != RuntimeState::Refused; }
};

/// The verdict of `target` on a program whose reader reported `readDiagnostics`: any read error
/// means no runtime loads the file (the reader stops or drops what the runtimes need). `gpu` as
/// in CheckOptions (residency).
RuntimeVerdict judgeRuntime(const Program& program, DialectId target,
                            std::span<const Diagnostic> readDiagnostics = {},
                            std::optional<GpuModelId> gpu = std::nullopt);

/// Whether a diagnostic code says "loads but is never selected" rather than "refused".
bool isSelectionOnlyCode(std::string_view code);

} // namespace cs
