// Residency packing (issue 18): the runtime launches every threadblock of a rank in one kernel
// and they spin-wait on each other, so all of them must be resident at once (msccl-format §4.5).
// Threadblock assignment gives every connection its own threadblock; when a rank ends up with
// more than the target GPU keeps resident (or the runtime launches), this pass packs them:
//   - a send-only and a receive-only threadblock on the same channel become one (a threadblock
//     may own one send and one receive connection), the send to rank r+k paired with the receive
//     from rank r-k, so that for a symmetric pattern every packed threadblock does the matching
//     halves of one exchange;
//   - threadblocks holding only local copies join the threadblock with the fewest operations.
// A packed threadblock keeps its operations in the rank's total key order (lowerplan_p.h), the
// order every threadblock, connection and hazard already follows. That is what keeps it free of
// deadlocks: the operation with the smallest key not yet done anywhere is at the head of its
// threadblock, what it waits for (the matching send, a hazard) has a smaller key and is done, and
// the earlier messages of its connection were received at smaller keys, so a FIFO of one message
// has room. In an all-to-all step k, "send to r+k" (phase 0) comes before "receive from r-k"
// (phase 1): every rank sends before it waits, and the one-message FIFO holds the send.
// Only ranks over the limit are packed, so programs that fit are emitted unchanged.

#include "lowerplan_p.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace cs::lowering {

namespace {

/// The threadblocks of one rank by what they own.
struct RankTbs {
  std::vector<int> all;      ///< indices into Plan::tbs
  std::vector<int> sendOnly; ///< one send connection, no receive
  std::vector<int> recvOnly; ///< one receive connection, no send
  std::vector<int> local;    ///< no connection, some operations (local copies)
  bool pinned = false;       ///< a threadblock id is pinned: ids must stay as they are
};

std::vector<RankTbs> byRank(const Plan& plan)
{
  std::vector<RankTbs> ranks(static_cast<std::size_t>(plan.schedule->ranks));
  for (std::size_t t = 0; t < plan.tbs.size(); ++t) {
    const TbPlan& tb = plan.tbs[t];
    RankTbs& r = ranks[static_cast<std::size_t>(tb.rank)];
    const int index = static_cast<int>(t);
    r.all.push_back(index);
    if (tb.sendPeer >= 0 && tb.recvPeer < 0)
      r.sendOnly.push_back(index);
    else if (tb.recvPeer >= 0 && tb.sendPeer < 0)
      r.recvOnly.push_back(index);
    else if (tb.sendPeer < 0 && tb.recvPeer < 0 && !tb.ops.empty())
      r.local.push_back(index);
    for (int op : tb.ops) {
      const int transfer = plan.ops[static_cast<std::size_t>(op)].transfer;
      if (plan.transfers[static_cast<std::size_t>(transfer)].pins.threadblock)
        r.pinned = true;
    }
  }
  return ranks;
}

/// Packs the threadblocks of one rank; `absorbed[t]` marks the ones merged into another.
class RankPacker
{
public:
  RankPacker(Plan& plan, const std::vector<int>& orderPosition, std::vector<bool>& absorbed)
      : m_plan(plan), m_position(orderPosition), m_absorbed(absorbed)
  {
  }

  void pack(const RankTbs& rank, int budget)
  {
    m_count = static_cast<int>(rank.all.size());
    pairDirections(rank, budget);
    for (int local : rank.local)
      if (m_count > budget)
        joinLocal(local, rank.all);
  }

private:
  int ops(int t) const
  {
    return static_cast<int>(m_plan.tbs[static_cast<std::size_t>(t)].ops.size());
  }
  bool fits(int a, int b) const
  {
    return ops(a) + ops(b) <= m_plan.dialect->maxStepsPerThreadblock;
  }

  /// Pairs, per channel, the send to r+k with the receive from r-k while the rank is over budget.
  void pairDirections(const RankTbs& rank, int budget)
  {
    const int n = m_plan.schedule->ranks;
    // (channel, distance k) -> threadblock, for each direction.
    std::map<std::pair<int, int>, int> receives;
    for (int t : rank.recvOnly) {
      const TbPlan& tb = m_plan.tbs[static_cast<std::size_t>(t)];
      receives.emplace(std::pair(tb.channel, ((tb.rank - tb.recvPeer) % n + n) % n), t);
    }
    std::map<std::pair<int, int>, int> sends;
    for (int t : rank.sendOnly) {
      const TbPlan& tb = m_plan.tbs[static_cast<std::size_t>(t)];
      sends.emplace(std::pair(tb.channel, ((tb.sendPeer - tb.rank) % n + n) % n), t);
    }
    // Matching distances first, then whatever is left on the same channel.
    for (auto& [key, send] : sends) {
      const auto found = receives.find(key);
      if (m_count <= budget)
        return;
      if (found != receives.end() && fits(send, found->second)) {
        merge(send, found->second);
        receives.erase(found);
        send = -1;
      }
    }
    for (const auto& [key, send] : sends) {
      if (send < 0)
        continue;
      auto found = receives.lower_bound({key.first, 0});
      while (found != receives.end() && found->first.first == key.first &&
             !fits(send, found->second))
        ++found;
      if (m_count <= budget)
        return;
      if (found != receives.end() && found->first.first == key.first) {
        merge(send, found->second);
        receives.erase(found);
      }
    }
  }

  /// Local copies join the threadblock of the rank with the fewest operations that has room.
  void joinLocal(int local, const std::vector<int>& candidates)
  {
    int best = -1;
    for (int t : candidates) {
      if (t == local || m_absorbed[static_cast<std::size_t>(t)] || !fits(t, local))
        continue;
      if (best < 0 || ops(t) < ops(best))
        best = t;
    }
    if (best >= 0)
      merge(best, local);
  }

  /// Moves the operations of `from` into `into`, keeping key order, and takes over its peers.
  void merge(int into, int from)
  {
    TbPlan& a = m_plan.tbs[static_cast<std::size_t>(into)];
    TbPlan& b = m_plan.tbs[static_cast<std::size_t>(from)];
    std::vector<int> merged;
    merged.reserve(a.ops.size() + b.ops.size());
    std::merge(a.ops.begin(), a.ops.end(), b.ops.begin(), b.ops.end(), std::back_inserter(merged),
               [this](int x, int y) {
                 return m_position[static_cast<std::size_t>(x)] <
                        m_position[static_cast<std::size_t>(y)];
               });
    for (int op : b.ops)
      m_plan.ops[static_cast<std::size_t>(op)].tb = into;
    a.ops = std::move(merged);
    // A connected threadblock keeps its channel (the other is local or on the same channel).
    if (a.sendPeer < 0 && a.recvPeer < 0)
      a.channel = b.channel;
    if (a.sendPeer < 0)
      a.sendPeer = b.sendPeer;
    if (a.recvPeer < 0)
      a.recvPeer = b.recvPeer;
    b.ops.clear();
    m_absorbed[static_cast<std::size_t>(from)] = true;
    --m_count;
  }

  Plan& m_plan;
  const std::vector<int>& m_position;
  std::vector<bool>& m_absorbed;
  int m_count = 0;
};

/// Drops the absorbed threadblocks, renumbers the rest of each packed rank densely in their
/// previous id order, and points every op at its threadblock's new index.
void compact(Plan& plan, const std::vector<bool>& absorbed, const std::vector<bool>& packedRank)
{
  std::vector<int> newIndex(plan.tbs.size(), -1);
  std::vector<TbPlan> kept;
  kept.reserve(plan.tbs.size());
  for (std::size_t t = 0; t < plan.tbs.size(); ++t) {
    if (absorbed[t])
      continue;
    newIndex[t] = static_cast<int>(kept.size());
    kept.push_back(std::move(plan.tbs[t]));
  }
  for (Op& op : plan.ops)
    op.tb = newIndex[static_cast<std::size_t>(op.tb)];
  std::vector<std::vector<std::pair<int, int>>> ids(packedRank.size()); // (old id, index)
  for (std::size_t t = 0; t < kept.size(); ++t)
    if (packedRank[static_cast<std::size_t>(kept[t].rank)])
      ids[static_cast<std::size_t>(kept[t].rank)].emplace_back(kept[t].id, static_cast<int>(t));
  for (auto& rank : ids) {
    std::sort(rank.begin(), rank.end());
    for (std::size_t k = 0; k < rank.size(); ++k)
      kept[static_cast<std::size_t>(rank[k].second)].id = static_cast<int>(k);
  }
  plan.tbs = std::move(kept);
}

int maxThreadblocks(const std::vector<Gpu>& gpus)
{
  std::size_t most = 0;
  for (const Gpu& gpu : gpus)
    most = std::max(most, gpu.threadblocks.size());
  return static_cast<int>(most);
}

int maxSteps(const std::vector<Gpu>& gpus)
{
  std::size_t most = 0;
  for (const Gpu& gpu : gpus)
    for (const ThreadBlock& tb : gpu.threadblocks)
      most = std::max(most, tb.steps.size());
  return static_cast<int>(most);
}

/// The most distinct peers a rank has on one channel in one direction.
int maxPeersPerChannel(const std::vector<Gpu>& gpus)
{
  std::size_t most = 0;
  for (const Gpu& gpu : gpus) {
    std::map<int, std::set<int>> sendPeers; // channel -> peers
    std::map<int, std::set<int>> recvPeers;
    for (const ThreadBlock& tb : gpu.threadblocks) {
      if (tb.send >= 0)
        most = std::max(most, (sendPeers[tb.chan].insert(tb.send), sendPeers[tb.chan].size()));
      if (tb.recv >= 0)
        most = std::max(most, (recvPeers[tb.chan].insert(tb.recv), recvPeers[tb.chan].size()));
    }
  }
  return static_cast<int>(most);
}

/// Puts every connection between two single-connection threadblocks on the channel its distance
/// (receiver - sender, mod ranks) picks, round-robin over the channels in use, so that the send
/// to r+k and the receive from r-k of every rank share a channel and can be paired. Assignment
/// spreads connections round-robin in transfer order, which for an all-to-all put them on
/// unrelated channels. Only connections that are the single one between their two ranks, with no
/// pinned channel, move: the messages of such a connection keep their order on the new channel,
/// and no other connection of the pair can collide with it.
void alignChannelsByDistance(Plan& plan)
{
  const int n = plan.schedule->ranks;
  int channels = 1;
  std::map<std::pair<int, int>, std::vector<int>> sendTbs; // (sender, receiver) -> threadblocks
  std::map<std::pair<int, int>, std::vector<int>> recvTbs;
  for (std::size_t t = 0; t < plan.tbs.size(); ++t) {
    const TbPlan& tb = plan.tbs[t];
    channels = std::max(channels, tb.channel + 1);
    if (tb.sendPeer >= 0)
      sendTbs[{tb.rank, tb.sendPeer}].push_back(static_cast<int>(t));
    if (tb.recvPeer >= 0)
      recvTbs[{tb.recvPeer, tb.rank}].push_back(static_cast<int>(t));
  }
  const auto single = [&](int t) {
    const TbPlan& tb = plan.tbs[static_cast<std::size_t>(t)];
    if (tb.sendPeer >= 0 && tb.recvPeer >= 0)
      return false;
    return std::none_of(tb.ops.begin(), tb.ops.end(), [&](int op) {
      const int transfer = plan.ops[static_cast<std::size_t>(op)].transfer;
      return plan.transfers[static_cast<std::size_t>(transfer)].pins.channel.has_value();
    });
  };
  for (const auto& [pair, senders] : sendTbs) {
    const auto receivers = recvTbs.find(pair);
    if (senders.size() != 1 || receivers == recvTbs.end() || receivers->second.size() != 1 ||
        !single(senders.front()) || !single(receivers->second.front()))
      continue;
    const int channel = ((pair.second - pair.first) % n + n) % n % channels;
    for (int t : {senders.front(), receivers->second.front()}) {
      TbPlan& tb = plan.tbs[static_cast<std::size_t>(t)];
      tb.channel = channel;
      for (int op : tb.ops) {
        Op& o = plan.ops[static_cast<std::size_t>(op)];
        o.channel = channel;
        plan.channel[static_cast<std::size_t>(o.transfer)] = channel;
      }
    }
  }
}

/// Packs every rank of `plan` with more than `budget` threadblocks; whether any was packed.
bool packThreadblocks(Plan& plan, int budget)
{
  alignChannelsByDistance(plan);
  std::vector<int> position(plan.ops.size(), 0);
  for (std::size_t k = 0; k < plan.opOrder.size(); ++k)
    position[static_cast<std::size_t>(plan.opOrder[k])] = static_cast<int>(k);
  std::vector<bool> absorbed(plan.tbs.size(), false);
  std::vector<bool> packedRank(static_cast<std::size_t>(plan.schedule->ranks), false);
  RankPacker packer(plan, position, absorbed);
  const std::vector<RankTbs> ranks = byRank(plan);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (static_cast<int>(ranks[r].all.size()) <= budget || ranks[r].pinned)
      continue;
    packer.pack(ranks[r], budget);
    packedRank[r] = true;
  }
  if (std::none_of(absorbed.begin(), absorbed.end(), [](bool a) { return a; }))
    return false;
  compact(plan, absorbed, packedRank);
  return true;
}

} // namespace

void fitResidency(Plan& plan, int budget, Emitted& emitted)
{
  if (maxThreadblocks(emitted.gpus) <= budget)
    return;
  // Packing changes threadblocks, ops and channels; kept only when the result is within limits.
  std::vector<TbPlan> tbs = plan.tbs;
  std::vector<Op> ops = plan.ops;
  std::vector<int> channels = plan.channel;
  if (packThreadblocks(plan, budget)) {
    Emitted packed = emitProgram(plan);
    // The dependencies of a packed threadblock may add nops, and channels chosen by distance may
    // crowd one: past the dialect's limits the residency check reports the unpacked program.
    const Dialect& d = *plan.dialect;
    if (maxSteps(packed.gpus) <= d.maxStepsPerThreadblock &&
        maxPeersPerChannel(packed.gpus) <= d.maxPeersPerChannel) {
      emitted = std::move(packed);
      return;
    }
  }
  plan.tbs = std::move(tbs);
  plan.ops = std::move(ops);
  plan.channel = std::move(channels);
}

} // namespace cs::lowering

namespace cs {

int threadblockBudget(const LowerOptions& options)
{
  const Dialect& d = dialect(options.dialect);
  const GpuModel& model =
      options.gpu ? gpuModel(*options.gpu) : mostPermissiveGpu(dialectVendor(options.dialect));
  const int perRank =
      std::min(residentThreadblocks(model, options.dialect), d.maxThreadblocksPerRank);
  return std::max(1, perRank / std::max(1, options.instances));
}

int threadblocksNeeded(const Schedule& schedule)
{
  const auto ranks = static_cast<std::size_t>(std::max(0, schedule.ranks));
  std::vector<std::vector<int>> sendsTo(ranks);
  std::vector<std::vector<int>> receivesFrom(ranks);
  for (const Transfer& t : schedule.transfers) {
    const auto src = static_cast<std::size_t>(t.src.rank);
    const auto dst = static_cast<std::size_t>(t.dst.rank);
    if (t.isLocal() || src >= ranks || dst >= ranks)
      continue;
    sendsTo[src].push_back(t.dst.rank);
    receivesFrom[dst].push_back(t.src.rank);
  }
  std::size_t needed = 0;
  for (auto* peers : {&sendsTo, &receivesFrom})
    for (std::vector<int>& list : *peers) {
      std::sort(list.begin(), list.end());
      needed = std::max(
          needed, static_cast<std::size_t>(std::unique(list.begin(), list.end()) - list.begin()));
    }
  return static_cast<int>(needed);
}

} // namespace cs
