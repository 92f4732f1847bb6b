#include "symbolicstate_p.h"

#include <map>

namespace cs {

using namespace symbolic;

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
  std::int64_t totalSteps = 0;
  if (!checkNumbering(totalSteps))
    return false;

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
  if (!buildThreadblocks(totalSteps))
    return false;
  linkDependencies();

  races = options.detectRaces && !planes.empty();
  raceClocks = races && tbCount <= options.clockThreadblockLimit;
  seedPlanes();

  pc.assign(at(tbCount), 0);
  flag.assign(at(tbCount), -1);
  depWaiters.assign(at(tbCount), {});
  queue.assign(at(tbCount) + 1, 0);
  queued.assign(at(tbCount), 0);
  if (races && !raceClocks)
    prepareReach();
  if (raceClocks) {
    clockStride = (at(tbCount) + kClockBlock - 1) / kClockBlock * kClockBlock;
    clocks.assign(at(tbCount) * clockStride, 0);
  }
  return true;
}

bool SymbolicRun::State::checkNumbering(std::int64_t& totalSteps)
{
  ranks = static_cast<int>(program.gpus.size());
  std::int64_t totalTbs = 0;
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
  return true;
}

bool SymbolicRun::State::buildThreadblocks(std::int64_t totalSteps)
{
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
  return true;
}

void SymbolicRun::State::linkDependencies()
{
  // Which publish releases each waiter, so that its happens-before edge comes from that publish
  // even if the waiter only looks at the flag later.
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
}

void SymbolicRun::State::prepareReach()
{
  std::vector<int> stepBegin(at(tbCount) + 1, 0);
  for (int g = 0; g < tbCount; ++g)
    stepBegin[at(g)] = tbs[at(g)].stepBegin;
  stepBegin[at(tbCount)] = static_cast<int>(steps.size());
  reach.reset(std::move(stepBegin));
  for (int g = 0; g < tbCount; ++g) {
    const TbRec& rec = tbs[at(g)];
    for (int pos = 0; pos < rec.stepCount; ++pos) {
      const StepRec& s = steps[at(rec.stepBegin + pos)];
      if (s.depTarget >= 0 && s.depTarget != g && s.satisfyPos >= 0)
        reach.releasedBy[at(rec.stepBegin + pos)] = tbs[at(s.depTarget)].stepBegin + s.satisfyPos;
    }
  }
}

void SymbolicRun::State::seedPlanes()
{
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

} // namespace cs
