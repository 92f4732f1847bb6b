#include "ncclrounds_p.h"

#include "phasegraph_p.h"
#include "roundassembly_p.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cs::nccl {

namespace {

// ---- What each step contributes. ----

struct StepNodes {
  int start = -1;
  int done = -1;
  int recv = -1;
  int local = -1;
  int stage = -1;
  int send = -1;
  int recvIndex = -1; ///< message index on the receive connection
  int sendIndex = -1;
  int recvMessage = -1; ///< index into the matched messages, -1: none (or unmatched)
  int sendMessage = -1;
  int publisher = -1; ///< the step of depTb whose completion satisfies the dependency
  bool unmatchedRecv = false;
  bool staged = false;
  /// Steps (plan threadblock, position) that come after this one on its rank and overwrite what
  /// its send reads.
  std::vector<std::pair<int, int>> overwriters;
};

bool hasLocalLoop(OpType type)
{
  switch (type) {
  case OpType::RecvReduceSend:
  case OpType::RecvReduceCopy:
  case OpType::RecvReduceCopySend:
  case OpType::Copy:
  case OpType::Reduce:
    return true;
  default:
    return false;
  }
}

Location stepLocation(const plan::PlannedThreadblock& tb, int step)
{
  Location location;
  location.rank = tb.rank;
  location.tb = tb.tb;
  location.step = step;
  return location;
}

class Scheduler
{
public:
  Scheduler(const plan::RunPlan& plan, Diagnostics& out) : m_plan(plan), m_out(out) {}

  std::optional<RoundSchedule> run(std::vector<BlockedPosition>& blocked)
  {
    findPublishers();
    if (!matchMessages())
      return std::nullopt;
    for (int rank = 0; rank < m_plan.ranks; ++rank)
      findOverwriters(rank);
    // A message whose source is overwritten later first makes the writer wait for the receiver.
    // Only where that closes a cycle is the message staged (a copy the threadblock makes at once,
    // as MSCCL copies into its FIFO); a cycle that staging does not break is a deadlock.
    for (;;) {
      buildGraph();
      blocked = blockedPositions();
      if (blocked.empty())
        return buildSchedule();
      bool stagedMore = false;
      for (std::vector<StepNodes>& steps : m_nodes) {
        for (StepNodes& nodes : steps) {
          if (!nodes.overwriters.empty() && !nodes.staged && !m_graph.timed(nodes.send)) {
            nodes.staged = true;
            stagedMore = true;
          }
        }
      }
      if (!stagedMore)
        return std::nullopt;
    }
  }

private:
  const plan::PlannedThreadblock& tbAt(int index) const
  {
    return m_plan.threadblocks[static_cast<std::size_t>(index)];
  }
  StepNodes& nodesOf(int tb, int step)
  {
    return m_nodes[static_cast<std::size_t>(tb)][static_cast<std::size_t>(step)];
  }
  int tbIndex(int rank, int tb) const
  {
    return m_plan.firstThreadblock[static_cast<std::size_t>(rank)] + tb;
  }
  int tbCount(int rank) const
  {
    const int first = m_plan.firstThreadblock[static_cast<std::size_t>(rank)];
    const int next = rank + 1 < m_plan.ranks
                         ? m_plan.firstThreadblock[static_cast<std::size_t>(rank + 1)]
                         : static_cast<int>(m_plan.threadblocks.size());
    return next - first;
  }

  void findPublishers()
  {
    m_nodes.resize(m_plan.threadblocks.size());
    for (std::size_t t = 0; t < m_plan.threadblocks.size(); ++t) {
      const plan::PlannedThreadblock& tb = m_plan.threadblocks[t];
      m_nodes[t].resize(tb.steps.size());
      for (std::size_t s = 0; s < tb.steps.size(); ++s) {
        const plan::PlannedStep& step = tb.steps[s];
        if (step.depTb < 0)
          continue;
        const plan::PlannedThreadblock& target = tbAt(tbIndex(tb.rank, step.depTb));
        for (int m = step.depStep; m < static_cast<int>(target.steps.size()); ++m) {
          if (target.steps[static_cast<std::size_t>(m)].publishes) {
            m_nodes[t][s].publisher = m;
            break;
          }
        }
      }
    }
  }

  /// Pairs the k-th send and the k-th receive of every connection into one group node.
  bool matchMessages()
  {
    std::vector<int> senderOf(m_plan.connections.size(), -1);
    std::vector<int> receiverOf(m_plan.connections.size(), -1);
    for (std::size_t t = 0; t < m_plan.threadblocks.size(); ++t) {
      if (m_plan.threadblocks[t].sendConnection >= 0)
        senderOf[static_cast<std::size_t>(m_plan.threadblocks[t].sendConnection)] =
            static_cast<int>(t);
      if (m_plan.threadblocks[t].recvConnection >= 0)
        receiverOf[static_cast<std::size_t>(m_plan.threadblocks[t].recvConnection)] =
            static_cast<int>(t);
    }
    bool sizesAgree = true;
    for (std::size_t c = 0; c < m_plan.connections.size(); ++c) {
      const std::vector<int> sends = positions(senderOf[c], true);
      const std::vector<int> recvs = positions(receiverOf[c], false);
      const ConnectionKey key = m_plan.connections[c].key;
      for (std::size_t i = 0; i < recvs.size(); ++i) {
        StepNodes& receiver = nodesOf(receiverOf[c], recvs[i]);
        receiver.recvIndex = static_cast<int>(i);
        if (i >= sends.size()) {
          receiver.unmatchedRecv = true;
          continue;
        }
        StepNodes& sender = nodesOf(senderOf[c], sends[i]);
        sender.sendIndex = static_cast<int>(i);
        sender.sendMessage = receiver.recvMessage = static_cast<int>(m_messages.size());
        sizesAgree &=
            checkSizes(senderOf[c], sends[i], receiverOf[c], recvs[i], key, static_cast<int>(i));
        m_messages.push_back({key, static_cast<int>(i), tbAt(senderOf[c]).tb, sends[i],
                              tbAt(receiverOf[c]).tb, recvs[i], -1});
      }
      if (sends.size() > recvs.size()) {
        const int unmatched = static_cast<int>(sends.size() - recvs.size());
        m_unmatchedSends += unmatched;
        const plan::PlannedThreadblock& tb = tbAt(senderOf[c]);
        const int first = sends[recvs.size()];
        m_out.warning("exec.unmatched-send",
                      describe(stepLocation(tb, first)) + ": this send and the " +
                          std::to_string(unmatched - 1) + " after it to rank " +
                          std::to_string(key.to) + " on channel " + std::to_string(key.chan) +
                          " have no matching receive; MSCCL would leave them in the connection, "
                          "the NCCL executor does not post them",
                      stepLocation(tb, first));
      }
    }
    return sizesAgree;
  }

  std::vector<int> positions(int tbIdx, bool sends) const
  {
    std::vector<int> result;
    if (tbIdx < 0)
      return result;
    const plan::PlannedThreadblock& tb = tbAt(tbIdx);
    for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
      const OpTraits traits = opTraits(tb.steps[static_cast<std::size_t>(s)].type);
      if (sends ? traits.sends : traits.receives)
        result.push_back(s);
    }
    return result;
  }

  bool checkSizes(int senderIdx, int sendStep, int receiverIdx, int recvStep,
                  const ConnectionKey& key, int index)
  {
    const plan::PlannedThreadblock& receiver = tbAt(receiverIdx);
    const plan::PlannedStep& recv = receiver.steps[static_cast<std::size_t>(recvStep)];
    const plan::PlannedStep& send = tbAt(senderIdx).steps[static_cast<std::size_t>(sendStep)];
    if (recv.cnt == send.cnt)
      return true;
    const Location where = stepLocation(receiver, recvStep);
    m_out.error("exec.message-size",
                describe(where) + ": " + std::string(opTypeName(recv.type)) + " expects " +
                    std::to_string(std::int64_t{recv.cnt} * m_plan.chunkElements) +
                    " elements but message " + std::to_string(index) + " from rank " +
                    std::to_string(key.from) + " on channel " + std::to_string(key.chan) + " has " +
                    std::to_string(std::int64_t{send.cnt} * m_plan.chunkElements) +
                    " (cnt differs between send and receive)",
                where);
    return false;
  }

  /// Happens-before on one rank as vector clocks: clock[step][tb] is the last step of tb that
  /// completes before `step` starts (or is `step` itself). Steps inside a dependency cycle keep an
  /// empty clock; the cycle is reported by the phase graph.
  std::vector<std::vector<std::vector<int>>> vectorClocks(int rank) const
  {
    const int tbs = tbCount(rank);
    const int first = m_plan.firstThreadblock[static_cast<std::size_t>(rank)];
    std::vector<std::vector<std::vector<int>>> clocks(static_cast<std::size_t>(tbs));
    std::vector<std::vector<int>> pending(static_cast<std::size_t>(tbs));
    // waiters[tb][m]: steps whose dependency step m of tb satisfies.
    std::vector<std::vector<std::vector<std::pair<int, int>>>> waiters(
        static_cast<std::size_t>(tbs));
    std::vector<std::pair<int, int>> ready;
    for (int t = 0; t < tbs; ++t) {
      const std::size_t steps = tbAt(first + t).steps.size();
      clocks[static_cast<std::size_t>(t)].resize(steps);
      pending[static_cast<std::size_t>(t)].assign(steps, 0);
      waiters[static_cast<std::size_t>(t)].resize(steps);
    }
    for (int t = 0; t < tbs; ++t) {
      const plan::PlannedThreadblock& tb = tbAt(first + t);
      for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
        int& count = pending[static_cast<std::size_t>(t)][static_cast<std::size_t>(s)];
        count += s > 0 ? 1 : 0;
        const plan::PlannedStep& step = tb.steps[static_cast<std::size_t>(s)];
        const int publisher =
            m_nodes[static_cast<std::size_t>(first + t)][static_cast<std::size_t>(s)].publisher;
        if (step.depTb >= 0 && publisher >= 0) {
          ++count;
          waiters[static_cast<std::size_t>(step.depTb)][static_cast<std::size_t>(publisher)]
              .push_back({t, s});
        } else if (step.depTb >= 0) {
          ++count; // waits for a position nobody publishes
        }
        if (count == 0)
          ready.push_back({t, s});
      }
    }
    while (!ready.empty()) {
      const auto [t, s] = ready.back();
      ready.pop_back();
      std::vector<int>& clock = clocks[static_cast<std::size_t>(t)][static_cast<std::size_t>(s)];
      clock.assign(static_cast<std::size_t>(tbs), -1);
      const auto merge = [&clock](const std::vector<int>& other) {
        for (std::size_t i = 0; i < clock.size(); ++i)
          clock[i] = std::max(clock[i], other[i]);
      };
      if (s > 0)
        merge(clocks[static_cast<std::size_t>(t)][static_cast<std::size_t>(s - 1)]);
      const plan::PlannedStep& step = tbAt(first + t).steps[static_cast<std::size_t>(s)];
      if (step.depTb >= 0) {
        const int publisher =
            m_nodes[static_cast<std::size_t>(first + t)][static_cast<std::size_t>(s)].publisher;
        merge(clocks[static_cast<std::size_t>(step.depTb)][static_cast<std::size_t>(publisher)]);
      }
      clock[static_cast<std::size_t>(t)] = s;
      const auto release = [&](int tb, int position) {
        if (--pending[static_cast<std::size_t>(tb)][static_cast<std::size_t>(position)] == 0)
          ready.push_back({tb, position});
      };
      if (s + 1 < static_cast<int>(clocks[static_cast<std::size_t>(t)].size()))
        release(t, s + 1);
      for (const auto& [waiterTb, waiterStep] :
           waiters[static_cast<std::size_t>(t)][static_cast<std::size_t>(s)])
        release(waiterTb, waiterStep);
    }
    return clocks;
  }

  /// Records, for every send that reads memory, the steps after it on its rank that write that
  /// memory: the receiver may take the message later than such a write.
  void findOverwriters(int rank)
  {
    const int first = m_plan.firstThreadblock[static_cast<std::size_t>(rank)];
    const int tbs = tbCount(rank);
    std::map<std::pair<Buffer, std::int64_t>, std::vector<std::pair<int, int>>> writers;
    for (int t = 0; t < tbs; ++t) {
      const plan::PlannedThreadblock& tb = tbAt(first + t);
      for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
        const plan::PlannedStep& step = tb.steps[static_cast<std::size_t>(s)];
        if (const std::optional<plan::OperandRef> dst = writtenMemory(step)) {
          for (int c = 0; c < step.cnt; ++c)
            writers[{dst->memory, std::int64_t{dst->index} + c}].push_back({t, s});
        }
      }
    }
    if (writers.empty())
      return;
    const auto clocks = vectorClocks(rank);
    for (int t = 0; t < tbs; ++t) {
      const plan::PlannedThreadblock& tb = tbAt(first + t);
      for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
        const plan::PlannedStep& step = tb.steps[static_cast<std::size_t>(s)];
        StepNodes& nodes = nodesOf(first + t, s);
        const std::optional<plan::OperandRef> source = sendSourceInMemory(step);
        if (!source || nodes.sendMessage < 0)
          continue;
        for (int c = 0; c < step.cnt; ++c) {
          const auto found = writers.find({source->memory, std::int64_t{source->index} + c});
          if (found == writers.end())
            continue;
          for (const auto& [wt, ws] : found->second) {
            const std::vector<int>& clock =
                clocks[static_cast<std::size_t>(wt)][static_cast<std::size_t>(ws)];
            const bool self = wt == t && ws == s;
            if (!self && !clock.empty() && clock[static_cast<std::size_t>(t)] >= s)
              nodes.overwriters.push_back({first + wt, ws});
          }
        }
      }
    }
  }

  /// The graph of every phase for the current choice of staged sends, solved.
  void buildGraph()
  {
    m_graph = PhaseGraph();
    std::vector<int> messageNodes(m_messages.size());
    for (int& node : messageNodes)
      node = m_graph.add(NodeKind::Group);
    for (std::size_t t = 0; t < m_nodes.size(); ++t) {
      for (std::size_t s = 0; s < m_nodes[t].size(); ++s) {
        StepNodes& nodes = m_nodes[t][s];
        const OpType type = m_plan.threadblocks[t].steps[s].type;
        nodes.start = m_graph.add(NodeKind::Event);
        nodes.done = m_graph.add(NodeKind::Event);
        nodes.local = hasLocalLoop(type) ? m_graph.add(NodeKind::Local) : -1;
        nodes.stage = nodes.staged ? m_graph.add(NodeKind::Local) : -1;
        nodes.send =
            nodes.sendMessage >= 0 ? messageNodes[static_cast<std::size_t>(nodes.sendMessage)] : -1;
        nodes.recv =
            nodes.recvMessage >= 0 ? messageNodes[static_cast<std::size_t>(nodes.recvMessage)] : -1;
        if (nodes.unmatchedRecv) {
          nodes.recv = m_graph.add(NodeKind::Group);
          m_graph.never(nodes.recv);
        }
      }
    }
    orderPhases();
    for (std::vector<StepNodes>& steps : m_nodes) {
      for (StepNodes& nodes : steps) {
        const int read = nodes.staged ? nodes.stage : nodes.send;
        for (const auto& [wt, ws] : nodes.overwriters) {
          const StepNodes& writer = nodesOf(wt, ws);
          const bool byReceive = !hasLocalLoop(tbAt(wt).steps[static_cast<std::size_t>(ws)].type);
          m_graph.order(read, byReceive ? writer.recv : writer.local, 1);
        }
      }
    }
    m_graph.solve();
  }

  void orderPhases()
  {
    for (std::size_t t = 0; t < m_nodes.size(); ++t) {
      const plan::PlannedThreadblock& tb = m_plan.threadblocks[t];
      for (std::size_t s = 0; s < m_nodes[t].size(); ++s) {
        const StepNodes& nodes = m_nodes[t][s];
        const plan::PlannedStep& step = tb.steps[s];
        if (s > 0)
          m_graph.order(m_nodes[t][s - 1].done, nodes.start, 0);
        if (step.depTb >= 0) {
          if (nodes.publisher < 0)
            m_graph.never(nodes.start);
          else
            m_graph.order(nodesOf(tbIndex(tb.rank, step.depTb), nodes.publisher).done, nodes.start,
                          0);
        }
        // The receive, when there is one, is what the rest of the step waits for.
        m_graph.order(nodes.start, nodes.recv, 0);
        for (const int phase : {nodes.local, nodes.stage, nodes.done}) {
          m_graph.order(nodes.start, phase, 0);
          m_graph.order(nodes.recv, phase, 1);
        }
        m_graph.order(nodes.local, nodes.done, 1);
        m_graph.order(nodes.stage, nodes.done, 1);
        // A send comes after whatever produced its data; the threadblock does not wait for it.
        m_graph.order(nodes.start, nodes.send, 0);
        m_graph.order(nodes.recv, nodes.send, 1);
        m_graph.order(nodes.local, nodes.send, 1);
        m_graph.order(nodes.stage, nodes.send, 1);
      }
    }
  }

  std::vector<BlockedPosition> blockedPositions() const
  {
    std::vector<BlockedPosition> blocked;
    for (std::size_t t = 0; t < m_nodes.size(); ++t) {
      const plan::PlannedThreadblock& tb = m_plan.threadblocks[t];
      for (std::size_t s = 0; s < m_nodes[t].size(); ++s) {
        const StepNodes& nodes = m_nodes[t][s];
        const plan::PlannedStep& step = tb.steps[s];
        if (m_graph.timed(nodes.done))
          continue;
        BlockedPosition position{
            tb.rank, tb.tb, static_cast<int>(s), 0, WaitKind::Message, -1, tb.chan, -1, -1};
        if (!m_graph.timed(nodes.start) || !opTraits(step.type).receives) {
          position.waitsFor = WaitKind::Flag;
          position.depTb = step.depTb;
          position.depStep = step.depStep;
        } else {
          position.peer = tb.recv;
        }
        blocked.push_back(position);
        break;
      }
    }
    return blocked;
  }

  RoundSchedule buildSchedule()
  {
    RoundSchedule schedule;
    for (const std::vector<StepNodes>& steps : m_nodes) {
      schedule.stagedSends += static_cast<int>(
          std::count_if(steps.begin(), steps.end(), [](const StepNodes& n) { return n.staged; }));
    }
    schedule.unmatchedSends = m_unmatchedSends;
    schedule.steps.resize(m_nodes.size());
    int last = -1;
    for (std::size_t t = 0; t < m_nodes.size(); ++t) {
      for (const StepNodes& nodes : m_nodes[t]) {
        StepTimes times;
        times.recv = m_graph.time(nodes.recv);
        times.local = m_graph.time(nodes.local);
        times.stage = m_graph.time(nodes.stage);
        times.send = m_graph.time(nodes.send);
        times.start = m_graph.time(nodes.start);
        times.done = m_graph.time(nodes.done);
        last = std::max({last, times.recv, times.local, times.stage, times.send});
        schedule.steps[t].push_back(times);
      }
    }
    schedule.rounds = last < 0 ? 0 : RoundSchedule::roundOf(last) + 1;
    std::vector<std::vector<MessageIndices>> indices(m_nodes.size());
    for (std::size_t t = 0; t < m_nodes.size(); ++t) {
      for (const StepNodes& nodes : m_nodes[t])
        indices[t].push_back({nodes.recvIndex, nodes.sendIndex});
    }
    assembleRounds(m_plan, indices, std::move(m_messages), schedule);
    return schedule;
  }

  const plan::RunPlan& m_plan;
  Diagnostics& m_out;
  PhaseGraph m_graph;
  std::vector<std::vector<StepNodes>> m_nodes; ///< per plan threadblock, per step
  std::vector<ScheduledMessage> m_messages;
  int m_unmatchedSends = 0;
};

} // namespace

std::optional<RoundSchedule> scheduleRounds(const plan::RunPlan& plan,
                                            std::vector<BlockedPosition>& blocked, Diagnostics& out)
{
  blocked.clear();
  return Scheduler(plan, out).run(blocked);
}

} // namespace cs::nccl
