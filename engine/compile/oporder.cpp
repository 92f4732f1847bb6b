// The per-rank operation order shared by every lowering stage (see lowerplan_p.h): rounds split a
// step's messages on one connection so that sending and receiving alternate.

#include "lowerplan_p.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace cs::lowering {

void numberRounds(Plan& plan)
{
  plan.rounds.assign(plan.transfers.size(), 0);
  std::unordered_map<std::uint64_t, int> perConnection; // (src, dst) → transfers seen this step
  int step = -1;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) { // sorted by (step, id)
    const Transfer& t = plan.transfers[i];
    if (t.step != step) {
      perConnection.clear();
      step = t.step;
    }
    if (t.isLocal())
      continue;
    const std::uint64_t key =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(t.src.rank)) << 32) |
        static_cast<std::uint32_t>(t.dst.rank);
    plan.rounds[i] = perConnection[key]++;
  }
}

OpKey opKey(const Plan& plan, std::size_t index, int phase)
{
  const Transfer& t = plan.transfers[index];
  return {t.step, plan.rounds[index], t.isLocal() ? 0 : phase, t.id};
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
