#pragma once

// Private to engine/compile: the working state of one lowering run, shared by its stages
// (validation, fusion, threadblock assignment, dependency insertion, instances). Not installed
// and not included outside engine/compile.
//
// Every stage orders work by one total key per rank, (step, round, phase, transfer id): within a
// step, the k-th message of every connection forms round k, and in each round sends and local
// operations come before the receives. The threadblock order, the order of messages on every
// connection and the hazard analysis all use this same key, which is what keeps the emitted
// program free of dependency cycles and crossing send/receive orders. Rounds keep a connection
// that carries several messages in one step pipelined: each rank sends one message, then
// receives (and forwards) one, so a fused receive-and-forward ring never needs more than two
// messages of FIFO room. Sending all of a step's messages first fills the runtime's FIFO
// (about two Simple messages, msccl-format §4.5) before anyone receives, and such a ring
// deadlocks; instances (which split every transfer into single-chunk messages) hit exactly that.
// The order inside a step is free for a correct schedule: no slot is read and written in one step
// (schedule.race).

#include "../model/buffergeometry.h"
#include "../model/dialect.h"
#include "../model/program.h"
#include "../model/schedule.h"
#include "lower.h"
#include "model/diagnostic.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace cs::lowering {

/// Up to this many ranks, per-connection counts are kept in a ranks × ranks table (32 MB at most)
/// rather than a hash map.
inline constexpr std::size_t kDenseConnectionRanks = 2048;

/// The total order of operations on a rank.
struct OpKey {
  int step = 0;
  int round = 0; ///< ordinal of the transfer among its connection's transfers in this step
  int phase = 0; ///< 0: sends and local operations, 1: anything that receives
  int id = 0;    ///< transfer id
  auto operator<=>(const OpKey&) const = default;
};

/// A fusion candidate: transfer `forward` sends on exactly what `transfer` received, next.
struct Fusion {
  int forward = -1;        ///< index of the forwarding transfer, -1 when none
  bool valueNeeded = true; ///< false: the slot is overwritten before anyone reads it (rrs)
  bool enabled = false;    ///< still fused after channel, pin and order constraints
};

/// One instruction before emission.
struct Op {
  int rank = 0;
  OpKey key;
  OpType type = OpType::Nop;
  int transfer = -1; ///< the transfer (the received one for a fused op)
  int forward = -1;  ///< fused ops: the forwarded transfer
  int sendPeer = -1;
  int recvPeer = -1;
  int channel = 0;
  Buffer srcBuf = Buffer::Input;
  int srcOff = -1;
  Buffer dstBuf = Buffer::Output;
  int dstOff = -1;
  int cnt = 0;
  int tb = -1; ///< index into Plan::tbs
};

/// One threadblock being built.
struct TbPlan {
  int rank = 0;
  int id = -1;
  int sendPeer = -1;
  int recvPeer = -1;
  int channel = 0;
  std::vector<int> ops; ///< indices into Plan::ops, in key order
};

/// Everything the stages share.
struct Plan {
  Plan() = default;
  Plan(const Plan&) = delete; ///< `transfers` may point into the plan's own `sortedTransfers`
  Plan& operator=(const Plan&) = delete;
  Plan(Plan&&) = default;
  Plan& operator=(Plan&&) = default;

  const Schedule* schedule = nullptr;
  const Dialect* dialect = nullptr;
  /// Sorted by (step, id): the schedule's own when they already are (copying a 1,024-rank ring's
  /// two million transfers cost a tenth of its lowering), else `sortedTransfers`.
  std::span<const Transfer> transfers;
  std::vector<Transfer> sortedTransfers;
  std::vector<int> rounds;     ///< per transfer: its round within its step (OpKey::round)
  std::vector<Fusion> fusions; ///< per transfer
  std::vector<int> fusedFrom;  ///< per transfer: the transfer whose receive forwards it, or -1
  std::vector<int> channel;    ///< per transfer: the channel chosen
  std::vector<Op> ops;
  std::vector<int> opOrder; ///< indices into ops, by (rank-independent) key order (orderOps)
  std::vector<TbPlan> tbs;
  Program skeleton;            ///< algo and gpu attributes only, for buffer geometry
  std::vector<CallMode> modes; ///< the call modes whose aliasing hazards must be respected
};

/// lower.* diagnostics for a schedule that cannot be lowered; empty when it can.
std::vector<Diagnostic> validateSchedule(const Schedule& schedule, const Dialect& dialect);

/// The `<algo>` and `<gpu>` attributes (no threadblocks yet) and the declared call modes.
void buildSkeleton(Plan& plan);

/// Numbers the rounds of every step (Plan::rounds): the k-th transfer of a step on one (sender,
/// receiver) pair, in id order, is round k; local transfers are round 0.
void numberRounds(Plan& plan);

/// Fills Plan::opOrder: the ops in key order. The ops must have been built transfer by
/// transfer, in the order of Plan::transfers, a transfer's send before its receive.
void orderOps(Plan& plan);

/// The key of transfer `index`'s sending side (phase 0) or receiving side (phase 1; local
/// transfers are one operation, always phase 0).
OpKey opKey(const Plan& plan, std::size_t index, int phase);

/// The position of every operation in key order without building the operations: entry
/// 2 * index + phase for transfer `index` (a local transfer's two entries are equal, as its
/// keys are). Ordinals compare as the keys do.
std::vector<std::uint32_t> opOrdinals(const Plan& plan);

/// Finds, for every transfer between ranks, the transfer that forwards what it received
/// (msccl-format §8.3 step 2). All candidates start enabled.
void findFusions(Plan& plan);

/// Chooses channels (round-robin over `channels` for unpinned fusion chains), groups operations
/// into threadblocks honouring pins, disables fusions that would break a threadblock's single
/// send and receive peer or the message order on a connection, and orders each threadblock.
/// `localCap` bounds the operations of a threadblock that only holds local copies.
/// Returns lower.pin-conflict diagnostics when the pins themselves contradict each other.
std::vector<Diagnostic> assignThreadblocks(Plan& plan, int channels, int localCap);

/// Inserts dependencies from buffer hazards and emits the Program's threadblocks and the origin
/// of every step (instance 0).
struct Emitted {
  std::vector<Gpu> gpus;
  std::vector<InstructionOrigin> origins;
};
Emitted emitProgram(const Plan& plan);

/// When a rank of `emitted` has more than `budget` threadblocks, packs the plan's threadblocks
/// (tbpacking.cpp: a send-only and a receive-only one on a channel become one, local copies join
/// another) and emits again, keeping the result only within the dialect's step limit.
void fitResidency(Plan& plan, int budget, Emitted& emitted);

/// Splits every transfer of more than `limit` chunks into pieces of at most `limit` chunks:
/// single chunks for instances (which interleave chunks, so only one-chunk ranges stay
/// contiguous), the runtime's cnt limit otherwise. `originalId` maps every transfer id to the id
/// it was split from. New ids are given piece by piece (all second pieces, then all third
/// pieces, …) so that rounds interleave the pieces.
Schedule splitIntoPieces(const Schedule& schedule, int limit,
                         std::unordered_map<int, int>& originalId);

/// Replicates `program` `instances` times, msccl-tools style: threadblock t of instance i gets id
/// t·I+i, channel C·i+chan, chunk x becomes x·I+i. `origins` is replicated alongside.
Program replicateInstances(const Program& program, int instances,
                           std::vector<InstructionOrigin>& origins);

} // namespace cs::lowering
