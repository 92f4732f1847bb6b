// Lifting: messages matched in order per connection become transfers, local instructions become
// local transfers, and steps come from dependency depth (liftgraph_p.h).

#include "lift.h"

#include "liftgraph_p.h"

#include "../model/buffergeometry.h"
#include "../model/connections.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_map>

namespace cs {

namespace {

using lifting::Edge;

/// One lifted transfer before steps are known.
struct Node {
  Transfer transfer;
  bool writes = true; ///< every lifted transfer writes its destination
};

/// A few node ids, kept inline: an instruction has at most the copy of its local operand and a
/// received message, or one local transfer, and its sent message (only a malformed file, one
/// that gives two threadblocks one id, adds more). Lifting holds one list per instruction, two
/// million of them for a 1,024-rank ring, so a heap allocation each dominated lifting.
class NodeList
{
public:
  class Iterator
  {
  public:
    Iterator(const NodeList& list, std::size_t at) : m_list(&list), m_at(at) {}
    int operator*() const { return (*m_list)[m_at]; }
    Iterator& operator++()
    {
      ++m_at;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return m_at != other.m_at; }

  private:
    const NodeList* m_list;
    std::size_t m_at;
  };

  void push_back(int node)
  {
    if (m_size < kInline)
      m_inline[m_size] = node;
    else
      m_more.push_back(node);
    ++m_size;
  }
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  int operator[](std::size_t k) const { return k < kInline ? m_inline[k] : m_more[k - kInline]; }
  int front() const { return (*this)[0]; }
  Iterator begin() const { return {*this, 0}; }
  Iterator end() const { return {*this, m_size}; }

private:
  static constexpr std::uint32_t kInline = 3;
  std::array<int, kInline> m_inline{};
  std::uint32_t m_size = 0;
  std::vector<int> m_more;
};

/// Where one instruction's transfers are, in the order they happen inside it: an optional copy
/// of the local operand, the received message, the forwarded message.
struct Parts {
  NodeList receive; ///< local operand copy, received message, or the local transfer
  int send = -1;    ///< the forwarded (or sent) message

  NodeList nodes() const
  {
    NodeList all = receive;
    if (send >= 0)
      all.push_back(send);
    return all;
  }
};

class Lifter
{
public:
  explicit Lifter(const Program& program) : m_program(program) {}

  LiftResult run()
  {
    LiftResult result;
    if (checkShape()) {
      indexInstructions();
      matchMessages();
      if (!m_out.hasErrors())
        buildLocalNodes();
      if (!m_out.hasErrors())
        buildEdges();
      if (!m_out.hasErrors()) {
        std::vector<int> transferOfNode;
        Schedule schedule = makeSchedule(transferOfNode);
        if (!m_out.hasErrors()) {
          result.schedule = std::move(schedule);
          result.origins = makeOrigins(transferOfNode);
        }
      }
    }
    result.diagnostics = m_out.take();
    return result;
  }

private:
  Location where(int rank, int tb, int step) const
  {
    Location location;
    location.rank = rank;
    location.tb = tb;
    location.step = step;
    return location;
  }

  bool checkShape()
  {
    const Program& p = m_program;
    if (p.ngpus < 1 || static_cast<int>(p.gpus.size()) != p.ngpus) {
      m_out.error("lift.structure", "ngpus is " + std::to_string(p.ngpus) +
                                        " but the program has " + std::to_string(p.gpus.size()) +
                                        " gpus");
      return false;
    }
    for (int r = 0; r < p.ngpus; ++r) {
      const Gpu& gpu = p.gpus[static_cast<std::size_t>(r)];
      if (gpu.id != r) {
        m_out.error("lift.structure", "gpu ids must be 0.." + std::to_string(p.ngpus - 1) +
                                          "; found id " + std::to_string(gpu.id) + " in place " +
                                          std::to_string(r));
        return false;
      }
      for (const ThreadBlock& tb : gpu.threadblocks) {
        for (const int peer : {tb.send, tb.recv}) {
          if (peer < -1 || peer >= p.ngpus || peer == r) {
            m_out.error("lift.structure",
                        "threadblock " + std::to_string(tb.id) + " of rank " + std::to_string(r) +
                            " names peer " + std::to_string(peer) + ", not another rank",
                        where(r, tb.id, -1));
            return false;
          }
        }
      }
    }
    return true;
  }

  // Flat instruction ids: m_base[rank][tb index] + position.
  void indexInstructions()
  {
    int next = 0;
    m_base.resize(m_program.gpus.size());
    for (std::size_t r = 0; r < m_program.gpus.size(); ++r) {
      for (const ThreadBlock& tb : m_program.gpus[r].threadblocks) {
        m_base[r].push_back(next);
        next += static_cast<int>(tb.steps.size());
      }
    }
    m_parts.assign(static_cast<std::size_t>(next), {});
    // About one node per instruction and a few edges each: reserving spares the copies of
    // growing (reserved pages that are never written cost nothing).
    m_nodes.reserve(static_cast<std::size_t>(next) + 16);
    m_edges.reserve(4 * static_cast<std::size_t>(next) + 16);
  }

  int tbIndex(int rank, int tbId) const
  {
    const auto& tbs = m_program.gpus[static_cast<std::size_t>(rank)].threadblocks;
    for (std::size_t k = 0; k < tbs.size(); ++k)
      if (tbs[k].id == tbId)
        return static_cast<int>(k);
    return -1;
  }

  int instruction(int rank, int tbIdx, int position) const
  {
    return m_base[static_cast<std::size_t>(rank)][static_cast<std::size_t>(tbIdx)] + position;
  }

  const ThreadBlock& tbAt(int rank, int tbIdx) const
  {
    return m_program.gpus[static_cast<std::size_t>(rank)]
        .threadblocks[static_cast<std::size_t>(tbIdx)];
  }

  bool slotOk(int rank, Buffer buffer, int offset, int count, int tb, int step)
  {
    const int chunks = m_program.gpus[static_cast<std::size_t>(rank)].chunks(buffer);
    if (offset >= 0 && count >= 1 && offset + count <= chunks)
      return true;
    m_out.error("lift.operand",
                "rank " + std::to_string(rank) + " tb " + std::to_string(tb) + " step " +
                    std::to_string(step) + " uses " + std::string(bufferName(buffer)) + "[" +
                    std::to_string(offset) + "] with cnt " + std::to_string(count) +
                    ", outside the buffer's " + std::to_string(chunks) + " chunks",
                where(rank, tb, step));
    return false;
  }

  int addNode(Transfer t)
  {
    m_nodes.push_back({std::move(t), true});
    return static_cast<int>(m_nodes.size()) - 1;
  }

  // The value a send-type step puts on the wire lives in: src for s and rrs (lifted rrs reduces
  // into its local operand), dst for rcs and rrcs (which store what they forward).
  ChunkRef sentFrom(int rank, const Step& s) const
  {
    if (s.type == OpType::RecvCopySend || s.type == OpType::RecvReduceCopySend)
      return {rank, s.dstBuf, s.dstOff};
    return {rank, s.srcBuf, s.srcOff};
  }

  void matchMessages()
  {
    for (const auto& [key, ends] : buildConnections(m_program)) {
      if (key.from < 0 || key.to < 0 || key.from >= m_program.ngpus || key.to >= m_program.ngpus)
        continue;
      if (ends.senders.size() > 1 || ends.receivers.size() > 1) {
        m_out.error("lift.connection",
                    "connection " + std::to_string(key.from) + " -> " + std::to_string(key.to) +
                        " on channel " + std::to_string(key.chan) + " is driven by " +
                        std::to_string(ends.senders.size()) + " sending and " +
                        std::to_string(ends.receivers.size()) + " receiving threadblocks",
                    where(key.from, ends.senders.empty() ? -1 : ends.senders.front(), -1));
        continue;
      }
      const int sIdx = ends.senders.empty() ? -1 : tbIndex(key.from, ends.senders.front());
      const int rIdx = ends.receivers.empty() ? -1 : tbIndex(key.to, ends.receivers.front());
      const std::vector<int> sends =
          sIdx < 0 ? std::vector<int>{} : sendPositions(tbAt(key.from, sIdx));
      const std::vector<int> recvs =
          rIdx < 0 ? std::vector<int>{} : receivePositions(tbAt(key.to, rIdx));
      const std::size_t paired = std::min(sends.size(), recvs.size());
      if (sends.size() != recvs.size()) {
        const bool moreSends = sends.size() > recvs.size();
        const int rank = moreSends ? key.from : key.to;
        const int tb = moreSends ? ends.senders.front() : ends.receivers.front();
        const int step = moreSends ? sends[paired] : recvs[paired];
        m_out.error(moreSends ? "lift.unmatched-send" : "lift.unmatched-receive",
                    "rank " + std::to_string(rank) + " tb " + std::to_string(tb) + " step " +
                        std::to_string(step) + " has no matching " +
                        (moreSends ? "receive on rank " + std::to_string(key.to)
                                   : "send on rank " + std::to_string(key.from)) +
                        " (channel " + std::to_string(key.chan) + ")",
                    where(rank, tb, step));
      }
      for (std::size_t k = 0; k < paired; ++k)
        addMessage(key, sIdx, sends[k], rIdx, recvs[k]);
    }
  }

  void addMessage(const ConnectionKey& key, int sIdx, int sPos, int rIdx, int rPos)
  {
    const ThreadBlock& stb = tbAt(key.from, sIdx);
    const ThreadBlock& rtb = tbAt(key.to, rIdx);
    const Step& s = stb.steps[static_cast<std::size_t>(sPos)];
    const Step& r = rtb.steps[static_cast<std::size_t>(rPos)];
    if (s.cnt != r.cnt) {
      m_out.error("lift.count-mismatch",
                  "rank " + std::to_string(key.from) + " tb " + std::to_string(stb.id) + " step " +
                      std::to_string(sPos) + " sends cnt " + std::to_string(s.cnt) +
                      " but its receive on rank " + std::to_string(key.to) + " tb " +
                      std::to_string(rtb.id) + " step " + std::to_string(rPos) + " takes " +
                      std::to_string(r.cnt),
                  where(key.from, stb.id, sPos));
      return;
    }
    Transfer t;
    t.src = sentFrom(key.from, s);
    t.count = r.cnt;
    t.pins.channel = stb.chan;
    t.pins.threadblock = stb.id;
    const bool reduces = opTraits(r.type).reduces;
    t.op = reduces ? TransferOp::Reduce : TransferOp::Copy;
    // rrs stores nothing; it is lifted as a reduce into its local operand followed by a send of
    // that slot. That is how msccl-tools itself writes it before fusion (reduce, then send), and
    // lowering fuses the pair back into rrs whenever the slot is overwritten before it is read.
    const ChunkRef local{key.to, r.srcBuf, r.srcOff};
    t.dst = r.type == OpType::RecvReduceSend ? local : ChunkRef{key.to, r.dstBuf, r.dstOff};
    if (!slotOk(key.from, t.src.buffer, t.src.index, t.count, stb.id, sPos) ||
        !slotOk(key.to, t.dst.buffer, t.dst.index, t.count, rtb.id, rPos))
      return;
    Parts& receiver = m_parts[static_cast<std::size_t>(instruction(key.to, rIdx, rPos))];
    if (reduces && r.type != OpType::RecvReduceSend && !(local == t.dst)) {
      // dst = local ⊕ received with local != dst: copy the operand over, then reduce into dst.
      if (!slotOk(key.to, local.buffer, local.index, t.count, rtb.id, rPos))
        return;
      Transfer copy;
      copy.src = local;
      copy.dst = t.dst;
      copy.count = t.count;
      copy.pins.threadblock = rtb.id;
      const int copyNode = addNode(copy);
      m_operandCopy.resize(m_nodes.size(), false);
      m_operandCopy[static_cast<std::size_t>(copyNode)] = true;
      receiver.receive.push_back(copyNode);
    }
    const int node = addNode(t);
    receiver.receive.push_back(node);
    const int sending = instruction(key.from, sIdx, sPos);
    m_parts[static_cast<std::size_t>(sending)].send = node;
    m_forwardOf.resize(m_nodes.size(), -1);
    m_forwardOf[static_cast<std::size_t>(node)] = sending;
  }

  void buildLocalNodes()
  {
    for (std::size_t r = 0; r < m_program.gpus.size(); ++r) {
      const auto& tbs = m_program.gpus[r].threadblocks;
      for (std::size_t k = 0; k < tbs.size(); ++k) {
        for (std::size_t pos = 0; pos < tbs[k].steps.size(); ++pos) {
          const Step& s = tbs[k].steps[pos];
          if (s.type != OpType::Copy && s.type != OpType::Reduce)
            continue;
          const int rank = static_cast<int>(r);
          if (!slotOk(rank, s.srcBuf, s.srcOff, s.cnt, tbs[k].id, static_cast<int>(pos)) ||
              !slotOk(rank, s.dstBuf, s.dstOff, s.cnt, tbs[k].id, static_cast<int>(pos)))
            continue;
          Transfer t;
          t.src = {rank, s.srcBuf, s.srcOff};
          t.dst = {rank, s.dstBuf, s.dstOff};
          t.count = s.cnt;
          t.op = s.type == OpType::Copy ? TransferOp::Copy : TransferOp::Reduce;
          t.pins.threadblock = tbs[k].id;
          m_parts[static_cast<std::size_t>(
                      instruction(rank, static_cast<int>(k), static_cast<int>(pos)))]
              .receive.push_back(addNode(t));
        }
      }
    }
  }

  // Whether a node, as a part of instruction `inst`, writes on that instruction's rank.
  bool writesAt(int node, int inst) const
  {
    return m_forwardOf[static_cast<std::size_t>(node)] != inst;
  }

  void buildEdges()
  {
    m_forwardOf.resize(m_nodes.size(), -1);
    m_operandCopy.resize(m_nodes.size(), false);
    for (std::size_t r = 0; r < m_program.gpus.size(); ++r) {
      const auto& tbs = m_program.gpus[r].threadblocks;
      for (std::size_t k = 0; k < tbs.size(); ++k) {
        int previous = -1;
        std::unordered_map<std::uint64_t, int>& lastWriter = m_lastWriter; // inside this tb
        lastWriter.clear();
        std::vector<int> pendingDeps; // instructions named by nops, carried to the next real step
        for (std::size_t pos = 0; pos < tbs[k].steps.size(); ++pos) {
          const Step& s = tbs[k].steps[pos];
          const int rank = static_cast<int>(r);
          const int inst = instruction(rank, static_cast<int>(k), static_cast<int>(pos));
          if (s.depid >= 0) {
            const int target = tbIndex(rank, s.depid);
            if (target >= 0 && s.deps >= 0 &&
                s.deps < static_cast<int>(tbAt(rank, target).steps.size()))
              pendingDeps.push_back(instruction(rank, target, s.deps));
          }
          const NodeList nodes = m_parts[static_cast<std::size_t>(inst)].nodes();
          if (nodes.empty())
            continue;
          // Inside the instruction: each part after the previous one.
          for (std::size_t p = 1; p < nodes.size(); ++p)
            m_edges.push_back({nodes[p - 1], nodes[p], writesAt(nodes[p - 1], inst) ? 1 : 0});
          if (previous >= 0)
            link(previous, inst, false);
          for (int dep : pendingDeps)
            link(dep, inst, true);
          addDataEdges(static_cast<int>(r), inst, nodes, lastWriter);
          pendingDeps.clear();
          previous = inst;
        }
      }
    }
  }

  // Within a threadblock, program order alone puts nothing a step later; what does is a write
  // that a later part reads or overwrites (weight 1, straight from that writer).
  void addDataEdges(int rank, int inst, const NodeList& nodes,
                    std::unordered_map<std::uint64_t, int>& lastWriter)
  {
    const CallMode mode = m_program.inplace ? CallMode::InPlace : CallMode::OutOfPlace;
    const auto slot = [&](const ChunkRef& ref, int c) {
      const MemorySlot m = memorySlot(m_program, rank, ref.buffer, ref.index + c, mode);
      return (static_cast<std::uint64_t>(m.memory) << 32) | static_cast<std::uint32_t>(m.index);
    };
    for (int node : nodes) {
      const Transfer& t = m_nodes[static_cast<std::size_t>(node)].transfer;
      const bool sendPart = m_forwardOf[static_cast<std::size_t>(node)] == inst;
      std::vector<std::uint64_t>& touched = m_touched;
      touched.clear();
      for (int c = 0; c < t.count; ++c) {
        if (sendPart || t.isLocal())
          touched.push_back(slot(t.src, c));
        if (!sendPart)
          touched.push_back(slot(t.dst, c));
      }
      for (std::uint64_t key : touched) {
        const auto found = lastWriter.find(key);
        if (found != lastWriter.end() && found->second != node)
          m_edges.push_back({found->second, node, 1});
      }
      if (!sendPart)
        for (int c = 0; c < t.count; ++c)
          lastWriter[slot(t.dst, c)] = node;
    }
  }

  void link(int before, int after, bool dependency)
  {
    const NodeList from = m_parts[static_cast<std::size_t>(before)].nodes();
    const NodeList to = m_parts[static_cast<std::size_t>(after)].nodes();
    std::size_t first = 0;
    if (m_operandCopy[static_cast<std::size_t>(to.front())] && to.size() > 1) {
      // The operand copy only needs what was written before it. Ordering it after the previous
      // instruction's sends too would make every hop of a ring two steps long on the receiver
      // but one on the sender: a contradiction around the ring.
      for (int n : from)
        if (writesAt(n, before))
          m_edges.push_back({n, to.front(), 1});
      first = 1;
    }
    for (int n : from)
      m_edges.push_back({n, to[first], dependency && writesAt(n, before) ? 1 : 0});
  }

  /// The primary transfer of each instruction: what it receives (not the copy of its local
  /// operand), else what it sends.
  std::vector<InstructionOrigin> makeOrigins(const std::vector<int>& transferOfNode) const
  {
    std::vector<InstructionOrigin> origins;
    for (std::size_t r = 0; r < m_program.gpus.size(); ++r) {
      const Gpu& gpu = m_program.gpus[r];
      for (std::size_t t = 0; t < gpu.threadblocks.size(); ++t) {
        const int steps = static_cast<int>(gpu.threadblocks[t].steps.size());
        for (int position = 0; position < steps; ++position) {
          const int inst = m_base[r][t] + position;
          int primary = -1;
          for (int node : m_parts[static_cast<std::size_t>(inst)].nodes()) {
            const auto index = static_cast<std::size_t>(node);
            if (index >= m_operandCopy.size() || !m_operandCopy[index]) {
              primary = node;
              break;
            }
          }
          if (primary < 0)
            continue;
          origins.push_back({.rank = gpu.id,
                             .tb = gpu.threadblocks[t].id,
                             .step = position,
                             .transferId = transferOfNode[static_cast<std::size_t>(primary)],
                             .instance = 0});
        }
      }
    }
    return origins;
  }

  Schedule makeSchedule(std::vector<int>& transferOfNode)
  {
    std::vector<int> levels;
    if (!lifting::levelsByDepth(static_cast<int>(m_nodes.size()), m_edges, levels)) {
      // Program order is an over-approximation of data order, so a program that runs fine can
      // still close a cycle here; keep the numbering reached and say it is approximate.
      m_out.warning("lift.cycle", "program order, dependencies and messages form a cycle; the "
                                  "step numbers of the lifted schedule are approximate");
    }
    Schedule schedule;
    schedule.name = m_program.name;
    schedule.collective = m_program.collective;
    schedule.ranks = m_program.ngpus;
    for (const Gpu& gpu : m_program.gpus)
      schedule.buffers.push_back({gpu.inputChunks, gpu.outputChunks, gpu.scratchChunks});
    schedule.inplace = m_program.usableInPlace();
    schedule.outofplace = m_program.usableOutOfPlace();
    // Nodes by level, in node order within a level (a stable counting sort: levels are steps).
    const int highest = levels.empty() ? -1 : *std::max_element(levels.begin(), levels.end());
    std::vector<std::size_t> start(static_cast<std::size_t>(highest) + 2, 0);
    for (const int level : levels)
      ++start[static_cast<std::size_t>(level) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<int> order(m_nodes.size());
    for (std::size_t n = 0; n < m_nodes.size(); ++n)
      order[start[static_cast<std::size_t>(levels[n])]++] = static_cast<int>(n);
    transferOfNode.assign(m_nodes.size(), -1);
    schedule.transfers.reserve(m_nodes.size());
    for (int n : order) {
      // Each node becomes one transfer, once: its transfer can move.
      Transfer t = std::move(m_nodes[static_cast<std::size_t>(n)].transfer);
      t.id = static_cast<int>(schedule.transfers.size());
      transferOfNode[static_cast<std::size_t>(n)] = t.id;
      t.step = levels[static_cast<std::size_t>(n)];
      schedule.transfers.push_back(std::move(t));
    }
    return schedule;
  }

  const Program& m_program;
  Diagnostics m_out;
  std::vector<std::vector<int>> m_base;
  std::vector<Parts> m_parts;
  std::vector<Node> m_nodes;
  std::vector<int> m_forwardOf;    ///< per node: the instruction that sends it, -1 for local nodes
  std::vector<bool> m_operandCopy; ///< per node: the copy of an rrc/rrcs operand into its dst
  std::vector<Edge> m_edges;
  std::unordered_map<std::uint64_t, int> m_lastWriter; ///< addDataEdges: slot → node, one tb
  std::vector<std::uint64_t> m_touched;                ///< addDataEdges: one node's slots
};

} // namespace

LiftResult liftProgram(const Program& program)
{
  return Lifter(program).run();
}

} // namespace cs
