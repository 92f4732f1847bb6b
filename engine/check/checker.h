#pragma once

// The checker: every pass of DESIGN.md §4 over a Program, for one target runtime (Dialect).
// Start here when adding a check: each pass is one file in engine/check with its own codes, and
// runPasses() in checker.cpp lists them in order.

#include "../model/dialect.h"
#include "../model/gpumodel.h"
#include "../model/program.h"
#include "model/diagnostic.h"

#include <optional>

namespace cs {

struct CheckOptions {
  DialectId dialect = DialectId::Executor;
  /// Messages a connection holds before a sender blocks (deadlock pass). Absent: what the
  /// runtime's connections hold, connectionSlots(program.proto) (model/fifodepth.h).
  std::optional<int> fifoSlots;
  /// Root rank for broadcast and reduce; inferred when unambiguous if absent.
  std::optional<int> root;
  /// Run the semantic passes (deadlock, race, postcondition). Off: only the static passes.
  bool semantic = true;
  /// On a large program, run the semantic passes on a second thread beside matching and
  /// dependencies. A caller that already runs the whole check beside other work turns it off:
  /// a third thread on a two-core machine slows everything down.
  bool semanticBeside = true;
  /// The GPU the program runs on (limit.residency). Absent: the check assumes the known GPU of
  /// the runtime's vendor that keeps the most blocks resident, and says so.
  std::optional<GpuModelId> gpu;
};

/// Runs every pass and returns the diagnostics, errors first within each pass's output order.
/// Never throws on any Program, however malformed (the reader's output on fuzzed input included).
std::vector<Diagnostic> checkProgram(const Program& program, const CheckOptions& options);

/// Only the residency pass (limit.residency*): whether each rank's threadblocks can be resident
/// at once on options.gpu. Generating a program asks just this; the full check of a 1,024-rank
/// program is a tenth of generating it.
std::vector<Diagnostic> checkResidencyOnly(const Program& program, const CheckOptions& options);

} // namespace cs

namespace cs {

/// Whether `target` loads the program: no error from the static passes (format, structure,
/// limits, residency on `gpu` as in CheckOptions, selection, matching, dependencies) for that
/// runtime other than the selection rules that let a file load but never choose it (judgeRuntime
/// in runtimeverdict.h says which). Deadlocks, races and wrong results are judged separately:
/// they do not depend on the runtime.
bool acceptedBy(const Program& program, DialectId target,
                std::optional<GpuModelId> gpu = std::nullopt);

} // namespace cs
