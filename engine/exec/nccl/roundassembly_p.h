#pragma once

// The second half of the NCCL round scheduler (ncclrounds.cpp finds when each phase of each step
// runs): turning those times into rounds of grouped sends and receives and local operations,
// with the temporaries that receive-reduce steps and staged sends need placed in a per-rank arena.

#include "ncclrounds_p.h"

#include <optional>
#include <vector>

namespace cs::nccl {

/// Receive-reduce steps receive into a temporary and combine it with their local operand.
inline bool receivesIntoTemporary(OpType type)
{
  return type == OpType::RecvReduceSend || type == OpType::RecvReduceCopy ||
         type == OpType::RecvReduceCopySend;
}

/// The memory a send reads when it is not staged (rrs and rrcs send their temporary).
inline std::optional<plan::OperandRef> sendSourceInMemory(const plan::PlannedStep& step)
{
  if (step.type == OpType::Send)
    return step.src;
  if (step.type == OpType::RecvCopySend)
    return step.dst;
  return std::nullopt;
}

/// The memory a step writes, if any (receive-reduce temporaries are private).
inline std::optional<plan::OperandRef> writtenMemory(const plan::PlannedStep& step)
{
  return opTraits(step.type).writesDst ? std::optional<plan::OperandRef>(step.dst) : std::nullopt;
}

inline DataRef memoryRef(const plan::OperandRef& ref)
{
  return {false, ref.memory, ref.index};
}

/// Where a step's messages are in its connections' order (-1: none).
struct MessageIndices {
  int recv = -1;
  int send = -1;
};

/// Fills schedule.ranks (the operations of every round), schedule.temporaryChunks and the round
/// of every message, from the phase times in schedule.steps (schedule.rounds already set).
void assembleRounds(const plan::RunPlan& plan,
                    const std::vector<std::vector<MessageIndices>>& indices,
                    std::vector<ScheduledMessage> messages, RoundSchedule& schedule);

} // namespace cs::nccl
