#pragma once

// What the NCCL executor's round scheduler (exec/nccl/ncclrounds_p.h) is tested with, on every
// machine: small hand-written programs, every rule a schedule promises, and a host execution of
// the rounds the way the executor posts them (every group's messages matched pair by pair in
// posting order, then the local operations).

#include "exec/executor.h"
#include "exec/nccl/ncclrounds_p.h"
#include "exec/plan/reference.h"

#include <QString>

#include <set>
#include <tuple>
#include <vector>

namespace cs::test {

/// Both ranks send i[0] and then receive the other's i[0] into it, then the same with i[1] into
/// scratch: i[0] is overwritten after it was sent, on both ranks at once.
cs::Program exchange();
/// Both ranks receive before they send: a wait cycle under MSCCL's semantics.
cs::Program bothReceiveFirst();
/// Rank 0 receives on tb 0 and forwards what it received on tb 1, which waits for tb 0's
/// publication; rank 1 sends from tb 0 and receives the forwarded chunk on tb 1.
cs::Program forwardWithDependency();

/// Options for `chunkElements` elements of `type` per chunk, a 5 s watchdog.
cs::ExecOptions smallRun(const cs::Program& program, std::int64_t chunkElements, cs::DataType type);
/// The run plan of `program` (qFatal when it cannot be planned).
cs::plan::RunPlan planOf(const cs::Program& program, const cs::ExecOptions& options);

/// Every rule ncclrounds_p.h promises, checked on a schedule; an empty string when all hold.
QString scheduleViolation(const cs::plan::RunPlan& plan, const cs::nccl::RoundSchedule& schedule);

/// Runs a schedule's rounds on the host memory of `state` the way the NCCL executor posts them:
/// per round, every send's data taken at the group, each pair's messages matched in posting
/// order, then each rank's local operations. Fails (with the reason in `problem`) when a group
/// receives into memory one of its own sends reads, or when two local operations of one kernel
/// touch the same memory with a write: those would be races on a GPU (the problem then starts
/// with "race:"; a program that races by itself shows them too).
bool emulateRounds(const cs::nccl::RoundSchedule& schedule, cs::plan::HostMemory& state,
                   cs::DataType type, cs::ReduceOp op, QString* problem);

/// Schedules `program`, emulates its rounds and verifies the result like a run.
cs::plan::Verification emulatedRun(const cs::Program& program, const cs::ExecOptions& options,
                                   QString* problem);

/// One row per corpus file: its path and MANIFEST.md's expected verdict ("path", "expected").
void addCorpusRows();

/// (rank, tb, step, what it waits for, peer) of each position, for comparisons.
std::set<std::tuple<int, int, int, int, int>>
positionsOf(const std::vector<cs::BlockedPosition>& all);

} // namespace cs::test
