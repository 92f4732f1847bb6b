// Channel and threadblock assignment (msccl-format §4.5, §8.3 step 4): every threadblock owns
// at most one send and one receive connection (channel, peer), every connection is owned by one
// threadblock, pins are honoured, and fusions that cannot keep those rules are undone.

#include "lowerplan_p.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace cs::lowering {

namespace {

/// What a group of connections and pins forces on its threadblock.
struct Owner {
  int rank = -1;
  int sendPeer = -1;
  int recvPeer = -1;
  int channel = -1;
  int pin = -1;
};

bool compatible(int a, int b)
{
  return a < 0 || b < 0 || a == b;
}
int either(int a, int b)
{
  return a >= 0 ? a : b;
}

/// Union-find over connection ends and pinned threadblocks of all ranks.
class Groups
{
public:
  enum Kind : std::uint64_t { SendConn = 0, RecvConn = 1, Pin = 2 };

  int node(Kind kind, int rank, int channel, int peer)
  {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(kind) << 60) | (static_cast<std::uint64_t>(rank) << 36) |
        (static_cast<std::uint64_t>(channel) << 20) | static_cast<std::uint64_t>(peer);
    const auto [it, inserted] = m_index.try_emplace(key, static_cast<int>(m_parent.size()));
    if (inserted) {
      m_parent.push_back(it->second);
      Owner owner;
      owner.rank = rank;
      if (kind == SendConn) {
        owner.sendPeer = peer;
        owner.channel = channel;
      } else if (kind == RecvConn) {
        owner.recvPeer = peer;
        owner.channel = channel;
      } else {
        owner.pin = peer;
      }
      m_owner.push_back(owner);
    }
    return it->second;
  }

  int find(int x)
  {
    while (m_parent[static_cast<std::size_t>(x)] != x) {
      const int up = m_parent[static_cast<std::size_t>(m_parent[static_cast<std::size_t>(x)])];
      m_parent[static_cast<std::size_t>(x)] = up;
      x = up;
    }
    return x;
  }

  /// Merges the groups of a and b unless their owners contradict each other.
  bool unite(int a, int b)
  {
    a = find(a);
    b = find(b);
    if (a == b)
      return true;
    Owner& x = m_owner[static_cast<std::size_t>(a)];
    const Owner& y = m_owner[static_cast<std::size_t>(b)];
    if (!compatible(x.sendPeer, y.sendPeer) || !compatible(x.recvPeer, y.recvPeer) ||
        !compatible(x.channel, y.channel) || !compatible(x.pin, y.pin))
      return false;
    x.sendPeer = either(x.sendPeer, y.sendPeer);
    x.recvPeer = either(x.recvPeer, y.recvPeer);
    x.channel = either(x.channel, y.channel);
    x.pin = either(x.pin, y.pin);
    m_parent[static_cast<std::size_t>(b)] = a;
    return true;
  }

  const Owner& owner(int x) { return m_owner[static_cast<std::size_t>(find(x))]; }
  int size() const { return static_cast<int>(m_parent.size()); }

private:
  std::unordered_map<std::uint64_t, int> m_index;
  std::vector<int> m_parent;
  std::vector<Owner> m_owner;
};

/// Distinct peers per (rank, channel) in one direction, as chains are given channels.
class PeerLoad
{
public:
  /// Peers `rank` has on `channel` once `peer` is added.
  int after(int rank, int channel, int peer) const
  {
    const auto found = m_count.find(key(rank, channel));
    const int now = found == m_count.end() ? 0 : found->second;
    return now +
           (m_pairs.contains(key(rank, channel) << 21 | static_cast<std::uint64_t>(peer)) ? 0 : 1);
  }
  void add(int rank, int channel, int peer)
  {
    if (m_pairs.insert(key(rank, channel) << 21 | static_cast<std::uint64_t>(peer)).second)
      ++m_count[key(rank, channel)];
  }

private:
  static std::uint64_t key(int rank, int channel)
  {
    return static_cast<std::uint64_t>(rank) << 21 | static_cast<std::uint64_t>(channel);
  }
  std::unordered_set<std::uint64_t> m_pairs;
  std::unordered_map<std::uint64_t, int> m_count;
};

/// The channel for an unpinned chain whose first transfer is `head`: round-robin from `flow`,
/// skipping channels where the sender or receiver would have more distinct peers than on another
/// (with plain round-robin, an all-to-all over n ranks put all of a rank's peers on one channel
/// whenever the channel count divides n).
int leastCrowded(const Transfer& head, int flow, int channels, PeerLoad& sends, PeerLoad& recvs)
{
  int best = flow % channels;
  int bestPeers = std::numeric_limits<int>::max();
  for (int k = 0; k < channels && channels > 1; ++k) {
    const int c = (flow + k) % channels;
    const int peers = std::max(sends.after(head.src.rank, c, head.dst.rank),
                               recvs.after(head.dst.rank, c, head.src.rank));
    if (peers < bestPeers) {
      best = c;
      bestPeers = peers;
    }
  }
  sends.add(head.src.rank, best, head.dst.rank);
  recvs.add(head.dst.rank, best, head.src.rank);
  return best;
}

// Fusion chains share one channel: a pinned one if any transfer of the chain is pinned, else
// round-robin over `channels` so that long schedules spread over channels (and threadblocks),
// while no rank crowds its peers onto one channel (leastCrowded).
void chooseChannels(Plan& plan, int channels)
{
  const std::size_t n = plan.transfers.size();
  plan.channel.assign(n, -1);
  int flow = 0;
  PeerLoad sends;
  PeerLoad recvs;
  for (std::size_t i = 0; i < n; ++i) {
    if (plan.channel[i] >= 0)
      continue;
    // Walk the chain from its head; break it where a pin disagrees with the chain's channel.
    std::vector<std::size_t> chain{i};
    int pinned = plan.transfers[i].pins.channel.value_or(-1);
    for (std::size_t k = i; plan.fusions[k].enabled;) {
      const auto next = static_cast<std::size_t>(plan.fusions[k].forward);
      const int pin = plan.transfers[next].pins.channel.value_or(-1);
      if (!compatible(pinned, pin)) {
        plan.fusions[k].enabled = false;
        break;
      }
      pinned = either(pinned, pin);
      chain.push_back(next);
      k = next;
    }
    int chosen = pinned;
    if (chosen < 0)
      chosen = plan.transfers[i].isLocal()
                   ? 0
                   : leastCrowded(plan.transfers[i], flow++, channels, sends, recvs);
    for (std::size_t k : chain)
      plan.channel[k] = chosen;
  }
}

OpType receiveType(const Transfer& t, const Fusion& f)
{
  if (!f.enabled)
    return t.op == TransferOp::Copy ? OpType::Recv : OpType::RecvReduceCopy;
  if (t.op == TransferOp::Copy)
    return OpType::RecvCopySend;
  return f.valueNeeded ? OpType::RecvReduceCopySend : OpType::RecvReduceSend;
}

struct Attempt {
  std::vector<int> group;  ///< per op: union-find node, or -1 for the unpinned local pool
  std::vector<int> sendOp; ///< per transfer: the op that sends it (remote only)
  std::vector<int> recvOp; ///< per transfer: the op that receives it (remote only)
};

// Builds ops for the current fusion set and the groups they belong to. Pin contradictions go to
// `problems`; fusions whose threadblock would need two peers in one direction are disabled.
/// The union-find nodes of each transfer's send connection, receive connection and pin.
struct Nodes {
  std::vector<int> send;
  std::vector<int> recv;
  std::vector<int> pin;
};

// Unites every transfer with its connections and pins, then fuses what the pins allow.
Nodes uniteNodes(Plan& plan, Groups& groups, Diagnostics& problems)
{
  const std::size_t n = plan.transfers.size();
  // Pins first: they are the user's word, fusions yield to them.
  Nodes nodes{std::vector<int>(n, -1), std::vector<int>(n, -1), std::vector<int>(n, -1)};
  std::vector<int>& sendNode = nodes.send;
  std::vector<int>& recvNode = nodes.recv;
  std::vector<int>& pinNode = nodes.pin;
  for (std::size_t i = 0; i < n; ++i) {
    const Transfer& t = plan.transfers[i];
    const int ch = plan.channel[i];
    const int rank = t.isLocal() ? t.dst.rank : t.src.rank;
    if (t.pins.threadblock)
      pinNode[i] = groups.node(Groups::Pin, rank, 0, *t.pins.threadblock);
    if (t.isLocal())
      continue;
    sendNode[i] = groups.node(Groups::SendConn, t.src.rank, ch, t.dst.rank);
    recvNode[i] = groups.node(Groups::RecvConn, t.dst.rank, ch, t.src.rank);
    if (pinNode[i] >= 0 && !groups.unite(sendNode[i], pinNode[i])) {
      Location location;
      location.transfer = t.id;
      problems.error("lower.pin-conflict",
                     "transfer " + std::to_string(t.id) + " is pinned to threadblock " +
                         std::to_string(*t.pins.threadblock) + " of rank " +
                         std::to_string(t.src.rank) + ", which other pins give another peer " +
                         "or channel; a threadblock has one send peer on one channel",
                     location);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    Fusion& f = plan.fusions[i];
    if (!f.enabled)
      continue;
    const auto j = static_cast<std::size_t>(f.forward);
    if (!groups.unite(recvNode[i], sendNode[j]))
      f.enabled = false;
  }
  return nodes;
}

Op localOp(const Plan& plan, std::size_t i)
{
  const Transfer& t = plan.transfers[i];
  Op op;
  op.rank = t.dst.rank;
  op.key = opKey(plan, i, 0);
  op.type = t.op == TransferOp::Copy ? OpType::Copy : OpType::Reduce;
  op.transfer = static_cast<int>(i);
  op.srcBuf = t.src.buffer;
  op.srcOff = t.src.index;
  op.dstBuf = t.dst.buffer;
  op.dstOff = t.dst.index;
  op.cnt = t.count;
  return op;
}

Op sendOp(const Plan& plan, std::size_t i)
{
  const Transfer& t = plan.transfers[i];
  Op send;
  send.rank = t.src.rank;
  send.key = opKey(plan, i, 0);
  send.type = OpType::Send;
  send.transfer = static_cast<int>(i);
  send.sendPeer = t.dst.rank;
  send.channel = plan.channel[i];
  send.srcBuf = t.src.buffer;
  send.srcOff = t.src.index;
  // Documentation only (the runtime ignores it), as msccl-tools writes it.
  send.dstBuf = t.dst.buffer;
  send.dstOff = t.dst.index;
  send.cnt = t.count;
  return send;
}

Op receiveOp(const Plan& plan, std::size_t i)
{
  const Transfer& t = plan.transfers[i];
  const Fusion& f = plan.fusions[i];
  Op recv;
  recv.rank = t.dst.rank;
  recv.key = opKey(plan, i, 1);
  recv.type = receiveType(t, f);
  recv.transfer = static_cast<int>(i);
  recv.recvPeer = t.src.rank;
  recv.channel = plan.channel[i];
  // The local operand of a receive-reduce is the destination itself (msccl-format P7).
  recv.srcBuf = t.dst.buffer;
  recv.srcOff = t.dst.index;
  recv.dstBuf = t.dst.buffer;
  recv.dstOff = t.dst.index;
  recv.cnt = t.count;
  if (f.enabled) {
    recv.forward = f.forward;
    recv.sendPeer = plan.transfers[static_cast<std::size_t>(f.forward)].dst.rank;
  }
  return recv;
}

Attempt buildOps(Plan& plan, Groups& groups, Diagnostics& problems)
{
  const std::size_t n = plan.transfers.size();
  const Nodes nodes = uniteNodes(plan, groups, problems);
  Attempt attempt;
  attempt.sendOp.assign(n, -1);
  attempt.recvOp.assign(n, -1);
  plan.ops.clear();
  // At most a send and a receive per transfer; growing by doubling copied millions of ops.
  plan.ops.reserve(2 * n);
  attempt.group.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const Transfer& t = plan.transfers[i];
    if (t.isLocal()) {
      attempt.group.push_back(nodes.pin[i]);
      plan.ops.push_back(localOp(plan, i));
      continue;
    }
    const int from = plan.fusedFrom[i];
    if (from < 0 || !plan.fusions[static_cast<std::size_t>(from)].enabled) {
      attempt.sendOp[i] = static_cast<int>(plan.ops.size());
      attempt.group.push_back(nodes.send[i]);
      plan.ops.push_back(sendOp(plan, i));
    }
    const Fusion& f = plan.fusions[i];
    attempt.recvOp[i] = static_cast<int>(plan.ops.size());
    if (f.enabled)
      attempt.sendOp[static_cast<std::size_t>(f.forward)] = static_cast<int>(plan.ops.size());
    attempt.group.push_back(nodes.recv[i]);
    plan.ops.push_back(receiveOp(plan, i));
  }
  orderOps(plan);
  return attempt;
}

// Disables the fusions whose forwarded message breaks the send order of its connection.
// Returns whether any was disabled.
bool undoCrossingFusions(Plan& plan, const Attempt& attempt)
{
  // Each connection's messages in the order they are sent: the send ops in key order.
  std::vector<int> sentBy(plan.ops.size(), -1); // op → the transfer it sends
  for (std::size_t m = 0; m < attempt.sendOp.size(); ++m)
    if (attempt.sendOp[m] >= 0)
      sentBy[static_cast<std::size_t>(attempt.sendOp[m])] = static_cast<int>(m);
  std::unordered_map<std::uint64_t, std::size_t> connectionOf; // (src, dst, channel) → index
  std::vector<std::vector<int>> connections;
  for (int op : plan.opOrder) {
    const int m = sentBy[static_cast<std::size_t>(op)];
    if (m < 0)
      continue;
    const Transfer& t = plan.transfers[static_cast<std::size_t>(m)];
    const std::uint64_t key = static_cast<std::uint64_t>(t.src.rank) << 42 |
                              static_cast<std::uint64_t>(t.dst.rank) << 21 |
                              static_cast<std::uint64_t>(plan.channel[static_cast<std::size_t>(m)]);
    const auto [it, inserted] = connectionOf.try_emplace(key, connections.size());
    if (inserted)
      connections.emplace_back();
    connections[it->second].push_back(m);
  }
  const auto recvKey = [&](int m) {
    return plan.ops[static_cast<std::size_t>(attempt.recvOp[static_cast<std::size_t>(m)])].key;
  };
  bool changed = false;
  for (const std::vector<int>& messages : connections) {
    bool crossing = false;
    for (std::size_t k = 1; k < messages.size() && !crossing; ++k)
      crossing = !(recvKey(messages[k - 1]) < recvKey(messages[k]));
    if (!crossing)
      continue;
    for (int m : messages) {
      const int from = plan.fusedFrom[static_cast<std::size_t>(m)];
      if (from >= 0 && plan.fusions[static_cast<std::size_t>(from)].enabled) {
        plan.fusions[static_cast<std::size_t>(from)].enabled = false;
        changed = true;
      }
    }
  }
  return changed;
}

// Turns groups into threadblocks with dense ids per rank: pinned ids as given, the rest in order
// of their first operation, gaps filled with empty threadblocks.
void makeThreadblocks(Plan& plan, const Attempt& attempt, Groups& groups, int localCap)
{
  const int ranks = plan.schedule->ranks;
  plan.tbs.clear();
  std::unordered_map<int, int> tbOfGroup;
  std::vector<int> localTb(static_cast<std::size_t>(ranks), -1);
  for (int index : plan.opOrder) {
    Op& op = plan.ops[static_cast<std::size_t>(index)];
    const int node = attempt.group[static_cast<std::size_t>(index)];
    int tb = -1;
    if (node < 0) {
      int& current = localTb[static_cast<std::size_t>(op.rank)];
      if (current < 0 ||
          static_cast<int>(plan.tbs[static_cast<std::size_t>(current)].ops.size()) >= localCap) {
        current = static_cast<int>(plan.tbs.size());
        TbPlan fresh;
        fresh.rank = op.rank;
        plan.tbs.push_back(fresh);
      }
      tb = current;
    } else {
      const int root = groups.find(node);
      const auto [it, inserted] = tbOfGroup.try_emplace(root, static_cast<int>(plan.tbs.size()));
      if (inserted) {
        const Owner& owner = groups.owner(root);
        TbPlan fresh;
        fresh.rank = op.rank;
        fresh.id = owner.pin;
        fresh.sendPeer = owner.sendPeer;
        fresh.recvPeer = owner.recvPeer;
        fresh.channel = std::max(owner.channel, 0);
        plan.tbs.push_back(fresh);
      }
      tb = it->second;
    }
    op.tb = tb;
    plan.tbs[static_cast<std::size_t>(tb)].ops.push_back(index);
  }

  // Dense ids per rank.
  std::vector<std::vector<bool>> used(static_cast<std::size_t>(ranks));
  for (const TbPlan& tb : plan.tbs) {
    if (tb.id < 0)
      continue;
    auto& u = used[static_cast<std::size_t>(tb.rank)];
    if (u.size() <= static_cast<std::size_t>(tb.id))
      u.resize(static_cast<std::size_t>(tb.id) + 1, false);
    u[static_cast<std::size_t>(tb.id)] = true;
  }
  std::vector<std::size_t> nextFree(static_cast<std::size_t>(ranks), 0);
  for (TbPlan& tb : plan.tbs) { // already in order of first operation
    if (tb.id >= 0)
      continue;
    auto& u = used[static_cast<std::size_t>(tb.rank)];
    std::size_t& k = nextFree[static_cast<std::size_t>(tb.rank)];
    while (k < u.size() && u[k])
      ++k;
    tb.id = static_cast<int>(k);
    if (u.size() <= k)
      u.resize(k + 1, false);
    u[k] = true;
  }
  for (int r = 0; r < ranks; ++r) {
    const auto& u = used[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < u.size(); ++k) {
      if (!u[k]) {
        TbPlan filler;
        filler.rank = r;
        filler.id = static_cast<int>(k);
        plan.tbs.push_back(filler);
      }
    }
  }
}

} // namespace

std::vector<Diagnostic> assignThreadblocks(Plan& plan, int channels, int localCap)
{
  for (Fusion& f : plan.fusions)
    f.enabled = f.forward >= 0;
  chooseChannels(plan, std::max(channels, 1));
  while (true) {
    Groups groups;
    Diagnostics problems;
    const Attempt attempt = buildOps(plan, groups, problems);
    if (problems.hasErrors())
      return problems.take();
    if (undoCrossingFusions(plan, attempt))
      continue;
    makeThreadblocks(plan, attempt, groups, std::max(localCap, 1));
    return {};
  }
}

} // namespace cs::lowering
