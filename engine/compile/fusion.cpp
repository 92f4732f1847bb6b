// Fusion candidates (msccl-format §8.3 step 2): a received value that the next access of its
// slot forwards to another rank becomes one rcs / rrcs / rrs instruction.

#include "lowerplan_p.h"

#include <algorithm>

namespace cs::lowering {

namespace {

enum class Access : int { Read = 0, Write = 1 };

struct Event {
  int rank;
  int memory;
  int index;
  OpKey key;
  int access;     ///< Access: reads of one operation sort before its writes
  int transfer;   ///< index into Plan::transfers
  bool sendRead;  ///< the read of a transfer's source by its sender
  bool copyWrite; ///< a write that overwrites without reading (copy destination)

  auto order() const { return std::tie(rank, memory, index, key, access); }
};

/// Calls `emit` with every buffer access of the plan's transfers in `mode`, transfer by transfer.
template <typename Emit> void forEachEvent(const Plan& plan, CallMode mode, Emit&& emit)
{
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer& t = plan.transfers[i];
    const int index = static_cast<int>(i);
    for (int c = 0; c < t.count; ++c) {
      const MemorySlot src =
          memorySlot(plan.skeleton, t.src.rank, t.src.buffer, t.src.index + c, mode);
      const MemorySlot dst =
          memorySlot(plan.skeleton, t.dst.rank, t.dst.buffer, t.dst.index + c, mode);
      emit(Event{t.src.rank, static_cast<int>(src.memory), src.index, opKey(plan, i, 0),
                 static_cast<int>(Access::Read), index, !t.isLocal(), false});
      if (t.op == TransferOp::Reduce) {
        emit(Event{t.dst.rank, static_cast<int>(dst.memory), dst.index, opKey(plan, i, 1),
                   static_cast<int>(Access::Read), index, false, false});
      }
      emit(Event{t.dst.rank, static_cast<int>(dst.memory), dst.index, opKey(plan, i, 1),
                 static_cast<int>(Access::Write), index, false, t.op == TransferOp::Copy});
    }
  }
}

bool byOrder(const Event& a, const Event& b)
{
  return a.order() < b.order();
}

/// The dense slot numbering (rank, memory, index) of a plan's events, when it is small enough.
struct SlotNumbering {
  std::size_t width = 0; ///< indices per memory
  std::size_t slots = 0; ///< 0: too sparse, sort instead
  std::size_t of(const Event& e) const
  {
    return (static_cast<std::size_t>(e.rank) * kBufferCount + static_cast<std::size_t>(e.memory)) *
               width +
           static_cast<std::size_t>(e.index);
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

// The events sorted by Event::order(). A million-transfer schedule made one global sort of its
// events the lowering's largest cost, so the events are placed by slot (a counting sort) and only
// the few events of each slot are sorted among themselves.
std::vector<Event> buildEvents(const Plan& plan, CallMode mode)
{
  const SlotNumbering numbering = numberSlots(plan, mode);
  std::vector<std::size_t> start(numbering.slots + 1, 0);
  bool numbered = numbering.slots > 0;
  if (numbered)
    forEachEvent(plan, mode, [&](const Event& e) {
      const std::size_t slot = numbering.of(e);
      numbered = numbered && e.rank >= 0 && e.index >= 0 &&
                 static_cast<std::size_t>(e.index) < numbering.width && slot < numbering.slots;
      if (numbered)
        ++start[slot + 1];
    });
  std::vector<Event> events;
  if (!numbered) {
    forEachEvent(plan, mode, [&](const Event& e) { events.push_back(e); });
    std::sort(events.begin(), events.end(), byOrder);
    return events;
  }
  for (std::size_t s = 1; s < start.size(); ++s)
    start[s] += start[s - 1];
  events.resize(start.back());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  forEachEvent(plan, mode, [&](const Event& e) { events[next[numbering.of(e)]++] = e; });
  for (std::size_t s = 0; s < numbering.slots; ++s)
    if (start[s + 1] - start[s] > 1)
      std::sort(events.begin() + static_cast<std::ptrdiff_t>(start[s]),
                events.begin() + static_cast<std::ptrdiff_t>(start[s + 1]), byOrder);
  return events;
}

bool sameSlot(const Event& a, const Event& b)
{
  return a.rank == b.rank && a.memory == b.memory && a.index == b.index;
}

constexpr int kUnset = -2;
constexpr int kNone = -1;

// Per transfer: the transfer whose send reads every written slot next, or kNone; and whether
// that forward is followed on every slot by an overwrite (the value is then not needed).
void scanMode(const Plan& plan, CallMode mode, std::vector<int>& forward,
              std::vector<int>& overwritten)
{
  const std::vector<Event> events = buildEvents(plan, mode);
  const auto merge = [](int& into, int value) {
    if (into == kUnset)
      into = value;
    else if (into != value)
      into = kNone;
  };
  for (std::size_t e = 0; e < events.size(); ++e) {
    const Event& ev = events[e];
    const Transfer& t = plan.transfers[static_cast<std::size_t>(ev.transfer)];
    if (ev.access == static_cast<int>(Access::Write) && !t.isLocal()) {
      int next = kNone;
      if (e + 1 < events.size() && sameSlot(ev, events[e + 1]) && events[e + 1].sendRead)
        next = events[e + 1].transfer;
      merge(forward[static_cast<std::size_t>(ev.transfer)], next);
    }
    if (ev.sendRead) {
      const bool over = e + 1 < events.size() && sameSlot(ev, events[e + 1]) &&
                        events[e + 1].copyWrite && events[e + 1].transfer != ev.transfer;
      merge(overwritten[static_cast<std::size_t>(ev.transfer)], over ? 1 : 0);
    }
  }
}

} // namespace

void findFusions(Plan& plan)
{
  const std::size_t n = plan.transfers.size();
  std::vector<int> forward(n, kUnset);
  std::vector<int> overwritten(n, kUnset);
  for (CallMode mode : plan.modes)
    scanMode(plan, mode, forward, overwritten);

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
