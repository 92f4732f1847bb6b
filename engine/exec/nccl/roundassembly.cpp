#include "roundassembly_p.h"

#include <algorithm>
#include <tuple>

namespace cs::nccl {

namespace {

struct Temporary {
  int rank = 0;
  int cnt = 0;
  int birth = 0;
  int death = 0;
  std::int64_t* chunk = nullptr; ///< where the chosen offset goes
};

/// First fit over the temporaries alive at each birth: two share memory only when one is dead
/// (its last use in an earlier half round) before the other is written.
void placeTemporaries(int ranks, std::vector<Temporary>& temporaries, RoundSchedule& schedule)
{
  std::stable_sort(temporaries.begin(), temporaries.end(),
                   [](const Temporary& a, const Temporary& b) {
                     return std::tie(a.rank, a.birth) < std::tie(b.rank, b.birth);
                   });
  struct Live {
    std::int64_t offset;
    std::int64_t size;
    int death;
  };
  std::vector<std::vector<Live>> live(static_cast<std::size_t>(ranks));
  for (const Temporary& temporary : temporaries) {
    std::vector<Live>& alive = live[static_cast<std::size_t>(temporary.rank)];
    std::erase_if(alive, [&](const Live& l) { return l.death < temporary.birth; });
    std::sort(alive.begin(), alive.end(),
              [](const Live& a, const Live& b) { return a.offset < b.offset; });
    std::int64_t offset = 0;
    for (const Live& l : alive) {
      if (l.offset - offset >= temporary.cnt)
        break;
      offset = std::max(offset, l.offset + l.size);
    }
    alive.push_back({offset, temporary.cnt, temporary.death});
    *temporary.chunk = offset;
    std::int64_t& arena = schedule.temporaryChunks[static_cast<std::size_t>(temporary.rank)];
    arena = std::max(arena, offset + temporary.cnt);
  }
}

LocalOp localOp(const plan::PlannedStep& step, const DataRef& received, int tb, int position)
{
  LocalOp op;
  op.cnt = step.cnt;
  op.tb = tb;
  op.step = position;
  switch (step.type) {
  case OpType::Copy:
    op.kind = LocalKind::Copy;
    op.out = memoryRef(step.dst);
    op.a = memoryRef(step.src);
    break;
  case OpType::Reduce:
    op.kind = LocalKind::Reduce;
    op.out = memoryRef(step.dst);
    op.a = memoryRef(step.dst);
    op.b = memoryRef(step.src);
    break;
  case OpType::RecvReduceSend:
    op.kind = LocalKind::Reduce;
    op.out = received;
    op.a = received;
    op.b = memoryRef(step.src);
    break;
  default: // rrc, and rrcs, which forwards the sum from its temporary
    op.kind = LocalKind::Reduce;
    op.out = memoryRef(step.dst);
    if (step.type == OpType::RecvReduceCopySend)
      op.out2 = received;
    op.a = received;
    op.b = memoryRef(step.src);
    break;
  }
  return op;
}

/// Per plan threadblock and step, the temporary offsets of its receive and of its staged send
/// (-1: none), placed so that temporaries alive at once never share memory.
struct TemporaryOffsets {
  std::vector<std::vector<std::int64_t>> recv;
  std::vector<std::vector<std::int64_t>> stage;
};

TemporaryOffsets placeAllTemporaries(const plan::RunPlan& plan, RoundSchedule& schedule)
{
  TemporaryOffsets offsets;
  const std::size_t tbs = plan.threadblocks.size();
  offsets.recv.resize(tbs);
  offsets.stage.resize(tbs);
  std::vector<Temporary> temporaries;
  for (std::size_t t = 0; t < tbs; ++t) {
    const plan::PlannedThreadblock& tb = plan.threadblocks[t];
    offsets.recv[t].assign(tb.steps.size(), -1);
    offsets.stage[t].assign(tb.steps.size(), -1);
    for (std::size_t s = 0; s < tb.steps.size(); ++s) {
      const StepTimes& times = schedule.steps[t][s];
      const int cnt = tb.steps[s].cnt;
      if (receivesIntoTemporary(tb.steps[s].type))
        temporaries.push_back(
            {tb.rank, cnt, times.recv, std::max(times.local, times.send), &offsets.recv[t][s]});
      if (times.stage >= 0)
        temporaries.push_back({tb.rank, cnt, times.stage, times.send, &offsets.stage[t][s]});
    }
  }
  placeTemporaries(plan.ranks, temporaries, schedule);
  return offsets;
}

/// The operations of step `s` of `tb` in the rounds of its rank.
void addStepOps(const plan::PlannedThreadblock& tb, std::size_t s, const StepTimes& times,
                MessageIndices index, DataRef recvTemporary, DataRef stageTemporary,
                std::vector<RankRound>& rounds)
{
  const plan::PlannedStep& step = tb.steps[s];
  const int position = static_cast<int>(s);
  const bool viaTemporary = receivesIntoTemporary(step.type);
  const auto roundAt = [&](int time) -> RankRound& {
    return rounds[static_cast<std::size_t>(RoundSchedule::roundOf(time))];
  };
  if (times.recv >= 0) {
    roundAt(times.recv)
        .recvs.push_back({tb.recv, tb.chan, index.recv, step.cnt,
                          viaTemporary ? recvTemporary : memoryRef(step.dst), tb.tb, position});
  }
  if (times.stage >= 0) {
    const std::optional<plan::OperandRef> source = sendSourceInMemory(step);
    roundAt(times.stage)
        .locals.push_back({LocalKind::Copy,
                           stageTemporary,
                           std::nullopt,
                           memoryRef(*source),
                           {},
                           step.cnt,
                           tb.tb,
                           position});
  }
  if (times.local >= 0)
    roundAt(times.local).locals.push_back(localOp(step, recvTemporary, tb.tb, position));
  if (times.send >= 0) {
    DataRef data = recvTemporary;
    if (times.stage >= 0)
      data = stageTemporary;
    else if (!viaTemporary)
      data = memoryRef(*sendSourceInMemory(step));
    roundAt(times.send)
        .sends.push_back({tb.send, tb.chan, index.send, step.cnt, data, tb.tb, position});
  }
}

} // namespace

void assembleRounds(const plan::RunPlan& plan,
                    const std::vector<std::vector<MessageIndices>>& indices,
                    std::vector<ScheduledMessage> messages, RoundSchedule& schedule)
{
  schedule.temporaryChunks.assign(static_cast<std::size_t>(plan.ranks), 0);
  schedule.ranks.assign(static_cast<std::size_t>(plan.ranks),
                        std::vector<RankRound>(static_cast<std::size_t>(schedule.rounds)));
  // Temporaries first: the operations refer to their final offsets.
  const TemporaryOffsets offsets = placeAllTemporaries(plan, schedule);
  for (std::size_t t = 0; t < plan.threadblocks.size(); ++t) {
    const plan::PlannedThreadblock& tb = plan.threadblocks[t];
    for (std::size_t s = 0; s < tb.steps.size(); ++s) {
      addStepOps(tb, s, schedule.steps[t][s], indices[t][s],
                 DataRef{true, Buffer::Input, offsets.recv[t][s]},
                 DataRef{true, Buffer::Input, offsets.stage[t][s]},
                 schedule.ranks[static_cast<std::size_t>(tb.rank)]);
    }
  }
  for (std::vector<RankRound>& rounds : schedule.ranks) {
    for (RankRound& round : rounds) {
      const auto byMessage = [](const PeerOp& a, const PeerOp& b) {
        return std::tie(a.peer, a.chan, a.index) < std::tie(b.peer, b.chan, b.index);
      };
      std::sort(round.recvs.begin(), round.recvs.end(), byMessage);
      std::sort(round.sends.begin(), round.sends.end(), byMessage);
    }
  }
  for (ScheduledMessage& message : messages) {
    const int sender =
        plan.firstThreadblock[static_cast<std::size_t>(message.key.from)] + message.sendTb;
    message.round = RoundSchedule::roundOf(
        schedule.steps[static_cast<std::size_t>(sender)][static_cast<std::size_t>(message.sendStep)]
            .send);
  }
  schedule.messages = std::move(messages);
}

} // namespace cs::nccl
