#pragma once

// The NCCL executor's schedule: every phase of every MSCCL step is given a round, and each rank
// runs round after round as one grouped ncclSend/ncclRecv call followed by one local kernel.
// Grouped point-to-point calls only complete when the peer posts the matching call in its own
// group, so the two ends of every message must land in the same round on both ranks.
//
// Time is counted in half rounds: 2R is round R's group, 2R+1 its local kernel. The rounds follow
// MSCCL's semantics with unbounded connections (msccl-format.md §4.4, §4.5):
// - a threadblock runs its steps in order, and a step waits for every phase of the step before
//   it except a send: MSCCL copies a message into the connection and goes on, so a later receive
//   may share the send's group (that is what makes "send, then receive" exchanges run);
// - a receive completes in its group; whatever uses the received data (the reduction, a
//   forwarded send) comes after that group;
// - a dependency (depid, deps) waits until the first step at or after `deps` that publishes
//   (hasdep) has completed;
// - a step that overwrites the source of an earlier message waits until the message has left; only
//   where that closes a cycle (both ranks send a chunk and then receive into it) is the message
//   staged: a local copy made as soon as the data is ready, sent from the copy, like MSCCL's FIFO.
// When no order satisfies these rules the program waits in a cycle (or for a message nobody
// sends), i.e. it deadlocks under MSCCL as well; scheduleRounds() then reports the blocked
// positions instead of a schedule. The one difference from the runtime: connections hold any
// number of messages here, so a program that only deadlocks because a connection is full runs.
//
// No slicing loop: a step moves its cnt chunks (contiguous, cnt × chunkElements elements) as one
// message. Receive-reduce steps receive into a temporary of their rank; temporaries whose
// lifetimes do not overlap share memory.
//
// Where to start when changing it: scheduleRounds() in ncclrounds.cpp builds the graph of
// phases; RankRound is what the executor posts.

#include "exec/executor.h"
#include "exec/plan/runplan.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cs::nccl {

/// Where a phase reads or writes on its rank: chunks of one of its allocations (after aliasing),
/// or chunks of the rank's temporary arena.
struct DataRef {
  bool temporary = false;
  Buffer memory = Buffer::Input; ///< the allocation, when not temporary
  std::int64_t chunk = 0;        ///< first chunk in the allocation or the arena

  bool operator==(const DataRef&) const = default;
};

enum class LocalKind : std::uint8_t {
  Copy,   ///< out = a
  Reduce, ///< out = a ⊕ b, and out2 = the same when present
};

/// One element loop of a rank's local kernel.
struct LocalOp {
  LocalKind kind = LocalKind::Copy;
  DataRef out;
  std::optional<DataRef> out2;
  DataRef a;
  DataRef b;
  int cnt = 0; ///< chunks
  int tb = -1; ///< the MSCCL step it belongs to
  int step = -1;
};

/// One ncclSend or ncclRecv.
struct PeerOp {
  int peer = -1;
  int chan = 0;
  int index = 0; ///< the message's position on its connection
  int cnt = 0;   ///< chunks
  DataRef data;  ///< what a send reads, where a receive writes
  int tb = -1;
  int step = -1;
};

/// What one rank posts in one round: a group of receives and sends, then its local kernel.
/// Receives and sends are sorted by (peer, channel, index), so both ends of a rank pair post
/// their messages in the same order (NCCL matches a pair's calls by order).
struct RankRound {
  std::vector<PeerOp> recvs;
  std::vector<PeerOp> sends;
  std::vector<LocalOp> locals;

  bool hasGroup() const { return !recvs.empty() || !sends.empty(); }
  bool empty() const { return !hasGroup() && locals.empty(); }
};

/// The half rounds at which a step's phases happen (2R: round R's group, 2R+1: its local kernel);
/// -1 for a phase the step does not have.
struct StepTimes {
  int recv = -1;
  int local = -1; ///< the reduction or copy
  int stage = -1; ///< the staging copy of a send whose source is overwritten later
  int send = -1;  ///< -1 also for a send no receive matches (it is not posted)
  int start = 0;  ///< when the threadblock reaches the step (its dependency satisfied)
  int done = 0;   ///< when the threadblock may go on to its next step
};

/// One matched message: the k-th send on a connection and the k-th receive.
struct ScheduledMessage {
  ConnectionKey key;
  int index = 0;
  int sendTb = -1;
  int sendStep = -1;
  int recvTb = -1;
  int recvStep = -1;
  int round = -1;
};

struct RoundSchedule {
  int rounds = 0;
  std::vector<std::vector<RankRound>> ranks; ///< [rank][round]
  /// Per entry of RunPlan::threadblocks, per step.
  std::vector<std::vector<StepTimes>> steps;
  std::vector<ScheduledMessage> messages;
  std::vector<std::int64_t> temporaryChunks; ///< per rank, the size of its temporary arena
  int stagedSends = 0;
  int unmatchedSends = 0; ///< sends no receive takes: MSCCL leaves them in the connection

  /// The round whose group (even) or local kernel (odd) half round `time` is.
  static int roundOf(int time) { return time / 2; }
};

/// The rounds of `plan`, or nullopt: with `blocked` filled when the program deadlocks (one
/// position per blocked threadblock, as the CPU executor's watchdog would name them), or with
/// errors in `out` (exec.message-size: a send and its receive differ in cnt). Warnings about
/// unmatched sends go to `out` as well.
std::optional<RoundSchedule>
scheduleRounds(const plan::RunPlan& plan, std::vector<BlockedPosition>& blocked, Diagnostics& out);

} // namespace cs::nccl
