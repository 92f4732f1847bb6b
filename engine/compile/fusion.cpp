// Fusion candidates (msccl-format §8.3 step 2): a received value that the next access of its
// slot forwards to another rank becomes one rcs / rrcs / rrs instruction.

#include "lowerplan_p.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace cs::lowering {

namespace {

/// One buffer access, within the events of its slot (rank, memory, index).
struct Event {
  std::uint64_t order; ///< the operation's ordinal, then reads before writes
  int transfer;        ///< index into Plan::transfers
  bool sendRead;       ///< the read of a transfer's source by its sender
  bool copyWrite;      ///< a write that overwrites without reading (copy destination)
};

/// Every slot's accesses in key order: slot k's are events[bounds[k], bounds[k + 1]).
struct SlotEvents {
  std::vector<Event> events;
  std::vector<std::size_t> bounds;
};

/// Calls `emit(slot, event)` with every buffer access of the plan's transfers in `mode`.
template <typename Emit>
void forEachEvent(const Plan& plan, CallMode mode, const std::vector<std::uint32_t>& ordinal,
                  Emit&& emit)
{
  const auto order = [&](std::size_t i, int phase, int write) {
    return (std::uint64_t{ordinal[2 * i + static_cast<std::size_t>(phase)]} << 1) |
           static_cast<std::uint64_t>(write);
  };
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer& t = plan.transfers[i];
    const int index = static_cast<int>(i);
    for (int c = 0; c < t.count; ++c) {
      const MemorySlot src =
          memorySlot(plan.skeleton, t.src.rank, t.src.buffer, t.src.index + c, mode);
      const MemorySlot dst =
          memorySlot(plan.skeleton, t.dst.rank, t.dst.buffer, t.dst.index + c, mode);
      emit(t.src.rank, src, Event{order(i, 0, 0), index, !t.isLocal(), false});
      if (t.op == TransferOp::Reduce)
        emit(t.dst.rank, dst, Event{order(i, 1, 0), index, false, false});
      emit(t.dst.rank, dst, Event{order(i, 1, 1), index, false, t.op == TransferOp::Copy});
    }
  }
}

bool byOrder(const Event& a, const Event& b)
{
  return a.order < b.order;
}

/// The dense slot numbering (rank, memory, index) of a plan's events, when it is small enough.
struct SlotNumbering {
  std::size_t width = 0; ///< indices per memory
  std::size_t slots = 0; ///< 0: too sparse, sort instead
  std::size_t of(int rank, MemorySlot slot) const
  {
    return (static_cast<std::size_t>(rank) * kBufferCount + static_cast<std::size_t>(slot.memory)) *
               width +
           static_cast<std::size_t>(slot.index);
  }
  bool holds(int rank, MemorySlot slot) const
  {
    return rank >= 0 && slot.index >= 0 && static_cast<std::size_t>(slot.index) < width &&
           of(rank, slot) < slots;
  }
};

SlotNumbering numberSlots(const Plan& plan, CallMode mode)
{
  int maxRank = 0;
  int maxIndex = 0;
  bool negative = false;
  std::size_t count = 0;
  for (const Transfer& t : plan.transfers) {
    if (t.count <= 0)
      continue;
    // Aliasing shifts a buffer's indices by a constant, so a range's ends bound its slots.
    for (const ChunkRef& end : {t.src, t.dst}) {
      const MemorySlot first = memorySlot(plan.skeleton, end.rank, end.buffer, end.index, mode);
      const MemorySlot last =
          memorySlot(plan.skeleton, end.rank, end.buffer, end.index + t.count - 1, mode);
      maxRank = std::max(maxRank, end.rank);
      maxIndex = std::max({maxIndex, first.index, last.index});
      negative = negative || end.rank < 0 || first.index < 0 || last.index < 0;
    }
    count += static_cast<std::size_t>(t.count) * (t.op == TransferOp::Reduce ? 3 : 2);
  }
  SlotNumbering numbering;
  numbering.width = static_cast<std::size_t>(maxIndex) + 1;
  const std::size_t slots =
      (static_cast<std::size_t>(maxRank) + 1) * kBufferCount * numbering.width;
  if (!negative && slots <= 4 * count + (std::size_t{1} << 20))
    numbering.slots = slots;
  return numbering;
}

/// The events of sparse or unusual slots: one sort of everything by (slot, order).
SlotEvents sortEvents(const Plan& plan, CallMode mode, const std::vector<std::uint32_t>& ordinal)
{
  struct Placed {
    int rank;
    int memory;
    int index;
    Event event;
  };
  std::vector<Placed> placed;
  forEachEvent(plan, mode, ordinal, [&](int rank, MemorySlot slot, const Event& e) {
    placed.push_back({rank, static_cast<int>(slot.memory), slot.index, e});
  });
  std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return std::tie(a.rank, a.memory, a.index, a.event.order) <
           std::tie(b.rank, b.memory, b.index, b.event.order);
  });
  SlotEvents out;
  out.events.reserve(placed.size());
  for (std::size_t k = 0; k < placed.size(); ++k) {
    const Placed& p = placed[k];
    if (k == 0 || std::tie(p.rank, p.memory, p.index) !=
                      std::tie(placed[k - 1].rank, placed[k - 1].memory, placed[k - 1].index))
      out.bounds.push_back(k);
    out.events.push_back(p.event);
  }
  out.bounds.push_back(placed.size());
  return out;
}

// A million-transfer schedule made one global sort of its events the lowering's largest cost, so
// the events are placed by slot (a counting sort) and only the few events of each slot are sorted
// among themselves. Events are 16 bytes, their slot implied by where they lie: the five million
// events of a 1,024-rank ring are written twice per call mode, and their size was the cost.
SlotEvents buildEvents(const Plan& plan, CallMode mode, const std::vector<std::uint32_t>& ordinal)
{
  const SlotNumbering numbering = numberSlots(plan, mode);
  bool numbered = numbering.slots > 0;
  SlotEvents out;
  if (numbered) {
    out.bounds.assign(numbering.slots + 1, 0);
    forEachEvent(plan, mode, ordinal, [&](int rank, MemorySlot slot, const Event&) {
      numbered = numbered && numbering.holds(rank, slot);
      if (numbered)
        ++out.bounds[numbering.of(rank, slot) + 1];
    });
  }
  if (!numbered)
    return sortEvents(plan, mode, ordinal);
  std::vector<std::size_t>& bounds = out.bounds;
  for (std::size_t s = 1; s < bounds.size(); ++s)
    bounds[s] += bounds[s - 1];
  out.events.resize(bounds.back());
  // Placed from each slot's end backwards, which leaves bounds[s] at slot s's first event.
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s)
    bounds[s] = bounds[s + 1];
  forEachEvent(plan, mode, ordinal, [&](int rank, MemorySlot slot, const Event& e) {
    out.events[--bounds[numbering.of(rank, slot)]] = e;
  });
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s)
    if (bounds[s + 1] - bounds[s] > 1)
      std::sort(out.events.begin() + static_cast<std::ptrdiff_t>(bounds[s]),
                out.events.begin() + static_cast<std::ptrdiff_t>(bounds[s + 1]), byOrder);
  return out;
}

constexpr int kUnset = -2;
constexpr int kNone = -1;

// Per transfer: the transfer whose send reads every written slot next, or kNone; and whether
// that forward is followed on every slot by an overwrite (the value is then not needed).
void scanMode(const Plan& plan, CallMode mode, const std::vector<std::uint32_t>& ordinal,
              std::vector<int>& forward, std::vector<int>& overwritten)
{
  const SlotEvents slots = buildEvents(plan, mode, ordinal);
  const auto merge = [](int& into, int value) {
    if (into == kUnset)
      into = value;
    else if (into != value)
      into = kNone;
  };
  for (std::size_t s = 0; s + 1 < slots.bounds.size(); ++s) {
    const std::size_t last = slots.bounds[s + 1];
    for (std::size_t e = slots.bounds[s]; e < last; ++e) {
      const Event& ev = slots.events[e];
      const Event* next = e + 1 < last ? &slots.events[e + 1] : nullptr;
      const Transfer& t = plan.transfers[static_cast<std::size_t>(ev.transfer)];
      const bool write = (ev.order & 1) != 0;
      if (write && !t.isLocal())
        merge(forward[static_cast<std::size_t>(ev.transfer)],
              next && next->sendRead ? next->transfer : kNone);
      if (ev.sendRead) {
        const bool over = next && next->copyWrite && next->transfer != ev.transfer;
        merge(overwritten[static_cast<std::size_t>(ev.transfer)], over ? 1 : 0);
      }
    }
  }
}

} // namespace

void findFusions(Plan& plan)
{
  const std::size_t n = plan.transfers.size();
  std::vector<int> forward(n, kUnset);
  std::vector<int> overwritten(n, kUnset);
  const std::vector<std::uint32_t> ordinal = opOrdinals(plan);
  for (CallMode mode : plan.modes)
    scanMode(plan, mode, ordinal, forward, overwritten);

  plan.fusions.assign(n, {});
  plan.fusedFrom.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const int j = forward[i];
    if (j < 0)
      continue;
    const Transfer& t = plan.transfers[i];
    const Transfer& u = plan.transfers[static_cast<std::size_t>(j)];
    // The forward must send exactly the received range, later, to a third party or back.
    if (u.isLocal() || u.src.rank != t.dst.rank || u.src.buffer != t.dst.buffer ||
        u.src.index != t.dst.index || u.count != t.count || u.step <= t.step)
      continue;
    if (t.pins.channel && u.pins.channel && *t.pins.channel != *u.pins.channel)
      continue;
    if (plan.fusedFrom[static_cast<std::size_t>(j)] >= 0)
      continue;
    Fusion& f = plan.fusions[i];
    f.forward = j;
    // rrs stores nothing: only when the reduced value is overwritten before anyone reads it.
    f.valueNeeded = !(t.op == TransferOp::Reduce && overwritten[static_cast<std::size_t>(j)] == 1);
    f.enabled = true;
    plan.fusedFrom[static_cast<std::size_t>(j)] = static_cast<int>(i);
  }
}

} // namespace cs::lowering
