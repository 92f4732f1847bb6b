#include "bufferreplay.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <tuple>

namespace cs::replay {

namespace {

using Values = std::vector<ValueId>;
/// (from rank, to rank, channel): messages on it are matched in order.
using ConnectionKey = std::tuple<int, int, int>;

std::vector<int> inputChunksPerRank(const Program& program)
{
  std::vector<int> chunks;
  for (const Gpu& gpu : program.gpus)
    chunks.push_back(gpu.inputChunks);
  return chunks;
}

} // namespace

/// One pass over the completed instructions, earliest completion first, each threadblock in
/// program order; a receive whose message has not been sent yet waits on its connection.
class BufferReplay::Execution
{
public:
  Execution(BufferReplay& replay, const Trace& trace)
      : m_replay(replay), m_program(replay.m_program)
  {
    for (int rank = 0; rank < static_cast<int>(m_program.gpus.size()); ++rank) {
      for (int index = 0; index < static_cast<int>(m_program.gpus[rank].threadblocks.size());
           ++index) {
        Lane lane;
        lane.rank = rank;
        lane.tbIndex = index;
        m_lanes.push_back(std::move(lane));
        m_laneOf[{rank, m_program.gpus[rank].threadblocks[index].id}] = m_lanes.size() - 1;
      }
    }
    collectCompletions(trace);
  }

  void run()
  {
    for (std::size_t lane = 0; lane < m_lanes.size(); ++lane)
      schedule(lane);
    while (!m_ready.empty()) {
      const std::size_t lane = m_ready.top().second;
      m_ready.pop();
      if (!execute(lane))
        continue; // parked until its message is sent
      ++m_lanes[lane].next;
      schedule(lane);
    }
  }

private:
  struct Lane {
    int rank = 0;
    int tbIndex = 0;
    int next = 0;             ///< the step to execute next
    double clock = 0;         ///< when the previous step's effect became visible
    std::vector<double> done; ///< per step: when its last slice ended, or -1
    std::vector<int> slices;  ///< per step: traced slices that ended
  };

  const ThreadBlock& threadblock(const Lane& lane) const
  {
    return m_program.gpus[lane.rank].threadblocks[lane.tbIndex];
  }

  void collectCompletions(const Trace& trace)
  {
    int slices = 1;
    for (const TraceEvent& event : trace.events)
      slices = std::max(slices, event.slice + 1);
    for (Lane& lane : m_lanes) {
      lane.done.assign(threadblock(lane).steps.size(), -1);
      lane.slices.assign(threadblock(lane).steps.size(), 0);
    }
    for (const TraceEvent& event : trace.events) {
      const auto found = m_laneOf.find({event.rank, event.tb});
      if (found == m_laneOf.end())
        continue;
      Lane& lane = m_lanes[found->second];
      if (event.step < 0 || event.step >= static_cast<int>(lane.done.size()))
        continue;
      lane.done[event.step] = std::max(lane.done[event.step], event.end);
      ++lane.slices[event.step];
    }
    // An instruction has taken effect once every slice of the run has passed through it.
    for (Lane& lane : m_lanes) {
      for (std::size_t step = 0; step < lane.done.size(); ++step) {
        if (lane.slices[step] < slices)
          lane.done[step] = -1;
      }
    }
  }

  void schedule(std::size_t lane)
  {
    const Lane& l = m_lanes[lane];
    if (l.next < static_cast<int>(l.done.size()) && l.done[l.next] >= 0)
      m_ready.push({l.done[l.next], lane});
  }

  Values read(int rank, Buffer buffer, int offset, int count) const
  {
    Values values;
    for (int k = 0; k < count; ++k) {
      const int memory = m_replay.memoryIndex(rank, buffer, offset + k);
      if (memory < 0) {
        values.push_back(kUninitialised);
        continue;
      }
      const MemoryChunk& chunk = m_replay.m_memory[memory];
      values.push_back(chunk.writes.empty() ? chunk.initial : chunk.writes.back().value);
    }
    return values;
  }

  void write(int rank, Buffer buffer, int offset, const Values& values, double timeUs)
  {
    for (std::size_t k = 0; k < values.size(); ++k) {
      const int memory = m_replay.memoryIndex(rank, buffer, offset + static_cast<int>(k));
      if (memory >= 0)
        m_replay.m_memory[memory].writes.push_back({timeUs, values[k]});
    }
  }

  Values combine(const Values& a, const Values& b)
  {
    Values sum(std::min(a.size(), b.size()));
    for (std::size_t k = 0; k < sum.size(); ++k)
      sum[k] = m_replay.m_values.combine(a[k], b[k]);
    return sum;
  }

  /// Runs the lane's next step; false when it must wait for a message.
  bool execute(std::size_t laneIndex)
  {
    Lane& lane = m_lanes[laneIndex];
    const ThreadBlock& tb = threadblock(lane);
    const Step& step = tb.steps[lane.next];
    const OpTraits traits = opTraits(step.type);
    double timeUs = std::max(lane.clock, lane.done[lane.next]);
    Values received;
    if (traits.receives) {
      const ConnectionKey key{tb.recv, lane.rank, tb.chan};
      auto& queue = m_messages[key];
      if (queue.empty()) {
        m_parked[key] = laneIndex;
        return false;
      }
      received = std::move(queue.front().values);
      timeUs = std::max(timeUs, queue.front().sentUs);
      queue.pop_front();
    }
    Values value = traits.readsSrc ? read(lane.rank, step.srcBuf, step.srcOff, step.cnt) : Values{};
    if (traits.receives)
      value = traits.reduces ? combine(received, value) : received;
    if (step.type == OpType::Reduce)
      value = combine(read(lane.rank, step.dstBuf, step.dstOff, step.cnt), value);
    if (traits.writesDst)
      write(lane.rank, step.dstBuf, step.dstOff, value, timeUs);
    if (traits.sends) {
      m_replay.m_sent[{lane.rank, tb.id, lane.next}] = value;
      send({lane.rank, tb.send, tb.chan}, std::move(value), timeUs);
    }
    lane.clock = timeUs;
    ++m_replay.m_executed;
    return true;
  }

  void send(const ConnectionKey& key, Values values, double timeUs)
  {
    m_messages[key].push_back({std::move(values), timeUs});
    const auto parked = m_parked.find(key);
    if (parked != m_parked.end()) {
      m_ready.push({timeUs, parked->second});
      m_parked.erase(parked);
    }
  }

  struct Message {
    Values values;
    double sentUs = 0;
  };

  BufferReplay& m_replay;
  const Program& m_program;
  std::vector<Lane> m_lanes;
  std::map<std::pair<int, int>, std::size_t> m_laneOf; ///< (rank, tb id) → lane
  std::map<ConnectionKey, std::deque<Message>> m_messages;
  std::map<ConnectionKey, std::size_t> m_parked;
  using Ready = std::pair<double, std::size_t>;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> m_ready;
};

BufferReplay::BufferReplay(const Program& program, const Trace& trace, CallMode mode)
    : m_program(program), m_mode(mode), m_tokens(inputChunksPerRank(program)),
      m_values(m_tokens.count())
{
  initialise();
  Execution(*this, trace).run();
  // Receives that waited for a late send were written in processing order, not time order.
  for (MemoryChunk& chunk : m_memory) {
    std::stable_sort(chunk.writes.begin(), chunk.writes.end(),
                     [](const Write& a, const Write& b) { return a.timeUs < b.timeUs; });
  }
}

void BufferReplay::initialise()
{
  const int ranks = static_cast<int>(m_program.gpus.size());
  m_sizes.assign(ranks, {0, 0, 0});
  m_base.assign(ranks, {0, 0, 0});
  for (int rank = 0; rank < ranks; ++rank) {
    for (int b = 0; b < kBufferCount; ++b) {
      const Buffer buffer = static_cast<Buffer>(b);
      for (int k = 0; k < chunks(rank, buffer); ++k) {
        const MemorySlot slot = memorySlot(m_program, rank, buffer, k, m_mode);
        int& size = m_sizes[rank][static_cast<int>(slot.memory)];
        size = std::max(size, slot.index + 1);
      }
    }
  }
  int next = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    for (int b = 0; b < kBufferCount; ++b) {
      m_base[rank][b] = next;
      next += m_sizes[rank][b];
    }
  }
  m_memory.assign(static_cast<std::size_t>(next), {});
  for (int rank = 0; rank < ranks; ++rank) {
    for (int k = 0; k < chunks(rank, Buffer::Input); ++k) {
      const std::optional<std::uint32_t> token = m_tokens.token(rank, k);
      const int memory = memoryIndex(rank, Buffer::Input, k);
      if (token && memory >= 0)
        m_memory[memory].initial = m_values.singleton(*token);
    }
  }
}

int BufferReplay::chunks(int rank, Buffer buffer) const
{
  if (rank < 0 || rank >= static_cast<int>(m_program.gpus.size()))
    return 0;
  // In place, a program may declare no chunks for the buffer it folds onto the other one, yet
  // the user still reads the result there.
  const int declared = m_program.gpus[rank].chunks(buffer);
  if (buffer == Buffer::Scratch)
    return declared;
  return std::max(declared, userBufferChunks(m_program, buffer).value_or(0));
}

int BufferReplay::memoryIndex(int rank, Buffer buffer, int index) const
{
  if (index < 0 || index >= chunks(rank, buffer))
    return -1;
  const MemorySlot slot = memorySlot(m_program, rank, buffer, index, m_mode);
  const int allocation = static_cast<int>(slot.memory);
  if (slot.index < 0 || slot.index >= m_sizes[rank][allocation])
    return -1;
  return m_base[rank][allocation] + slot.index;
}

ValueId BufferReplay::valueAt(int rank, Buffer buffer, int index, double timeUs) const
{
  const int memory = memoryIndex(rank, buffer, index);
  if (memory < 0)
    return kUninitialised;
  const MemoryChunk& chunk = m_memory[memory];
  const auto after =
      std::upper_bound(chunk.writes.begin(), chunk.writes.end(), timeUs,
                       [](double time, const Write& write) { return time < write.timeUs; });
  return after == chunk.writes.begin() ? chunk.initial : std::prev(after)->value;
}

double BufferReplay::changedAt(int rank, Buffer buffer, int index, double timeUs) const
{
  const int memory = memoryIndex(rank, buffer, index);
  if (memory < 0)
    return -1;
  const MemoryChunk& chunk = m_memory[memory];
  const auto after =
      std::upper_bound(chunk.writes.begin(), chunk.writes.end(), timeUs,
                       [](double time, const Write& write) { return time < write.timeUs; });
  return after == chunk.writes.begin() ? -1 : std::prev(after)->timeUs;
}

std::vector<ValueId> BufferReplay::sentBy(int rank, int tb, int step) const
{
  const auto found = m_sent.find({rank, tb, step});
  return found == m_sent.end() ? std::vector<ValueId>{} : found->second;
}

std::vector<int> BufferReplay::contributingRanks(ValueId value) const
{
  std::set<int> ranks;
  for (const TokenCount& entry : m_values.entries(value))
    ranks.insert(m_tokens.decode(entry.token).first);
  return {ranks.begin(), ranks.end()};
}

std::string BufferReplay::format(ValueId value) const
{
  return formatValue(m_values, m_tokens, value);
}

} // namespace cs::replay
