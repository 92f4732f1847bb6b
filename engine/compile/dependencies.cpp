// Dependency insertion and emission (msccl-format §3 nop rules, §4.4, §8.3 step 5): every
// buffer hazard between threadblocks of a rank becomes a depid/deps, one per step, the extra ones
// on preceding nops, and every target publishes its position (hasdep=1).

#include "lowerplan_p.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace cs::lowering {

namespace {

struct SlotState {
  int lastWriter = -1;
  std::vector<int> readers; ///< since the last write
};

/// The state of each memory slot of one rank in one call mode: flat arrays by allocation and
/// chunk (a hash node per chunk was most of the allocations of lowering 1,024 ranks), cleared
/// slot by slot between ranks so that the readers' storage is reused.
class SlotTable
{
public:
  SlotState& operator[](MemorySlot slot)
  {
    std::vector<SlotState>& slots = m_slots[static_cast<std::size_t>(slot.memory)];
    if (slot.index < 0 || slot.index >= kDenseLimit)
      return m_sparse[slot];
    const auto index = static_cast<std::size_t>(slot.index);
    if (index >= slots.size())
      slots.resize(index + 1);
    SlotState& state = slots[index];
    if (state.lastWriter == -1 && state.readers.empty())
      m_touched.push_back(slot);
    return state;
  }
  void clear()
  {
    for (const MemorySlot slot : m_touched) {
      SlotState& state =
          m_slots[static_cast<std::size_t>(slot.memory)][static_cast<std::size_t>(slot.index)];
      state.lastWriter = -1;
      state.readers.clear();
    }
    m_touched.clear();
    m_sparse.clear();
  }

private:
  static constexpr int kDenseLimit = 1 << 24;
  struct SlotHash {
    std::size_t operator()(MemorySlot slot) const
    {
      return std::hash<std::int64_t>()((static_cast<std::int64_t>(slot.memory) << 32) ^
                                       static_cast<std::uint32_t>(slot.index));
    }
  };
  std::array<std::vector<SlotState>, kBufferCount> m_slots;
  std::vector<MemorySlot> m_touched; ///< slots that may hold state, cleared by clear()
  std::unordered_map<MemorySlot, SlotState, SlotHash> m_sparse;
};

struct Range {
  Buffer buffer;
  int offset;
  int count;
};

// The ranges an op reads and writes, as the runtime executes it.
void accesses(const Op& op, std::vector<Range>& reads, std::vector<Range>& writes)
{
  reads.clear();
  writes.clear();
  const OpTraits traits = opTraits(op.type);
  if (traits.readsSrc)
    reads.push_back({op.srcBuf, op.srcOff, op.cnt});
  if (traits.readsDst)
    reads.push_back({op.dstBuf, op.dstOff, op.cnt});
  if (traits.writesDst)
    writes.push_back({op.dstBuf, op.dstOff, op.cnt});
}

// For every op, the ops of other threadblocks on its rank that it must wait for (the latest per
// threadblock), from read-after-write, write-after-read and write-after-write hazards in every
// declared call mode.
std::vector<std::map<int, int>> hazards(const Plan& plan, const std::vector<int>& positionInTb)
{
  std::vector<std::vector<int>> perRank(static_cast<std::size_t>(plan.schedule->ranks));
  for (int i : plan.opOrder) // each rank's ops in key order
    perRank[static_cast<std::size_t>(plan.ops[static_cast<std::size_t>(i)].rank)].push_back(i);

  std::vector<std::map<int, int>> waits(plan.ops.size()); // target tb → target op
  std::vector<Range> reads;
  std::vector<Range> writes;
  SlotTable slots;
  for (const auto& ops : perRank) {
    for (CallMode mode : plan.modes) {
      slots.clear();
      for (int index : ops) {
        const Op& op = plan.ops[static_cast<std::size_t>(index)];
        auto& wait = waits[static_cast<std::size_t>(index)];
        const auto need = [&](int other) {
          if (other < 0)
            return;
          const Op& target = plan.ops[static_cast<std::size_t>(other)];
          if (target.tb == op.tb)
            return;
          int& latest = wait.try_emplace(target.tb, other).first->second;
          if (positionInTb[static_cast<std::size_t>(other)] >
              positionInTb[static_cast<std::size_t>(latest)])
            latest = other;
        };
        const auto slotKey = [&](Buffer buffer, int chunk) {
          return memorySlot(plan.skeleton, op.rank, buffer, chunk, mode);
        };
        accesses(op, reads, writes);
        for (const Range& r : reads)
          for (int c = 0; c < r.count; ++c)
            need(slots[slotKey(r.buffer, r.offset + c)].lastWriter);
        for (const Range& w : writes) {
          for (int c = 0; c < w.count; ++c) {
            const SlotState& s = slots[slotKey(w.buffer, w.offset + c)];
            need(s.lastWriter);
            for (int reader : s.readers)
              need(reader);
          }
        }
        for (const Range& r : reads)
          for (int c = 0; c < r.count; ++c)
            slots[slotKey(r.buffer, r.offset + c)].readers.push_back(index);
        for (const Range& w : writes) {
          for (int c = 0; c < w.count; ++c) {
            SlotState& s = slots[slotKey(w.buffer, w.offset + c)];
            s.lastWriter = index;
            s.readers.clear();
          }
        }
      }
    }
  }
  return waits;
}

Step nopStep()
{
  Step step;
  step.type = OpType::Nop;
  step.srcBuf = Buffer::Input;
  step.srcOff = -1;
  step.dstBuf = Buffer::Output;
  step.dstOff = -1;
  step.cnt = 0;
  return step;
}

/// The waits each op keeps and the step it lands on in its threadblock.
struct Waits {
  std::vector<std::vector<int>> depsOf; ///< by op: the ops it waits for, the first on itself
  std::vector<int> stepOf;              ///< by op: its step index, nops before it counted
};

Waits placeWaits(const Plan& plan)
{
  std::vector<int> positionInTb(plan.ops.size(), 0);
  for (const TbPlan& tb : plan.tbs)
    for (std::size_t k = 0; k < tb.ops.size(); ++k)
      positionInTb[static_cast<std::size_t>(tb.ops[k])] = static_cast<int>(k);
  const std::vector<std::map<int, int>> waits = hazards(plan, positionInTb);

  // Drop waits an earlier step of the same threadblock already made, then count nops.
  Waits out{std::vector<std::vector<int>>(plan.ops.size()), std::vector<int>(plan.ops.size(), 0)};
  for (const TbPlan& tb : plan.tbs) {
    std::map<int, int> waited; // target tb → highest position waited for
    int position = 0;
    for (int index : tb.ops) {
      auto& deps = out.depsOf[static_cast<std::size_t>(index)];
      for (const auto& [targetTb, target] : waits[static_cast<std::size_t>(index)]) {
        const int pos = positionInTb[static_cast<std::size_t>(target)];
        const auto found = waited.find(targetTb);
        if (found != waited.end() && found->second >= pos)
          continue;
        waited[targetTb] = pos;
        deps.push_back(target);
      }
      position += std::max(0, static_cast<int>(deps.size()) - 1);
      out.stepOf[static_cast<std::size_t>(index)] = position++;
    }
  }
  return out;
}

/// The steps of plan threadblock `t` (id `id` on rank `rank`), with a nop before a step for each
/// wait beyond its first; appends their origins.
ThreadBlock emitThreadBlock(const Plan& plan, const Waits& waits, std::size_t t, int id, int rank,
                            std::vector<InstructionOrigin>& origins)
{
  const TbPlan& plannedTb = plan.tbs[t];
  ThreadBlock tb;
  tb.id = id;
  tb.send = plannedTb.sendPeer;
  tb.recv = plannedTb.recvPeer;
  tb.chan = plannedTb.channel;
  const auto setDep = [&](Step& step, int target) {
    step.depid =
        plan.tbs[static_cast<std::size_t>(plan.ops[static_cast<std::size_t>(target)].tb)].id;
    step.deps = waits.stepOf[static_cast<std::size_t>(target)];
  };
  for (int index : plannedTb.ops) {
    const Op& op = plan.ops[static_cast<std::size_t>(index)];
    const auto& deps = waits.depsOf[static_cast<std::size_t>(index)];
    for (std::size_t d = 1; d < deps.size(); ++d) {
      Step nop = nopStep();
      nop.s = static_cast<int>(tb.steps.size());
      setDep(nop, deps[d]);
      tb.steps.push_back(nop);
      origins.push_back({rank, id, nop.s, -1, 0});
    }
    Step step;
    step.s = static_cast<int>(tb.steps.size());
    step.type = op.type;
    step.srcBuf = op.srcBuf;
    step.srcOff = op.srcOff;
    step.dstBuf = op.dstBuf;
    step.dstOff = op.dstOff;
    step.cnt = op.cnt;
    if (!deps.empty())
      setDep(step, deps.front());
    tb.steps.push_back(step);
    origins.push_back(
        {rank, id, step.s, plan.transfers[static_cast<std::size_t>(op.transfer)].id, 0});
  }
  return tb;
}

} // namespace

Emitted emitProgram(const Plan& plan)
{
  const Waits waits = placeWaits(plan);
  Emitted out;
  out.gpus = plan.skeleton.gpus;
  std::vector<std::vector<std::pair<int, std::size_t>>> order(out.gpus.size()); // (id, tb index)
  for (std::size_t t = 0; t < plan.tbs.size(); ++t)
    order[static_cast<std::size_t>(plan.tbs[t].rank)].emplace_back(plan.tbs[t].id, t);

  // Where each plan tb lands, so hasdep can be set on targets after all steps exist.
  std::vector<std::pair<std::size_t, std::size_t>> placed(plan.tbs.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    std::sort(order[r].begin(), order[r].end());
    for (const auto& [id, t] : order[r]) {
      placed[t] = {r, out.gpus[r].threadblocks.size()};
      out.gpus[r].threadblocks.push_back(
          emitThreadBlock(plan, waits, t, id, static_cast<int>(r), out.origins));
    }
  }
  for (std::size_t i = 0; i < plan.ops.size(); ++i) {
    for (int target : waits.depsOf[i]) {
      const auto [r, k] =
          placed[static_cast<std::size_t>(plan.ops[static_cast<std::size_t>(target)].tb)];
      out.gpus[r]
          .threadblocks[k]
          .steps[static_cast<std::size_t>(waits.stepOf[static_cast<std::size_t>(target)])]
          .hasdep = true;
    }
  }
  return out;
}

} // namespace cs::lowering
