#include "runplan.h"

#include <algorithm>
#include <map>

namespace cs::plan {

namespace {

// Flags and message counters are 31-bit (the top bit marks an aborted run).
constexpr std::int64_t kMaxCounter = std::int64_t{1} << 30;

Location stepLocation(int rank, int tb, int step, int line)
{
  Location location;
  location.rank = rank;
  location.tb = tb;
  location.step = step;
  location.line = line;
  return location;
}

bool planGeometry(const Program& program, const ExecOptions& options, RunPlan& plan,
                  Diagnostics& out)
{
  plan.ranks = program.ngpus;
  plan.elementSize = dataTypeSize(options.dtype);
  if (program.ngpus < 1 || static_cast<int>(program.gpus.size()) != program.ngpus) {
    out.error("exec.ranks", "the program declares ngpus=" + std::to_string(program.ngpus) +
                                " but has " + std::to_string(program.gpus.size()) +
                                " <gpu> elements");
    return false;
  }
  for (int r = 0; r < program.ngpus; ++r) {
    if (program.gpus[static_cast<std::size_t>(r)].id != r) {
      out.error("exec.ranks", "gpu ids must be 0.." + std::to_string(program.ngpus - 1) +
                                  "; rank " + std::to_string(r) + " is missing");
      return false;
    }
  }
  if (program.nchunksperloop < 1) {
    out.error("exec.size", "nchunksperloop must be at least 1");
    return false;
  }
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  if (options.bytes <= 0 || options.bytes % plan.elementSize != 0) {
    out.error("exec.size", std::to_string(options.bytes) + " bytes is not a positive multiple of " +
                               std::to_string(plan.elementSize) + "-byte " +
                               std::string(dataTypeName(options.dtype)) + " elements");
    return false;
  }
  plan.totalElements = options.bytes / plan.elementSize;
  if (plan.totalElements % program.nchunksperloop != 0 || plan.totalElements % mult != 0) {
    out.error("exec.size",
              std::to_string(plan.totalElements) + " elements cannot be split into " +
                  std::to_string(program.nchunksperloop) + " equal chunks" +
                  (mult > 1 ? " and " + std::to_string(mult) + " rank shares" : std::string()) +
                  ": the runtime would not select this algorithm for " +
                  std::to_string(options.bytes) + " bytes");
    return false;
  }
  plan.count = plan.totalElements / mult;
  plan.chunkElements = plan.totalElements / program.nchunksperloop;
  const std::int64_t sliceBytes = options.sliceBytes.value_or(defaultSliceBytes(program.proto));
  plan.sliceElements =
      std::clamp<std::int64_t>(sliceBytes / plan.elementSize, 1, plan.chunkElements);
  plan.slices =
      static_cast<int>((plan.chunkElements + plan.sliceElements - 1) / plan.sliceElements);
  plan.connectionSlots =
      std::max(1, options.connectionSlots.value_or(defaultConnectionSlots(program.proto)));
  plan.protocol = program.proto;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks)
      plan.maxSteps = std::max(plan.maxSteps, static_cast<int>(tb.steps.size()));
  }
  if (static_cast<std::int64_t>(plan.slices) * (plan.maxSteps + 1) >= kMaxCounter) {
    out.error("exec.size", std::to_string(plan.slices) + " slices of " +
                               std::to_string(plan.maxSteps) +
                               " steps are more than the executor counts; use larger slices");
    return false;
  }
  return true;
}

void planMemory(const Program& program, RunPlan& plan)
{
  plan.bufferChunks.assign(static_cast<std::size_t>(plan.ranks), {});
  plan.memoryChunks.assign(static_cast<std::size_t>(plan.ranks), {});
  for (int r = 0; r < plan.ranks; ++r) {
    const Gpu& gpu = program.gpus[static_cast<std::size_t>(r)];
    for (int b = 0; b < kBufferCount; ++b) {
      const auto buffer = static_cast<Buffer>(b);
      const int chunks =
          std::max(gpu.chunks(buffer), userBufferChunks(program, buffer).value_or(0));
      plan.bufferChunks[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)] = chunks;
      if (chunks <= 0)
        continue;
      // Aliasing maps consecutive chunks to consecutive chunks, so the last one bounds the rest.
      const MemorySlot last = memorySlot(program, r, buffer, chunks - 1, plan.mode);
      int& need =
          plan.memoryChunks[static_cast<std::size_t>(r)][static_cast<std::size_t>(last.memory)];
      need = std::max(need, last.index + 1);
    }
  }
}

bool operandInRange(const RunPlan& plan, int rank, Buffer buffer, int off, int cnt)
{
  const int chunks =
      plan.bufferChunks[static_cast<std::size_t>(rank)][static_cast<std::size_t>(buffer)];
  return off >= 0 && cnt >= 0 && static_cast<std::int64_t>(off) + cnt <= chunks;
}

bool planStep(const Program& program, const RunPlan& plan, const ThreadBlock& tb, int rank,
              int position, PlannedStep& planned, Diagnostics& out)
{
  const Step& step = tb.steps[static_cast<std::size_t>(position)];
  const Location where = stepLocation(rank, tb.id, position, step.line);
  const std::string prefix = describe(where) + ": ";
  const OpTraits traits = opTraits(step.type);
  planned.type = step.type;
  planned.cnt = step.type == OpType::Nop ? 0 : step.cnt;
  planned.publishes = step.hasdep && step.type != OpType::Nop;
  if (planned.cnt < 0) {
    out.error("exec.operand", prefix + "cnt " + std::to_string(step.cnt) + " is negative", where);
    return false;
  }
  if ((traits.sends && tb.send < 0) || (traits.receives && tb.recv < 0)) {
    out.error("exec.peer",
              prefix + std::string(opTypeName(step.type)) + " needs a threadblock with a " +
                  (traits.sends && tb.send < 0 ? "send" : "receive") + " peer",
              where);
    return false;
  }
  const auto resolve = [&](Buffer buffer, int off, const char* which, OperandRef& ref) {
    if (!operandInRange(plan, rank, buffer, off, planned.cnt)) {
      out.error("exec.operand",
                prefix + which + " " + bufferLetter(buffer) + "[" + std::to_string(off) + ".." +
                    std::to_string(off + planned.cnt) + ") is outside the " +
                    std::to_string(plan.bufferChunks[static_cast<std::size_t>(rank)]
                                                    [static_cast<std::size_t>(buffer)]) +
                    " chunks of that buffer",
                where);
      return false;
    }
    const MemorySlot slot = memorySlot(program, rank, buffer, off, plan.mode);
    ref = {slot.memory, slot.index};
    return true;
  };
  if (traits.readsSrc && !resolve(step.srcBuf, step.srcOff, "source", planned.src))
    return false;
  if (traits.writesDst && !resolve(step.dstBuf, step.dstOff, "destination", planned.dst))
    return false;
  if (step.depid >= 0) {
    const ThreadBlock* target = program.threadblock(rank, step.depid);
    if (!target || step.deps < 0 || step.deps >= static_cast<int>(target->steps.size())) {
      out.error("exec.dependency",
                prefix + "depends on tb " + std::to_string(step.depid) + " step " +
                    std::to_string(step.deps) + ", which does not exist",
                where);
      return false;
    }
    planned.depTb = step.depid;
    planned.depStep = step.deps;
  }
  return true;
}

bool planThreadblocks(const Program& program, RunPlan& plan, Diagnostics& out)
{
  std::map<ConnectionKey, int> connectionIndex;
  std::map<ConnectionKey, int> sendOwner; // detects two tbs driving one connection end
  std::map<ConnectionKey, int> recvOwner;
  const auto connection = [&](const ConnectionKey& key) {
    const auto [it, inserted] =
        connectionIndex.emplace(key, static_cast<int>(plan.connections.size()));
    if (inserted)
      plan.connections.push_back({key, 0});
    return it->second;
  };
  for (int r = 0; r < plan.ranks; ++r) {
    plan.firstThreadblock.push_back(static_cast<int>(plan.threadblocks.size()));
    const Gpu& gpu = program.gpus[static_cast<std::size_t>(r)];
    for (int t = 0; t < static_cast<int>(gpu.threadblocks.size()); ++t) {
      const ThreadBlock& tb = gpu.threadblocks[static_cast<std::size_t>(t)];
      Location where;
      where.rank = r;
      where.tb = tb.id;
      where.line = tb.line;
      if (tb.id != t) {
        out.error("exec.threadblock",
                  "rank " + std::to_string(r) + ": threadblock ids must be 0.." +
                      std::to_string(gpu.threadblocks.size() - 1),
                  where);
        return false;
      }
      const auto peerOk = [&](int peer) {
        return peer == -1 || (peer >= 0 && peer < plan.ranks && peer != r);
      };
      if (!peerOk(tb.send) || !peerOk(tb.recv) || tb.chan < 0) {
        out.error("exec.peer",
                  describe(where) + ": send " + std::to_string(tb.send) + ", recv " +
                      std::to_string(tb.recv) + ", chan " + std::to_string(tb.chan) +
                      " is not a valid peer/channel",
                  where);
        return false;
      }
      PlannedThreadblock planned{r, t, tb.chan, tb.send, tb.recv, -1, -1, {}};
      // Claims one end of a connection for this tb; -2 when another tb already drives it.
      const auto claim = [&](std::map<ConnectionKey, int>& owners, const ConnectionKey& key,
                             const char* verb, int peer) {
        const auto [owner, claimed] = owners.emplace(key, t);
        if (claimed)
          return connection(key);
        out.error("exec.duplicate-connection",
                  describe(where) + " and tb " + std::to_string(owner->second) + " both " + verb +
                      " rank " + std::to_string(peer) + " on channel " + std::to_string(tb.chan) +
                      "; the runtime would corrupt that connection",
                  where);
        return -2;
      };
      if (tb.send >= 0)
        planned.sendConnection = claim(sendOwner, {r, tb.send, tb.chan}, "send to", tb.send);
      if (tb.recv >= 0)
        planned.recvConnection = claim(recvOwner, {tb.recv, r, tb.chan}, "receive from", tb.recv);
      if (planned.sendConnection == -2 || planned.recvConnection == -2)
        return false;
      planned.steps.resize(tb.steps.size());
      for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
        PlannedStep& step = planned.steps[static_cast<std::size_t>(s)];
        if (!planStep(program, plan, tb, r, s, step, out))
          return false;
        const OpTraits traits = opTraits(step.type);
        const std::int64_t elements = std::int64_t{step.cnt} * plan.sliceElements;
        if (traits.sends) {
          auto& size =
              plan.connections[static_cast<std::size_t>(planned.sendConnection)].messageElements;
          size = std::max(size, elements);
        }
        if (traits.receives) {
          auto& size =
              plan.connections[static_cast<std::size_t>(planned.recvConnection)].messageElements;
          size = std::max(size, elements);
        }
      }
      plan.threadblocks.push_back(std::move(planned));
    }
  }
  return true;
}

// Per connection: whether message k is sent and received in the same slice, i.e. the sending tb
// sends as many messages per slice as the receiving tb receives. A message read in place is cut
// into the sender's pieces (piece j in chunk j of its operand), which is the receiver's cut only
// when both run the same slice: in another one, the last and shorter slice, equal element counts
// may split differently, and only the slot's contiguous layout keeps the runtime's meaning.
std::vector<bool> sliceAlignedConnections(const RunPlan& plan)
{
  std::vector<int> sends(plan.connections.size(), 0);
  std::vector<int> receives(plan.connections.size(), 0);
  for (const PlannedThreadblock& tb : plan.threadblocks) {
    for (const PlannedStep& step : tb.steps) {
      const OpTraits traits = opTraits(step.type);
      if (traits.sends)
        ++sends[static_cast<std::size_t>(tb.sendConnection)];
      if (traits.receives)
        ++receives[static_cast<std::size_t>(tb.recvConnection)];
    }
  }
  std::vector<bool> aligned(plan.connections.size());
  for (std::size_t c = 0; c < aligned.size(); ++c)
    aligned[c] = sends[c] == receives[c];
  return aligned;
}

/// Who writes one chunk of an allocation of a rank during a run.
struct ChunkWriters {
  static constexpr int kNone = -1;
  static constexpr int kMany = -2;
  int tb = kNone;        ///< index into RunPlan::threadblocks of the only writer, or kNone/kMany
  int lastPosition = -1; ///< the last of its steps writing the chunk
};

/// Per allocation and chunk of `rank`, its writers.
std::array<std::vector<ChunkWriters>, kBufferCount> chunkWriters(const RunPlan& plan, int rank,
                                                                 int firstTb, int endTb)
{
  std::array<std::vector<ChunkWriters>, kBufferCount> writers;
  for (std::size_t m = 0; m < kBufferCount; ++m)
    writers[m].resize(
        static_cast<std::size_t>(plan.memoryChunks[static_cast<std::size_t>(rank)][m]));
  for (int t = firstTb; t < endTb; ++t) {
    const std::vector<PlannedStep>& steps = plan.threadblocks[static_cast<std::size_t>(t)].steps;
    for (int position = 0; position < static_cast<int>(steps.size()); ++position) {
      const PlannedStep& step = steps[static_cast<std::size_t>(position)];
      if (!opTraits(step.type).writesDst)
        continue;
      for (int j = 0; j < step.cnt; ++j) {
        ChunkWriters& chunk = writers[static_cast<std::size_t>(step.dst.memory)]
                                     [static_cast<std::size_t>(step.dst.index + j)];
        chunk.tb = chunk.tb == ChunkWriters::kNone || chunk.tb == t ? t : ChunkWriters::kMany;
        chunk.lastPosition = position;
      }
    }
  }
  return writers;
}

// A message can be read where it lies when the elements it carries keep their value until the run
// ends. A tb runs its steps in order, slice after slice, and in slice k every step touches only
// slice k of its chunks, so no later slice writes what an earlier one sent. What is left to rule
// out is a write to one of the message's chunks by a later step of the same tb, or by any step of
// another tb of the rank (nothing here orders it after the receiver's read, so it keeps the copy).
// rrs forwards a value it stores nowhere: always copied.
void markInPlaceSends(RunPlan& plan)
{
  const std::vector<bool> aligned = sliceAlignedConnections(plan);
  const int threadblocks = static_cast<int>(plan.threadblocks.size());
  for (int r = 0; r < plan.ranks; ++r) {
    const int first = plan.firstThreadblock[static_cast<std::size_t>(r)];
    const int end =
        r + 1 < plan.ranks ? plan.firstThreadblock[static_cast<std::size_t>(r) + 1] : threadblocks;
    const std::array<std::vector<ChunkWriters>, kBufferCount> writers =
        chunkWriters(plan, r, first, end);
    for (int t = first; t < end; ++t) {
      PlannedThreadblock& tb = plan.threadblocks[static_cast<std::size_t>(t)];
      if (tb.sendConnection < 0 || !aligned[static_cast<std::size_t>(tb.sendConnection)])
        continue;
      for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
        PlannedStep& step = tb.steps[static_cast<std::size_t>(position)];
        if (step.type != OpType::Send && step.type != OpType::RecvCopySend &&
            step.type != OpType::RecvReduceCopySend)
          continue;
        const OperandRef& data = step.type == OpType::Send ? step.src : step.dst;
        bool unchanged = step.cnt > 0;
        for (int j = 0; j < step.cnt && unchanged; ++j) {
          const ChunkWriters& chunk = writers[static_cast<std::size_t>(data.memory)]
                                             [static_cast<std::size_t>(data.index + j)];
          unchanged =
              chunk.tb == ChunkWriters::kNone || (chunk.tb == t && chunk.lastPosition <= position);
        }
        step.sendsInPlace = unchanged;
      }
    }
  }
}

} // namespace

std::optional<RunPlan> planRun(const Program& program, const ExecOptions& options, Diagnostics& out)
{
  if (options.iterations < 1 || options.warmup < 0) {
    out.error("exec.options", "iterations must be at least 1 and warm-up at least 0");
    return std::nullopt;
  }
  RunPlan plan;
  const std::vector<CallMode> modes = declaredModes(program);
  plan.mode = options.mode.value_or(modes.empty() ? CallMode::OutOfPlace : modes.front());
  if (options.mode && std::find(modes.begin(), modes.end(), *options.mode) == modes.end()) {
    out.warning("exec.mode-undeclared", "the program does not declare " +
                                            std::string(callModeName(*options.mode)) +
                                            " use; running it that way anyway");
  }
  if (!planGeometry(program, options, plan, out))
    return std::nullopt;
  planMemory(program, plan);
  if (!planThreadblocks(program, plan, out))
    return std::nullopt;
  markInPlaceSends(plan);
  return plan;
}

void describePlan(const RunPlan& plan, ExecResult& result)
{
  result.mode = plan.mode;
  result.count = plan.count;
  result.chunkElements = plan.chunkElements;
  result.slices = plan.slices;
}

} // namespace cs::plan
