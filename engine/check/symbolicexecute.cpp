#include "symbolicstate_p.h"

#include <cstring>

namespace cs {

using namespace symbolic;

void SymbolicRun::State::enqueue(int g)
{
  if (queued[at(g)] || pc[at(g)] >= tbs[at(g)].stepCount)
    return;
  queued[at(g)] = 1;
  queue[qTail] = g;
  qTail = (qTail + 1) % queue.size();
}

int SymbolicRun::State::snapshot(const Clock* row)
{
  const std::size_t n = clockStride;
  int index = 0;
  if (!freeSnapshots.empty()) {
    index = freeSnapshots.back();
    freeSnapshots.pop_back();
  } else {
    index = static_cast<int>(pool.size() / std::max<std::size_t>(n, 1));
    pool.resize(pool.size() + n);
  }
  std::memcpy(pool.data() + at(index) * n, row, n * sizeof(Clock));
  return index;
}

void SymbolicRun::State::join(Clock* row, int snapshotIndex)
{
  joinClocks(row, pool.data() + at(snapshotIndex) * clockStride, clockStride);
}

void SymbolicRun::State::release(int snapshotIndex)
{
  freeSnapshots.push_back(snapshotIndex);
}

SymbolicRun::Outcome SymbolicRun::State::execute()
{
  for (int g = 0; g < tbCount; ++g)
    enqueue(g);
  while (qHead != qTail) {
    const int g = queue[qHead];
    qHead = (qHead + 1) % queue.size();
    queued[at(g)] = 0;
    while (pc[at(g)] < tbs[at(g)].stepCount && tryStep(g)) {
      if (store->overflowed())
        return Outcome::Abandoned;
    }
  }
  if (races && !raceClocks && reach.exhausted())
    raceRefusal = "race detection stopped early: the program has so many accesses by "
                  "threadblocks without a happens-before order between them that searching for "
                  "one took more than " +
                  std::to_string(ReachOrder::kWorkCap) + " steps; the races listed are real";
  for (int g = 0; g < tbCount; ++g) {
    if (pc[at(g)] < tbs[at(g)].stepCount)
      return Outcome::Deadlocked;
  }
  return Outcome::Completed;
}

void SymbolicRun::State::advanceClock(int g, int pos, const StepRec& rec, const Message* message)
{
  // The step happens after the publish that released it and the send it receives.
  Clock* row = clockRow(g);
  if (rec.depTarget >= 0 && rec.depTarget != g && rec.satisfyPos >= 0) {
    StepRec& published = steps[at(tbs[at(rec.depTarget)].stepBegin + rec.satisfyPos)];
    if (published.snapshot >= 0) {
      join(row, published.snapshot);
      if (--published.snapshotRefs == 0) {
        release(published.snapshot);
        published.snapshot = -1;
      }
    }
  }
  if (message && message->clock >= 0)
    join(row, message->clock);
  row[at(g)] = pos + 1;
}

bool SymbolicRun::State::tryStep(int g)
{
  const TbRec& tb = tbs[at(g)];
  const int pos = pc[at(g)];
  StepRec& rec = steps[at(tb.stepBegin + pos)];
  const Step& step = tb.tb->steps[at(pos)];

  if (rec.depTarget == kMissingTarget)
    return false;
  if (rec.depTarget >= 0 && flag[at(rec.depTarget)] < step.deps) {
    depWaiters[at(rec.depTarget)].push_back(g);
    return false;
  }
  Conn* in = nullptr;
  Conn* out = nullptr;
  if (rec.traits.receives) {
    if (tb.recvConn < 0)
      return false;
    in = &conns[at(tb.recvConn)];
    if (in->held() == 0)
      return false;
  }
  if (rec.traits.sends) {
    if (tb.sendConn < 0)
      return false;
    out = &conns[at(tb.sendConn)];
    if (options.fifoSlots > 0 && out->held() >= static_cast<std::size_t>(options.fifoSlots))
      return false;
  }

  const Message* message = in ? &in->queue[in->head] : nullptr;
  if (raceClocks) {
    advanceClock(g, pos, rec, message);
  } else if (races) {
    if (message)
      reach.messageFrom[at(tb.stepBegin + pos)] = message->from;
    reach.setCurrent(g, pos);
  }

  const std::size_t valuesAt = planes.empty() ? 0 : planes.front().messageValues.size();
  for (Plane& plane : planes)
    apply(plane, g, pos, step, rec, message);

  if (in) {
    if (message->clock >= 0)
      release(message->clock);
    if (++in->head == in->queue.size()) {
      in->queue.clear();
      in->head = 0;
    }
    for (int sender : in->senders)
      enqueue(sender);
  }
  if (out) {
    Message sent;
    sent.clock = raceClocks ? snapshot(clockRow(g)) : -1;
    sent.from = tb.stepBegin + pos;
    sent.count = rec.count;
    sent.values = valuesAt;
    out->queue.push_back(sent);
    for (int receiver : out->receivers)
      enqueue(receiver);
  }

  pc[at(g)] = pos + 1;
  if (step.type != OpType::Nop && step.hasdep) {
    flag[at(g)] = pos;
    if (raceClocks && rec.snapshotRefs > 0)
      rec.snapshot = snapshot(clockRow(g));
    std::vector<int>& waiters = depWaiters[at(g)];
    for (int waiter : waiters)
      enqueue(waiter);
    waiters.clear();
  }
  return true;
}

void SymbolicRun::State::apply(Plane& plane, int g, int pos, const Step& step, const StepRec& rec,
                               const Message* in)
{
  const int n = rec.count;
  std::vector<ValueId>& vals = scratchValues;
  vals.resize(at(n));
  auto received = [&](int j) {
    return in && j < in->count ? plane.messageValues[in->values + at(j)] : kUninitialised;
  };
  ValueStore& values = *store;
  // All reads of a step happen before its writes, as the runtime loads before it stores.
  switch (step.type) {
  case OpType::Send:
  case OpType::Copy:
    for (int j = 0; j < n; ++j)
      vals[at(j)] = read(plane, g, pos, step.srcBuf, step.srcOff + j);
    break;
  case OpType::Recv:
  case OpType::RecvCopySend:
    for (int j = 0; j < n; ++j)
      vals[at(j)] = received(j);
    break;
  case OpType::RecvReduceSend:
  case OpType::RecvReduceCopy:
  case OpType::RecvReduceCopySend:
    for (int j = 0; j < n; ++j)
      vals[at(j)] = values.combine(received(j), read(plane, g, pos, step.srcBuf, step.srcOff + j));
    break;
  case OpType::Reduce:
    for (int j = 0; j < n; ++j) {
      const ValueId dst = read(plane, g, pos, step.dstBuf, step.dstOff + j);
      vals[at(j)] = values.combine(dst, read(plane, g, pos, step.srcBuf, step.srcOff + j));
    }
    break;
  case OpType::Nop:
    break;
  }
  if (rec.traits.writesDst) {
    for (int j = 0; j < n; ++j)
      write(plane, g, pos, step.dstBuf, step.dstOff + j, vals[at(j)]);
  }
  if (rec.traits.sends)
    plane.messageValues.insert(plane.messageValues.end(), vals.begin(), vals.end());
  flushPending(plane);
}

ValueId SymbolicRun::State::read(Plane& plane, int g, int pos, Buffer buffer, int index)
{
  const TbRec& tb = tbs[at(g)];
  const int s = slotOf(plane, tb.rank, buffer, index);
  if (s < 0)
    return kUninitialised;
  if (races) {
    if (const std::optional<Conflict> c = plane.detector.read(at(s), g, pos + 1, orderFor(g)))
      noteRace(plane, s, g, pos, false, buffer, index, *c);
  }
  std::uint8_t& f = plane.flags[at(s)];
  if ((f & (kInitialised | kWarned)) == 0) {
    f |= kWarned;
    if (static_cast<int>(plane.uninitialised.size()) < options.maxUninitialisedRecords) {
      UninitialisedRead record;
      record.rank = tb.rank;
      record.site = AccessSite{tb.id, pos, false, buffer, index};
      record.memory = memorySlot(program, tb.rank, buffer, index, plane.mode);
      plane.uninitialised.push_back(record);
    } else {
      ++plane.uninitialisedDropped;
    }
  }
  return plane.value[at(s)];
}

void SymbolicRun::State::write(Plane& plane, int g, int pos, Buffer buffer, int index,
                               ValueId value)
{
  const int s = slotOf(plane, tbs[at(g)].rank, buffer, index);
  if (s < 0)
    return;
  if (races) {
    if (const std::optional<Conflict> c = plane.detector.write(at(s), g, pos + 1, orderFor(g)))
      noteRace(plane, s, g, pos, true, buffer, index, *c);
  }
  plane.value[at(s)] = value;
  plane.flags[at(s)] |= kInitialised;
}

void SymbolicRun::State::noteRace(Plane& plane, int slot, int g, int pos, bool writes,
                                  Buffer buffer, int index, const Conflict& conflict)
{
  std::uint8_t& f = plane.flags[at(slot)];
  if (f & kRaced)
    return;
  f |= kRaced;
  const TbRec& tb = tbs[at(g)];
  const TbRec& other = tbs[at(conflict.earlier.tb)];
  const int otherStep = conflict.earlier.time - 1;
  if (plane.pending) {
    RaceRecord& p = *plane.pending;
    // Consecutive chunks racing between the same two steps read better as one report.
    if (p.first.tb == other.id && p.first.step == otherStep &&
        p.first.writes == conflict.earlierWrites && p.second.writes == writes &&
        p.second.buffer == buffer && p.second.index + p.chunks == index &&
        plane.pendingLastSlot + 1 == slot) {
      ++p.chunks;
      plane.pendingLastSlot = slot;
      return;
    }
    flushPending(plane);
  }
  RaceRecord record;
  record.rank = tb.rank;
  record.memory = memorySlot(program, tb.rank, buffer, index, plane.mode);
  record.first = siteOf(plane, conflict.earlier.tb, otherStep, conflict.earlierWrites, slot);
  record.second = AccessSite{tb.id, pos, writes, buffer, index};
  plane.pending = record;
  plane.pendingLastSlot = slot;
}

void SymbolicRun::State::flushPending(Plane& plane)
{
  if (!plane.pending)
    return;
  if (static_cast<int>(plane.races.size()) < options.maxRaceRecords)
    plane.races.push_back(*plane.pending);
  else
    ++plane.racesDropped;
  plane.pending.reset();
  plane.pendingLastSlot = -1;
}

AccessSite SymbolicRun::State::siteOf(const Plane& plane, int g, int pos, bool writes,
                                      int slot) const
{
  const TbRec& tb = tbs[at(g)];
  AccessSite site{tb.id, pos, writes, Buffer::Input, -1};
  if (pos < 0 || pos >= tb.stepCount)
    return site;
  const Step& step = tb.tb->steps[at(pos)];
  const StepRec& rec = steps[at(tb.stepBegin + pos)];
  auto find = [&](Buffer buffer, int offset) {
    for (int j = 0; j < rec.count; ++j) {
      if (slotOf(plane, tb.rank, buffer, offset + j) == slot) {
        site.buffer = buffer;
        site.index = offset + j;
        return true;
      }
    }
    return false;
  };
  if (writes || rec.traits.readsDst) {
    if (find(step.dstBuf, step.dstOff))
      return site;
  }
  if (rec.traits.readsSrc)
    find(step.srcBuf, step.srcOff);
  return site;
}

// --- public interface ------------------------------------------------------------------------

} // namespace cs
