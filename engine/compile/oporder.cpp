// The per-rank operation order shared by every lowering stage (see lowerplan_p.h): rounds split a
// step's messages on one connection so that sending and receiving alternate.

#include "lowerplan_p.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cs::lowering {

void numberRounds(Plan& plan)
{
  plan.rounds.assign(plan.transfers.size(), 0);
  // (src, dst) → transfers seen this step: a table where ranks² is small enough, whose stamps
  // (the step's ordinal) spare clearing it between steps, and a hash map otherwise. The hash map
  // alone was a tenth of a 1,024-rank ring's lowering.
  struct Seen {
    std::uint32_t stamp = 0;
    int count = 0;
  };
  const auto ranks = static_cast<std::size_t>(std::max(0, plan.schedule->ranks));
  std::vector<Seen> table(ranks <= kDenseConnectionRanks ? ranks * ranks : 0);
  std::unordered_map<std::uint64_t, int> sparse;
  std::uint32_t stamp = 0;
  int step = -1;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) { // sorted by (step, id)
    const Transfer& t = plan.transfers[i];
    if (t.step != step || i == 0) {
      sparse.clear();
      ++stamp;
      step = t.step;
    }
    if (t.isLocal())
      continue;
    const auto src = static_cast<std::size_t>(static_cast<std::uint32_t>(t.src.rank));
    const auto dst = static_cast<std::size_t>(static_cast<std::uint32_t>(t.dst.rank));
    if (!table.empty() && src < ranks && dst < ranks) {
      Seen& seen = table[src * ranks + dst];
      if (seen.stamp != stamp)
        seen = {stamp, 0};
      plan.rounds[i] = seen.count++;
    } else {
      plan.rounds[i] = sparse[(std::uint64_t{src} << 32) | dst]++;
    }
  }
}

OpKey opKey(const Plan& plan, std::size_t index, int phase)
{
  const Transfer& t = plan.transfers[index];
  return {t.step, plan.rounds[index], t.isLocal() ? 0 : phase, t.id};
}

std::vector<std::uint32_t> opOrdinals(const Plan& plan)
{
  // The keys of a step are (round, phase, id) and the transfers of a step lie in id order, so a
  // stable counting sort of each step by (round, phase), as in orderOps, numbers them.
  const std::size_t n = plan.transfers.size();
  std::vector<std::uint32_t> ordinal(2 * n);
  std::vector<std::uint32_t> next;
  std::uint32_t placed = 0;
  std::size_t begin = 0;
  while (begin < n) {
    const int step = plan.transfers[begin].step;
    std::size_t end = begin;
    std::size_t buckets = 0;
    for (; end < n && plan.transfers[end].step == step; ++end)
      buckets = std::max(buckets, 2 * static_cast<std::size_t>(plan.rounds[end]) + 2);
    next.assign(buckets + 1, 0);
    const auto bucket = [&](std::size_t i, int phase) {
      return 2 * static_cast<std::size_t>(plan.rounds[i]) + static_cast<std::size_t>(phase);
    };
    for (std::size_t i = begin; i < end; ++i) {
      ++next[bucket(i, 0) + 1];
      if (!plan.transfers[i].isLocal())
        ++next[bucket(i, 1) + 1];
    }
    next[0] = placed;
    for (std::size_t b = 1; b < next.size(); ++b)
      next[b] += next[b - 1];
    placed = next.back();
    for (std::size_t i = begin; i < end; ++i) {
      ordinal[2 * i] = next[bucket(i, 0)]++;
      ordinal[2 * i + 1] = plan.transfers[i].isLocal() ? ordinal[2 * i] : next[bucket(i, 1)]++;
    }
    begin = end;
  }
  return ordinal;
}

void orderOps(Plan& plan)
{
  // plan.ops are built transfer by transfer, the transfers sorted by (step, id) and a transfer's
  // send before its receive, so the ops of a step are contiguous and already in id order there: a
  // stable counting sort of each step by (round, phase) gives the key order without sorting a
  // million keys (which took several percent of a 1,024-rank lowering, three times over).
  const auto bucketOf = [](const OpKey& key) {
    return static_cast<std::size_t>(key.round) * 2 + static_cast<std::size_t>(key.phase);
  };
  plan.opOrder.resize(plan.ops.size());
  std::vector<int> next;
  std::size_t begin = 0;
  while (begin < plan.ops.size()) {
    const int step = plan.ops[begin].key.step;
    std::size_t end = begin;
    std::size_t buckets = 0;
    for (; end < plan.ops.size() && plan.ops[end].key.step == step; ++end)
      buckets = std::max(buckets, bucketOf(plan.ops[end].key) + 1);
    next.assign(buckets + 1, 0);
    for (std::size_t k = begin; k < end; ++k)
      ++next[bucketOf(plan.ops[k].key) + 1];
    for (std::size_t b = 1; b < next.size(); ++b)
      next[b] += next[b - 1];
    for (std::size_t k = begin; k < end; ++k)
      plan.opOrder[begin + static_cast<std::size_t>(next[bucketOf(plan.ops[k].key)]++)] =
          static_cast<int>(k);
    begin = end;
  }
}

} // namespace cs::lowering
