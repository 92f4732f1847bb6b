#include "symbolicrun.h"

#include "../model/connections.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

namespace cs {

namespace {

// Bounds that keep a fuzzed or absurd program from exhausting memory or time. Real algorithms
// stay far below them (the largest corpus file has ~100k slots and 12k steps).
constexpr std::int64_t kMaxSlots = 50'000'000; ///< memory chunks over all planes
constexpr std::int64_t kMaxWork = 200'000'000; ///< chunk operations over all steps and planes
constexpr std::int64_t kMaxThreadblocks = 1'000'000;
constexpr std::int64_t kMaxSteps = 20'000'000;
constexpr int kMaxRaceThreadblocks = 4096; ///< vector clocks take tbs² entries

constexpr int kNoDependency = -1;
constexpr int kMissingTarget = -2;

constexpr std::uint8_t kInitialised = 1; ///< holds input or was written
constexpr std::uint8_t kWarned = 2;      ///< an uninitialised read was reported
constexpr std::uint8_t kRaced = 4;       ///< a race was reported

struct TbRec {
  int rank = 0;
  int id = 0;
  int stepBegin = 0;
  int stepCount = 0;
  int sendConn = -1;
  int recvConn = -1;
  const ThreadBlock* tb = nullptr;
};

struct StepRec {
  int depTarget = kNoDependency; ///< global tb whose flag this step waits for
  int satisfyPos = -1;           ///< first publishing position >= deps in the target; -1: never
  int count = 0;                 ///< chunks touched, clamped to the largest buffer
  int snapshotRefs = 0;          ///< waiters that will join the clock published by this step
  int snapshot = -1;             ///< clock pool entry published by this step
  OpTraits traits;
};

struct Message {
  std::int32_t clock = -1;
  std::int32_t count = 0;
  std::size_t values = 0;
};

struct Conn {
  ConnectionKey key;
  std::vector<int> senders;   ///< global tbs
  std::vector<int> receivers; ///< global tbs
  std::vector<Message> queue;
  std::size_t head = 0;

  std::size_t held() const { return queue.size() - head; }
};

/// Where a buffer of one rank lives in a plane's flat slot array: slot = base + index.
struct Region {
  std::int64_t base = 0;
  int range = 0;
};

struct Plane {
  CallMode mode = CallMode::OutOfPlace;
  std::vector<Region> regions;        ///< rank * kBufferCount + buffer
  std::vector<std::int64_t> memBase;  ///< rank * kBufferCount + memory
  std::vector<int> memSize;           ///< rank * kBufferCount + memory
  std::vector<std::int64_t> rankBase; ///< first slot of each rank, plus the total
  std::vector<ValueId> value;
  std::vector<std::uint8_t> flags;
  RaceDetector detector;
  std::vector<ValueId> messageValues;
  std::vector<RaceRecord> races;
  int racesDropped = 0;
  std::vector<UninitialisedRead> uninitialised;
  int uninitialisedDropped = 0;
  std::optional<RaceRecord> pending; ///< the race group of the step being executed
  int pendingLastSlot = -1;
};

std::size_t at(int index)
{
  return static_cast<std::size_t>(index);
}

// Clock rows are padded to whole blocks so that the join below vectorises at -O2 (a fixed inner
// trip count needs neither an epilogue nor a runtime alias check). It is the hot loop of the run.
constexpr std::size_t kClockBlock = 8;

void joinClocks(Clock* __restrict row, const Clock* __restrict other, std::size_t n)
{
  for (std::size_t i = 0; i < n; i += kClockBlock) {
    for (std::size_t k = 0; k < kClockBlock; ++k)
      row[i + k] = std::max(row[i + k], other[i + k]);
  }
}

} // namespace

struct SymbolicRun::State {
  const Program& program;
  SymbolicRunOptions options;
  std::string refusal;
  bool tooLarge = false;
  std::string raceRefusal;
  Outcome outcome = Outcome::NotRun;

  int ranks = 0;
  /// Input chunks per rank: i_chunks, or the user's send buffer where that is larger (tools
  /// write i_chunks="0" for an in-place all-gather whose input lives inside o).
  std::vector<int> inputChunks;
  int tbCount = 0;
  std::vector<int> rankTbBase; ///< first global tb of each rank, plus the total
  std::vector<TbRec> tbs;
  std::vector<StepRec> steps;
  std::vector<Conn> conns;

  std::vector<int> pc;
  std::vector<int> flag;
  std::vector<std::vector<int>> depWaiters;
  std::vector<int> queue; ///< circular, capacity tbCount + 1
  std::size_t qHead = 0;
  std::size_t qTail = 0;
  std::vector<std::uint8_t> queued;

  bool races = false;
  std::size_t clockStride = 0; ///< tbCount rounded up to kClockBlock
  std::vector<Clock> clocks;   ///< tbCount rows of clockStride, one per threadblock
  std::vector<Clock> pool;     ///< snapshots carried by messages and published flags
  std::vector<int> freeSnapshots;

  TokenSpace tokenSpace;
  std::optional<ValueStore> store;
  std::vector<Plane> planes;
  std::vector<ValueId> scratchValues; ///< per-step temporary

  State(const Program& p, SymbolicRunOptions o) : program(p), options(std::move(o)) {}

  bool build();
  bool buildPlane(Plane& plane, std::int64_t& totalSlots);
  int resultRange() const;

  Outcome execute();
  void enqueue(int g);
  bool tryStep(int g);
  void apply(Plane& plane, int g, int pos, const Step& step, const StepRec& rec, const Message* in);
  ValueId read(Plane& plane, int g, int pos, Buffer buffer, int index);
  void write(Plane& plane, int g, int pos, Buffer buffer, int index, ValueId value);
  void noteRace(Plane& plane, int slot, int g, int pos, bool writes, Buffer buffer, int index,
                const Conflict& conflict);
  void flushPending(Plane& plane);
  AccessSite siteOf(const Plane& plane, int g, int pos, bool writes, int slot) const;

  int globalIndexOf(int rank, int tbId) const
  {
    if (rank < 0 || rank >= ranks || tbId < 0)
      return -1;
    const int g = rankTbBase[at(rank)] + tbId;
    return g < rankTbBase[at(rank) + 1] ? g : -1;
  }
  int slotOf(const Plane& plane, int rank, Buffer buffer, int index) const
  {
    const Region& r = plane.regions[at(rank) * kBufferCount + static_cast<std::size_t>(buffer)];
    if (index < 0 || index >= r.range)
      return -1;
    return static_cast<int>(r.base + index);
  }
  Clock* clockRow(int g) { return clocks.data() + at(g) * clockStride; }
  int snapshot(const Clock* row);
  void join(Clock* row, int snapshotIndex);
  void release(int snapshotIndex);
};

int SymbolicRun::State::resultRange() const
{
  const int n = program.nchunksperloop;
  switch (program.collective) {
  case Collective::AllReduce:
  case Collective::AllGather:
  case Collective::AllToAll:
  case Collective::Broadcast:
  case Collective::Reduce:
    return std::max(0, n);
  case Collective::ReduceScatter:
    return ranks > 0 ? std::max(0, n / ranks) : 0;
  default:
    return 0;
  }
}

bool SymbolicRun::State::build()
{
  ranks = static_cast<int>(program.gpus.size());
  std::int64_t totalTbs = 0;
  std::int64_t totalSteps = 0;
  for (int r = 0; r < ranks; ++r) {
    const Gpu& gpu = program.gpus[at(r)];
    if (gpu.id != r) {
      refusal = "ranks are not numbered 0.." + std::to_string(ranks - 1);
      return false;
    }
    for (std::size_t t = 0; t < gpu.threadblocks.size(); ++t) {
      if (gpu.threadblocks[t].id != static_cast<int>(t)) {
        refusal = "threadblocks of rank " + std::to_string(r) + " are not numbered densely";
        return false;
      }
      totalSteps += static_cast<std::int64_t>(gpu.threadblocks[t].steps.size());
    }
    totalTbs += static_cast<std::int64_t>(gpu.threadblocks.size());
  }
  if (totalTbs > kMaxThreadblocks || totalSteps > kMaxSteps) {
    tooLarge = true;
    refusal = "the program has " + std::to_string(totalTbs) + " threadblocks and " +
              std::to_string(totalSteps) + " steps, more than the abstract execution handles";
    return false;
  }
  tbCount = static_cast<int>(totalTbs);

  const int userInput = userBufferChunks(program, Buffer::Input).value_or(0);
  inputChunks.resize(at(ranks));
  for (int r = 0; r < ranks; ++r)
    inputChunks[at(r)] = std::max({0, program.gpus[at(r)].inputChunks, userInput});

  // Planes first: their buffer ranges bound the chunk counts of steps.
  std::int64_t totalSlots = 0;
  planes.resize(options.modes.size());
  for (std::size_t p = 0; p < planes.size(); ++p) {
    planes[p].mode = options.modes[p];
    if (!buildPlane(planes[p], totalSlots))
      return false;
  }
  int maxRange = 0;
  for (const Plane& plane : planes) {
    for (const Region& region : plane.regions)
      maxRange = std::max(maxRange, region.range);
  }

  rankTbBase.assign(at(ranks) + 1, 0);
  tbs.reserve(at(tbCount));
  steps.reserve(static_cast<std::size_t>(totalSteps));
  std::map<ConnectionKey, int> connIndex;
  auto connection = [&](const ConnectionKey& key) {
    const auto [it, inserted] = connIndex.emplace(key, static_cast<int>(conns.size()));
    if (inserted)
      conns.push_back(Conn{key, {}, {}, {}, 0});
    return it->second;
  };
  std::int64_t work = 0;
  for (int r = 0; r < ranks; ++r) {
    rankTbBase[at(r)] = static_cast<int>(tbs.size());
    for (const ThreadBlock& tb : program.gpus[at(r)].threadblocks) {
      TbRec rec;
      rec.rank = r;
      rec.id = tb.id;
      rec.stepBegin = static_cast<int>(steps.size());
      rec.stepCount = static_cast<int>(tb.steps.size());
      rec.tb = &tb;
      const int g = static_cast<int>(tbs.size());
      if (tb.send >= 0) {
        rec.sendConn = connection({r, tb.send, tb.chan});
        conns[at(rec.sendConn)].senders.push_back(g);
      }
      if (tb.recv >= 0) {
        rec.recvConn = connection({tb.recv, r, tb.chan});
        conns[at(rec.recvConn)].receivers.push_back(g);
      }
      for (const Step& step : tb.steps) {
        StepRec s;
        s.traits = opTraits(step.type);
        if (step.type != OpType::Nop)
          s.count = std::clamp(step.cnt, 0, maxRange);
        work += static_cast<std::int64_t>(s.count) * static_cast<std::int64_t>(planes.size());
        steps.push_back(s);
      }
      tbs.push_back(rec);
    }
  }
  rankTbBase[at(ranks)] = static_cast<int>(tbs.size());
  if (work > kMaxWork) {
    tooLarge = true;
    refusal = "the program moves " + std::to_string(work) +
              " chunks in all, more than the abstract execution handles";
    return false;
  }

  // Dependencies: which publish releases each waiter, so that its happens-before edge comes from
  // that publish even if the waiter only looks at the flag later.
  for (const TbRec& rec : tbs) {
    for (int pos = 0; pos < rec.stepCount; ++pos) {
      const Step& step = rec.tb->steps[at(pos)];
      StepRec& s = steps[at(rec.stepBegin + pos)];
      if (step.depid < 0)
        continue;
      const int target = globalIndexOf(rec.rank, step.depid);
      if (target < 0) {
        s.depTarget = kMissingTarget;
        continue;
      }
      if (step.deps < 0)
        continue; // flags start at -1, so the wait is already satisfied
      s.depTarget = target;
      const TbRec& t = tbs[at(target)];
      for (int q = std::max(0, step.deps); q < t.stepCount; ++q) {
        const Step& candidate = t.tb->steps[at(q)];
        if (candidate.type != OpType::Nop && candidate.hasdep) {
          s.satisfyPos = q;
          break;
        }
      }
      if (s.satisfyPos >= 0 && target != static_cast<int>(&rec - tbs.data()))
        ++steps[at(t.stepBegin + s.satisfyPos)].snapshotRefs;
    }
  }

  races = options.detectRaces && !planes.empty();
  if (races && tbCount > kMaxRaceThreadblocks) {
    races = false;
    raceRefusal = "race detection needs a clock per pair of threadblocks and the program has " +
                  std::to_string(tbCount) + " threadblocks (at most " +
                  std::to_string(kMaxRaceThreadblocks) + " supported)";
  }

  tokenSpace = TokenSpace(inputChunks);
  store.emplace(tokenSpace.count());
  for (Plane& plane : planes) {
    for (int r = 0; r < ranks; ++r) {
      const int inputs = inputChunks[at(r)];
      for (int k = 0; k < inputs; ++k) {
        const int s = slotOf(plane, r, Buffer::Input, k);
        const std::optional<std::uint32_t> token = tokenSpace.token(r, k);
        if (s < 0 || !token)
          continue;
        plane.value[at(s)] = store->singleton(*token);
        plane.flags[at(s)] = kInitialised;
      }
    }
    if (races)
      plane.detector.reset(plane.value.size());
  }

  pc.assign(at(tbCount), 0);
  flag.assign(at(tbCount), -1);
  depWaiters.assign(at(tbCount), {});
  queue.assign(at(tbCount) + 1, 0);
  queued.assign(at(tbCount), 0);
  if (races) {
    clockStride = (at(tbCount) + kClockBlock - 1) / kClockBlock * kClockBlock;
    clocks.assign(at(tbCount) * clockStride, 0);
  }
  return true;
}

bool SymbolicRun::State::buildPlane(Plane& plane, std::int64_t& totalSlots)
{
  const int result = resultRange();
  plane.regions.assign(at(ranks) * kBufferCount, Region{});
  plane.memBase.assign(at(ranks) * kBufferCount, 0);
  plane.memSize.assign(at(ranks) * kBufferCount, 0);
  plane.rankBase.assign(at(ranks) + 1, 0);
  std::vector<std::int64_t> offset(at(ranks) * kBufferCount, 0);

  for (int r = 0; r < ranks; ++r) {
    const Gpu& gpu = program.gpus[at(r)];
    for (int b = 0; b < kBufferCount; ++b) {
      const Buffer buffer = static_cast<Buffer>(b);
      int range = std::max(0, gpu.chunks(buffer));
      if (buffer == Buffer::Input)
        range = inputChunks[at(r)];
      if (buffer == Buffer::Output)
        range = std::max(range, result);
      const std::size_t key = at(r) * kBufferCount + at(b);
      if (range == 0)
        continue;
      if (totalSlots + range > kMaxSlots) {
        tooLarge = true;
        refusal = "the buffers hold more than " + std::to_string(kMaxSlots) +
                  " chunk slots in all, more than the abstract execution handles";
        return false;
      }
      // Aliasing is affine per buffer (§4.1); check the ends so a future mapping that is not
      // fails loudly here instead of corrupting the run.
      const MemorySlot first = memorySlot(program, r, buffer, 0, plane.mode);
      const MemorySlot last = memorySlot(program, r, buffer, range - 1, plane.mode);
      if (first.memory != last.memory || first.index < 0 ||
          static_cast<std::int64_t>(last.index) - first.index != range - 1) {
        refusal = "the aliasing of " + std::string(bufferName(buffer)) + " on rank " +
                  std::to_string(r) + " is not a contiguous range";
        return false;
      }
      plane.regions[key].range = range;
      offset[key] = first.index;
      const std::size_t mem = at(r) * kBufferCount + static_cast<std::size_t>(first.memory);
      plane.memSize[mem] = std::max(plane.memSize[mem], last.index + 1);
      totalSlots += range;
    }
  }
  std::int64_t next = 0;
  for (int r = 0; r < ranks; ++r) {
    plane.rankBase[at(r)] = next;
    for (int m = 0; m < kBufferCount; ++m) {
      const std::size_t key = at(r) * kBufferCount + at(m);
      plane.memBase[key] = next;
      next += plane.memSize[key];
    }
  }
  plane.rankBase[at(ranks)] = next;
  if (next > kMaxSlots) {
    tooLarge = true;
    refusal = "the buffers hold more than " + std::to_string(kMaxSlots) + " chunk slots";
    return false;
  }
  for (int r = 0; r < ranks; ++r) {
    for (int b = 0; b < kBufferCount; ++b) {
      const std::size_t key = at(r) * kBufferCount + at(b);
      if (plane.regions[key].range == 0)
        continue;
      const MemorySlot first = memorySlot(program, r, static_cast<Buffer>(b), 0, plane.mode);
      plane.regions[key].base =
          plane.memBase[at(r) * kBufferCount + static_cast<std::size_t>(first.memory)] +
          offset[key];
    }
  }
  plane.value.assign(static_cast<std::size_t>(next), kUninitialised);
  plane.flags.assign(static_cast<std::size_t>(next), 0);
  return true;
}

// --- execution -----------------------------------------------------------------------------

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
  for (int g = 0; g < tbCount; ++g) {
    if (pc[at(g)] < tbs[at(g)].stepCount)
      return Outcome::Deadlocked;
  }
  return Outcome::Completed;
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
  if (races) {
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
    sent.clock = races ? snapshot(clockRow(g)) : -1;
    sent.count = rec.count;
    sent.values = valuesAt;
    out->queue.push_back(sent);
    for (int receiver : out->receivers)
      enqueue(receiver);
  }

  pc[at(g)] = pos + 1;
  if (step.type != OpType::Nop && step.hasdep) {
    flag[at(g)] = pos;
    if (races && rec.snapshotRefs > 0)
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
    if (const std::optional<Conflict> c = plane.detector.read(at(s), g, pos + 1, clockRow(g)))
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
    if (const std::optional<Conflict> c = plane.detector.write(at(s), g, pos + 1, clockRow(g)))
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

namespace {

// Shared empty results for out-of-range queries.
const std::vector<RaceRecord> kNoRaces;
const std::vector<UninitialisedRead> kNoReads;

} // namespace

SymbolicRun::SymbolicRun(const Program& program, SymbolicRunOptions options)
    : m_state(std::make_unique<State>(program, std::move(options)))
{
  if (!m_state->build()) {
    m_state->planes.clear();
    m_state->tbs.clear();
    m_state->tbCount = 0;
    m_state->rankTbBase.clear();
    m_state->races = false;
  }
  if (!m_state->store)
    m_state->store.emplace(0);
}

SymbolicRun::~SymbolicRun() = default;

const std::string& SymbolicRun::refusal() const
{
  return m_state->refusal;
}

bool SymbolicRun::tooLarge() const
{
  return m_state->tooLarge;
}

const std::string& SymbolicRun::raceRefusal() const
{
  return m_state->raceRefusal;
}

SymbolicRun::Outcome SymbolicRun::run()
{
  if (!m_state->refusal.empty() || m_state->outcome != Outcome::NotRun)
    return m_state->outcome;
  m_state->outcome = m_state->execute();
  return m_state->outcome;
}

SymbolicRun::Outcome SymbolicRun::outcome() const
{
  return m_state->outcome;
}

const Program& SymbolicRun::program() const
{
  return m_state->program;
}

int SymbolicRun::fifoSlots() const
{
  return m_state->options.fifoSlots;
}

int SymbolicRun::threadblockCount() const
{
  return m_state->tbCount;
}

int SymbolicRun::globalIndex(int rank, int tbId) const
{
  if (m_state->rankTbBase.size() <= static_cast<std::size_t>(std::max(0, rank)) + 1)
    return -1;
  return m_state->globalIndexOf(rank, tbId);
}

int SymbolicRun::rankOf(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->tbs[at(tb)].rank : -1;
}

int SymbolicRun::idOf(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->tbs[at(tb)].id : -1;
}

int SymbolicRun::position(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->pc[at(tb)] : 0;
}

bool SymbolicRun::finished(int tb) const
{
  return tb < 0 || tb >= m_state->tbCount || m_state->pc[at(tb)] >= m_state->tbs[at(tb)].stepCount;
}

WaitFor SymbolicRun::waitFor(int tb) const
{
  const State& s = *m_state;
  WaitFor wait;
  if (finished(tb))
    return wait;
  const TbRec& rec = s.tbs[at(tb)];
  const int pos = s.pc[at(tb)];
  const StepRec& step = s.steps[at(rec.stepBegin + pos)];
  const Step& source = rec.tb->steps[at(pos)];
  if (step.depTarget == kMissingTarget ||
      (step.depTarget >= 0 && s.flag[at(step.depTarget)] < source.deps)) {
    wait.kind = WaitKind::Dependency;
    wait.target = step.depTarget >= 0 ? step.depTarget : -1;
    wait.peer = rec.rank;
    wait.depTb = source.depid;
    wait.deps = source.deps;
    return wait;
  }
  if (step.traits.receives) {
    const Conn* conn = rec.recvConn >= 0 ? &s.conns[at(rec.recvConn)] : nullptr;
    if (!conn || conn->held() == 0) {
      wait.kind = WaitKind::Message;
      wait.peer = rec.tb->recv;
      wait.channel = rec.tb->chan;
      wait.target = conn && !conn->senders.empty() ? conn->senders.front() : -1;
      return wait;
    }
  }
  if (step.traits.sends) {
    const Conn* conn = rec.sendConn >= 0 ? &s.conns[at(rec.sendConn)] : nullptr;
    if (!conn || (s.options.fifoSlots > 0 &&
                  conn->held() >= static_cast<std::size_t>(s.options.fifoSlots))) {
      wait.kind = WaitKind::Room;
      wait.peer = rec.tb->send;
      wait.channel = rec.tb->chan;
      wait.target = conn && !conn->receivers.empty() ? conn->receivers.front() : -1;
      return wait;
    }
  }
  return wait;
}

int SymbolicRun::planeCount() const
{
  return static_cast<int>(m_state->planes.size());
}

CallMode SymbolicRun::mode(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].mode
                                            : CallMode::OutOfPlace;
}

int SymbolicRun::slot(int plane, int rank, Buffer buffer, int index) const
{
  if (plane < 0 || plane >= planeCount() || rank < 0 || rank >= m_state->ranks)
    return -1;
  return m_state->slotOf(m_state->planes[at(plane)], rank, buffer, index);
}

MemorySlot SymbolicRun::memoryOf(int plane, int slot) const
{
  if (plane < 0 || plane >= planeCount())
    return {};
  const Plane& p = m_state->planes[at(plane)];
  if (slot < 0 || slot >= static_cast<int>(p.value.size()))
    return {};
  const auto it =
      std::upper_bound(p.memBase.begin(), p.memBase.end(), static_cast<std::int64_t>(slot));
  // Memories of size 0 share their base with the next one; upper_bound lands past all of them.
  const std::size_t key = static_cast<std::size_t>(it - p.memBase.begin()) - 1;
  return {static_cast<Buffer>(key % kBufferCount), static_cast<int>(slot - p.memBase[key])};
}

ValueId SymbolicRun::value(int plane, int slot) const
{
  if (plane < 0 || plane >= planeCount())
    return kUninitialised;
  const Plane& p = m_state->planes[at(plane)];
  return slot >= 0 && slot < static_cast<int>(p.value.size()) ? p.value[at(slot)] : kUninitialised;
}

std::optional<AccessSite> SymbolicRun::lastWriter(int plane, int slot) const
{
  const State& s = *m_state;
  if (!s.races || plane < 0 || plane >= planeCount() || slot < 0)
    return std::nullopt;
  const Plane& p = s.planes[at(plane)];
  const Epoch write = p.detector.lastWrite(at(slot));
  if (write.tb < 0 || write.tb >= s.tbCount)
    return std::nullopt;
  return s.siteOf(p, write.tb, write.time - 1, true, slot);
}

const std::vector<RaceRecord>& SymbolicRun::races(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].races : kNoRaces;
}

int SymbolicRun::racesNotRecorded(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].racesDropped : 0;
}

const std::vector<UninitialisedRead>& SymbolicRun::uninitialisedReads(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].uninitialised : kNoReads;
}

int SymbolicRun::uninitialisedNotRecorded(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].uninitialisedDropped : 0;
}

const ValueStore& SymbolicRun::values() const
{
  return *m_state->store;
}

const TokenSpace& SymbolicRun::tokens() const
{
  return m_state->tokenSpace;
}

} // namespace cs
