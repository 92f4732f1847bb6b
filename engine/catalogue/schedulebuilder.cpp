#include "schedulebuilder_p.h"

#include <algorithm>
#include <bit>
#include <tuple>

namespace cs::catalogue {

namespace {

/// Blocks of `buffer` in `collective`: the per-rank-blocked buffers (all-gather output,
/// reduce-scatter input, all-to-all both) have one block per rank; channel copies interleave
/// inside each block so that block p stays rank p's data.
int blocksOf(Collective collective, Buffer buffer, int ranks)
{
  const bool blocked = (collective == Collective::AllGather && buffer == Buffer::Output) ||
                       (collective == Collective::ReduceScatter && buffer == Buffer::Input) ||
                       (collective == Collective::AllToAll && buffer != Buffer::Scratch);
  return blocked ? ranks : 1;
}

/// Maps chunk `index` of a one-channel buffer of `chunks` chunks in `blocks` blocks to copy
/// `channel` of `channels`.
int replicaIndex(int index, int chunks, int blocks, int channel, int channels)
{
  const int k = std::max(1, chunks / blocks);
  return (index / k) * channels * k + channel * k + index % k;
}

/// Reduce/broadcast times of a heap-ordered binary tree of `size` nodes, starting at step 0.
struct TreeTimes {
  std::vector<int> done;     ///< step at whose start node v holds its subtree's sum
  std::vector<int> reduceAt; ///< step in which node v's sum reaches its parent
  std::vector<int> ready;    ///< step at whose start node v holds the final result
  int steps = 0;
};

TreeTimes treeTimes(int size)
{
  TreeTimes t;
  t.done.assign(static_cast<std::size_t>(size), 0);
  t.reduceAt.assign(static_cast<std::size_t>(size), -1);
  t.ready.assign(static_cast<std::size_t>(size), 0);
  for (int v = size - 1; v >= 0; --v) {
    const int left = 2 * v + 1;
    const int right = 2 * v + 2;
    int next = 0;
    if (left < size) {
      t.reduceAt[static_cast<std::size_t>(left)] = t.done[static_cast<std::size_t>(left)];
      next = t.done[static_cast<std::size_t>(left)] + 1;
    }
    if (right < size) {
      // One write per chunk and step: the right child waits for the left child's step.
      const int at = std::max(t.done[static_cast<std::size_t>(right)], next);
      t.reduceAt[static_cast<std::size_t>(right)] = at;
      next = at + 1;
    }
    t.done[static_cast<std::size_t>(v)] = next;
  }
  if (size > 0)
    t.ready[0] = t.done[0];
  t.steps = size > 0 ? t.done[0] : 0;
  for (int v = 1; v < size; ++v) {
    t.ready[static_cast<std::size_t>(v)] = t.ready[static_cast<std::size_t>((v - 1) / 2)] + 1;
    t.steps = std::max(t.steps, t.ready[static_cast<std::size_t>(v)]);
  }
  return t;
}

} // namespace

ScheduleBuilder::ScheduleBuilder(Collective collective, int ranks, RankBuffers buffers)
{
  m_schedule.collective = collective;
  m_schedule.ranks = ranks;
  m_schedule.setUniformBuffers(buffers);
}

void ScheduleBuilder::copy(int step, ChunkRef src, ChunkRef dst, int count)
{
  Transfer t;
  t.id = static_cast<int>(m_schedule.transfers.size());
  t.step = step;
  t.src = src;
  t.dst = dst;
  t.count = count;
  t.op = TransferOp::Copy;
  m_schedule.transfers.push_back(t);
}

void ScheduleBuilder::reduce(int step, ChunkRef src, ChunkRef dst, int count)
{
  copy(step, src, dst, count);
  m_schedule.transfers.back().op = TransferOp::Reduce;
}

namespace {

/// Sorts `list` by `less`, unless it is strictly increasing already (then sorting would change
/// nothing, not even the order of equal neighbours): generators mostly emit in order, and
/// sorting two million ordered transfers was much of generating a 1,024-rank ring.
template <typename Less> void sortUnlessOrdered(std::vector<Transfer>& list, Less less)
{
  const auto notBefore = [&](const Transfer& a, const Transfer& b) { return !less(a, b); };
  if (std::adjacent_find(list.begin(), list.end(), notBefore) != list.end())
    std::sort(list.begin(), list.end(), less);
}

/// Sorts the transfers and joins neighbours that move consecutive chunks between the same
/// buffers in the same step into one multi-chunk transfer.
std::vector<Transfer> mergeConsecutive(std::vector<Transfer> list)
{
  auto key = [](const Transfer& t) {
    return std::tuple(t.step, t.op, t.src.rank, t.src.buffer, t.dst.rank, t.dst.buffer,
                      t.src.index - t.dst.index, t.src.index);
  };
  sortUnlessOrdered(list, [&](const Transfer& a, const Transfer& b) { return key(a) < key(b); });
  // Joined in place (the first `kept` entries are the result so far): a second vector of two
  // million transfers was a 170 MB copy.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Transfer& t = list[i];
    if (kept > 0) {
      Transfer& last = list[kept - 1];
      if (last.step == t.step && last.op == t.op && last.src.rank == t.src.rank &&
          last.src.buffer == t.src.buffer && last.dst.rank == t.dst.rank &&
          last.dst.buffer == t.dst.buffer && last.src.index + last.count == t.src.index &&
          last.dst.index + last.count == t.dst.index) {
        last.count += t.count;
        continue;
      }
    }
    if (kept != i)
      list[kept] = t;
    ++kept;
  }
  list.resize(kept);
  std::vector<Transfer> merged = std::move(list);
  sortUnlessOrdered(merged, [](const Transfer& a, const Transfer& b) {
    return std::tie(a.step, a.src.rank, a.dst.rank, a.src.index) <
           std::tie(b.step, b.src.rank, b.dst.rank, b.src.index);
  });
  return merged;
}

} // namespace

void ScheduleBuilder::replicateForChannel(const Transfer& t, int channel, int channels,
                                          Schedule& result) const
{
  const RankBuffers single =
      m_schedule.buffers.empty() ? RankBuffers{} : m_schedule.buffers.front();
  auto map = [&](ChunkRef ref) {
    const int chunks = single.chunks(ref.buffer);
    ref.index = replicaIndex(ref.index, chunks,
                             blocksOf(m_schedule.collective, ref.buffer, m_schedule.ranks), channel,
                             channels);
    return ref;
  };
  // A multi-chunk transfer stays contiguous inside a block; split it at block boundaries.
  int done = 0;
  while (done < t.count) {
    Transfer copy = t;
    copy.src.index = t.src.index + done;
    copy.dst.index = t.dst.index + done;
    int run = 1;
    while (done + run < t.count) {
      ChunkRef s = copy.src;
      ChunkRef d = copy.dst;
      s.index += run;
      d.index += run;
      if (map(s).index != map(copy.src).index + run || map(d).index != map(copy.dst).index + run)
        break;
      ++run;
    }
    copy.src = map(copy.src);
    copy.dst = map(copy.dst);
    copy.count = run;
    copy.id = static_cast<int>(result.transfers.size());
    if (channels > 1)
      copy.pins.channel = channel;
    result.transfers.push_back(copy);
    done += run;
  }
}

Schedule ScheduleBuilder::finish(const std::string& base, const GeneratorOptions& options,
                                 Modes modes)
{
  const int channels = std::max(1, options.channels);
  // The builder is spent: its transfers are moved, not copied (two million at 1,024 ranks).
  std::vector<Transfer> merged = mergeConsecutive(std::move(m_schedule.transfers));
  m_schedule.transfers.clear();
  Schedule result = m_schedule;
  result.name = base + "_" + std::to_string(options.ranks) + "r" +
                (channels > 1 ? "_" + std::to_string(channels) + "ch" : "");
  result.inplace = modes != Modes::OutOfPlace;
  result.outofplace = modes != Modes::InPlace;
  result.transfers.clear();
  if (channels > 1) {
    for (RankBuffers& buffers : result.buffers) {
      buffers.input *= channels;
      buffers.output *= channels;
      buffers.scratch *= channels;
    }
  }
  if (channels == 1) { // every index kept (replicaIndex is the identity): moved, not copied
    std::erase_if(merged, [](const Transfer& t) { return t.count <= 0; });
    for (std::size_t i = 0; i < merged.size(); ++i)
      merged[i].id = static_cast<int>(i);
    result.transfers = std::move(merged);
    return result;
  }
  result.transfers.reserve(merged.size() * static_cast<std::size_t>(channels));
  for (int channel = 0; channel < channels; ++channel) {
    for (const Transfer& t : merged)
      replicateForChannel(t, channel, channels, result);
  }
  return result;
}

int ringReduceScatter(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                      int block, int first)
{
  const int g = static_cast<int>(members.size());
  for (int s = 0; s + 1 < g; ++s) {
    for (int p = 0; p < g; ++p) {
      const int index = base + wrap(p - s - 1, g) * block;
      const int from = members[static_cast<std::size_t>(p)];
      const int to = members[static_cast<std::size_t>(wrap(p + 1, g))];
      b.reduce(first + s, {from, buffer, index}, {to, buffer, index}, block);
    }
  }
  return first + std::max(0, g - 1);
}

int ringAllGather(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                  int block, int first)
{
  const int g = static_cast<int>(members.size());
  for (int s = 0; s + 1 < g; ++s) {
    for (int p = 0; p < g; ++p) {
      const int index = base + wrap(p - s, g) * block;
      const int from = members[static_cast<std::size_t>(p)];
      const int to = members[static_cast<std::size_t>(wrap(p + 1, g))];
      b.copy(first + s, {from, buffer, index}, {to, buffer, index}, block);
    }
  }
  return first + std::max(0, g - 1);
}

int treeAllReduce(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                  int count, int first)
{
  const int size = static_cast<int>(members.size());
  const TreeTimes t = treeTimes(size);
  for (int v = 1; v < size; ++v) {
    const std::size_t node = static_cast<std::size_t>(v);
    const int parent = members[static_cast<std::size_t>((v - 1) / 2)];
    b.reduce(first + t.reduceAt[node], {members[node], buffer, base}, {parent, buffer, base},
             count);
    b.copy(first + t.ready[node] - 1, {parent, buffer, base}, {members[node], buffer, base}, count);
  }
  return first + t.steps;
}

int treeAllReduceSteps(int size)
{
  return treeTimes(size).steps;
}

int nodeSize(const GeneratorOptions& options)
{
  constexpr int kDefaultNode = 8;
  if (options.groupSize > 0)
    return options.groupSize;
  return std::min(options.ranks, kDefaultNode);
}

std::optional<std::string> needsWholeNodes(const GeneratorOptions& options)
{
  if (std::optional<std::string> reason = needsTwoRanks(options))
    return reason;
  const int group = nodeSize(options);
  if (options.ranks % group != 0)
    return "needs whole nodes: " + std::to_string(options.ranks) +
           " ranks are not a multiple of the group size " + std::to_string(group) +
           " (--group, default 8)";
  return std::nullopt;
}

std::vector<int> strided(int first, int stride, int count)
{
  std::vector<int> ranks;
  ranks.reserve(static_cast<std::size_t>(std::max(0, count)));
  for (int i = 0; i < count; ++i)
    ranks.push_back(first + i * stride);
  return ranks;
}

double messageUs(const CostParameters& cost, double bytes)
{
  return cost.alphaUs + bytes / (cost.betaGBps * 1e3);
}

int ceilLog2(int n)
{
  return n <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<unsigned>(n - 1)));
}

bool isPowerOfTwo(int n)
{
  return n > 0 && std::has_single_bit(static_cast<unsigned>(n));
}

std::optional<std::string> needsTwoRanks(const GeneratorOptions& options)
{
  if (options.ranks < 2)
    return "needs at least 2 ranks (got " + std::to_string(options.ranks) + ")";
  return std::nullopt;
}

} // namespace cs::catalogue
