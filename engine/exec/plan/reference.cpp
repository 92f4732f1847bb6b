#include "reference.h"

#include "elementtypes.h"

#include "model/collectivespec.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace cs::plan {

namespace {

/// The largest exact integer partial sums may reach in `type` (see the header).
std::int64_t exactLimit(DataType type)
{
  switch (type) {
  case DataType::F16:
    return 2048;
  case DataType::BF16:
    return 256;
  case DataType::F32:
    return std::int64_t{1} << 24;
  default:
    return std::int64_t{1} << 30;
  }
}

struct Pattern {
  ReduceOp op = ReduceOp::Sum;
  std::int64_t modulus = 1;

  Pattern(DataType type, ReduceOp reduceOp, int ranks) : op(reduceOp)
  {
    modulus = std::clamp<std::int64_t>(exactLimit(type) / std::max(1, ranks), 1, 251);
  }
  /// The input value of element `index` of rank `rank`'s input buffer.
  std::int64_t value(int rank, std::int64_t index) const
  {
    if (op == ReduceOp::Prod)
      return 1 + ((rank + index + index / 3) & 1);
    return 1 + (std::int64_t{rank} * 7 + index * 13 + index / 61) % modulus;
  }
};

template <typename T> T fromInteger(std::int64_t v)
{
  return Arith<T>::store(static_cast<typename Arith<T>::Compute>(v));
}

template <typename T, ReduceOp Op>
void verifyTyped(const Program& program, const CollectiveSpec& spec, const Pattern& pattern,
                 std::optional<int> onlyRank, HostMemory& state, Verification& result)
{
  const RunPlan& plan = state.plan;
  const std::int64_t ce = plan.chunkElements;
  std::vector<T> expected(static_cast<std::size_t>(ce));
  // Result chunks are reduced on the host in rank order, from the contributions' inputs.
  std::vector<Contribution> sources;
  std::vector<Contribution> cached;
  for (int r = 0; r < plan.ranks; ++r) {
    if (onlyRank && r != *onlyRank)
      continue;
    const ResultChunks chunks = spec.result(r);
    for (int i = 0; i < chunks.count; ++i) {
      const int c = chunks.first + i;
      spec.contributions(r, i, sources);
      if (sources != cached) {
        for (std::int64_t e = 0; e < ce; ++e) {
          T value = fromInteger<T>(pattern.value(sources[0].rank, sources[0].chunk * ce + e));
          for (std::size_t s = 1; s < sources.size(); ++s)
            value = reduceValue<Op>(
                value, fromInteger<T>(pattern.value(sources[s].rank, sources[s].chunk * ce + e)));
          expected[static_cast<std::size_t>(e)] = value;
        }
        cached = sources;
      }
      const MemorySlot slot = memorySlot(program, r, chunks.buffer, c, plan.mode);
      const T* actual = reinterpret_cast<const T*>(state.address(r, slot.memory, slot.index, 0));
      result.checked += ce;
      if (std::memcmp(actual, expected.data(), static_cast<std::size_t>(ce) * sizeof(T)) == 0)
        continue;
      // Only a chunk that differs is walked element by element: a right result costs no more.
      bool chunkWrong = false;
      for (std::int64_t e = 0; e < ce; ++e) {
        const T want = expected[static_cast<std::size_t>(e)];
        const T got = actual[e];
        if (std::memcmp(&want, &got, sizeof(T)) == 0)
          continue;
        ++result.wrong;
        if (chunkWrong)
          continue;
        chunkWrong = true;
        const WrongElement first{r, chunks.buffer, c, e, toDouble(want), toDouble(got)};
        if (!result.firstWrong)
          result.firstWrong = first;
        if (result.wrongChunks.size() < TraceVerification::kChunkLimit)
          result.wrongChunks.push_back(first);
        ++result.wrongChunkCount;
      }
    }
  }
}

} // namespace

std::int64_t inputValue(DataType type, ReduceOp op, int ranks, int rank, std::int64_t index)
{
  return Pattern(type, op, ranks).value(rank, index);
}

std::int64_t hostMemoryBytes(const RunPlan& plan)
{
  std::int64_t chunks = 0;
  for (const auto& perRank : plan.memoryChunks)
    for (const int allocation : perRank)
      chunks += allocation;
  return chunks * plan.chunkElements * plan.elementSize;
}

void initialiseMemory(const Program& program, DataType type, ReduceOp op, HostMemory& state)
{
  const RunPlan& plan = state.plan;
  // Where the kernel overcommits memory, a size no machine holds would not fail to allocate: it
  // would be filled page by page until the process is killed. Refuse it up front instead, as the
  // allocation itself would on a stricter kernel.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0 &&
      hostMemoryBytes(plan) / pageSize >= static_cast<std::int64_t>(pages))
    throw std::bad_alloc();
  const Pattern pattern(type, op, plan.ranks);
  state.memory.resize(static_cast<std::size_t>(plan.ranks));
  for (int r = 0; r < plan.ranks; ++r) {
    for (int m = 0; m < kBufferCount; ++m) {
      auto& memory = state.memory[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      const std::int64_t chunks =
          plan.memoryChunks[static_cast<std::size_t>(r)][static_cast<std::size_t>(m)];
      memory.assign(static_cast<std::size_t>(chunks * plan.chunkElements * plan.elementSize),
                    kSentinel);
    }
    const int inputChunks = plan.bufferChunks[static_cast<std::size_t>(r)][0];
    withStorageType(type, [&]<typename T>() {
      for (int k = 0; k < inputChunks; ++k) {
        const MemorySlot slot = memorySlot(program, r, Buffer::Input, k, plan.mode);
        T* data = reinterpret_cast<T*>(state.address(r, slot.memory, slot.index, 0));
        for (std::int64_t e = 0; e < plan.chunkElements; ++e)
          data[e] = fromInteger<T>(pattern.value(r, k * plan.chunkElements + e));
      }
    });
  }
}

Verification verifyResult(const Program& program, const ExecOptions& options, HostMemory& state)
{
  Verification result;
  const RunPlan& plan = state.plan;
  if (!hasPostcondition(program.collective)) {
    result.note = "not verified: no postcondition is known for coll=" +
                  (program.collSpelling.empty() ? std::string(collectiveTitle(program.collective))
                                                : program.collSpelling);
    return result;
  }
  int root = -1;
  if (isRooted(program.collective)) {
    if (options.root) {
      root = *options.root;
    } else {
      const std::vector<int> roots = rootCandidates(program);
      if (roots.size() != 1) {
        result.note = "not verified: the root of this " +
                      std::string(collectiveTitle(program.collective)) +
                      " cannot be inferred; pass one";
        return result;
      }
      root = roots.front();
    }
    if (root < 0 || root >= plan.ranks) {
      result.note = "not verified: root " + std::to_string(root) + " is not a rank";
      return result;
    }
  }
  const CollectiveSpec spec(program.collective, plan.ranks, program.nchunksperloop, root);
  if (spec.share() < 1 && program.collective != Collective::AllReduce &&
      program.collective != Collective::Broadcast && program.collective != Collective::Reduce) {
    result.note = "not verified: nchunksperloop is smaller than the rank count";
    return result;
  }
  const Pattern pattern(options.dtype, options.op, plan.ranks);
  withStorageType(options.dtype, [&]<typename T>() {
    withReduceOp(options.op, [&]<ReduceOp Op>() {
      verifyTyped<T, Op>(program, spec, pattern, options.verifyRank, state, result);
    });
  });
  result.status = result.wrong == 0 ? ExecStatus::Verified : ExecStatus::Wrong;
  result.note = std::string(collectiveTitle(program.collective)) + " result compared bit for bit " +
                "with a host reference" +
                (root >= 0 ? " (root " + std::to_string(root) + ")" : "") +
                (options.verifyRank ? " on rank " + std::to_string(*options.verifyRank) : "");
  return result;
}

} // namespace cs::plan
