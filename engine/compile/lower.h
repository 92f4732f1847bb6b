#pragma once

// Lowering (DESIGN.md §3, msccl-format.md §8.3): Schedule -> Program for one runtime generation.
// Assigns threadblocks and channels within the runtimes' rules (one send and one receive peer per
// threadblock, unique (channel, peer) per direction, the dialect's threadblock and step limits:
// more threadblocks or channels rather than exceeding them; a transfer wider than the cnt limit
// becomes several messages), fuses receive-then-send chains into
// rcs / rrc / rrs / rrcs, orders and publishes dependencies from buffer hazards across
// threadblocks (extra ones on nops, hasdep on every target) and replicates instances.
// A rank with more threadblocks than the target GPU keeps resident (or the runtime launches) has
// them packed (tbpacking.cpp): a send-only and a receive-only threadblock on one channel become
// one, local copies join another, within the step limit; programs that fit are not packed.
// What it emits passes the whole checker whenever the Schedule itself is correct.

#include "../model/dialect.h"
#include "../model/gpumodel.h"
#include "../model/program.h"
#include "../model/schedule.h"
#include "model/diagnostic.h"

#include <optional>
#include <vector>

namespace cs {

struct LowerOptions {
  DialectId dialect = DialectId::Executor;
  Protocol protocol = Protocol::Simple;
  int instances = 1; ///< replicate the whole schedule, msccl-tools style (interleaved chunks)
  /// The GPU the program is for: the lowering packs a rank's threadblocks until they are all
  /// resident on it (absent: on the largest known GPU of the dialect's vendor, as the residency
  /// check assumes), and the checks after lowering judge residency for it (CheckOptions::gpu).
  /// Where packing cannot fit (a packed threadblock still has one peer per direction), the
  /// program is emitted as packed and limit.residency says how many fit.
  std::optional<GpuModelId> gpu;
};

/// Which transfer an instruction came from, so Program diagnostics map back to the timeline.
struct InstructionOrigin {
  int rank = 0;
  int tb = 0;
  int step = 0;
  int transferId = -1; ///< -1 for nops that only carry dependencies
  int instance = 0;
  bool operator==(const InstructionOrigin&) const = default;
};

struct LowerResult {
  std::optional<Program> program;         ///< absent when the Schedule cannot be lowered at all
  std::vector<Diagnostic> diagnostics;    ///< lower.* codes, located by transfer id
  std::vector<InstructionOrigin> origins; ///< one entry per emitted step

  /// The transfer an instruction came from, or -1.
  int transferAt(int rank, int tb, int step) const;
};

/// Lowers `schedule` for `options.dialect`. Never throws; malformed schedules give diagnostics.
LowerResult lowerSchedule(const Schedule& schedule, const LowerOptions& options);

/// The threadblocks per rank of one instance that the target GPU keeps resident and the runtime
/// launches: LowerOptions::gpu, else the largest known GPU of the dialect's vendor (the residency
/// check's assumption), divided among the instances.
int threadblockBudget(const LowerOptions& options);

/// The fewest threadblocks the busiest rank of `schedule` needs however it is lowered: one per
/// peer it sends to, and one per peer it receives from (a threadblock has one of each). Above
/// threadblockBudget, no lowering for those options fits the GPU.
int threadblocksNeeded(const Schedule& schedule);

} // namespace cs
