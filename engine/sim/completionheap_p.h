#pragma once

// When each active flow of the FlowNetwork finishes, earliest first: a binary heap that holds
// each flow at most once and moves it when its rate changes. A priority queue with a new entry
// per rate change (older ones skipped as stale when they surfaced) held several entries per flow
// on a 1,024-rank fabric, where rates change for thousands of flows at every moment, and its
// pushes and pops were a fifth of the run.

#include <cstddef>
#include <vector>

namespace cs {

class CompletionHeap
{
public:
  bool empty() const { return m_heap.empty(); }
  /// The earliest finish time, ties broken by the lower flow id (the heap is not empty).
  double topTime() const { return m_heap.front().time; }
  int topFlow() const { return m_heap.front().flow; }

  /// Schedules `flow` to finish at `time`, replacing its earlier time if it had one.
  void set(int flow, double time)
  {
    if (flow >= static_cast<int>(m_position.size()))
      m_position.resize(static_cast<std::size_t>(flow) + 1, -1);
    const int at = m_position[flow];
    if (at < 0) {
      m_heap.push_back({time, flow});
      siftUp(m_heap.size() - 1);
      return;
    }
    const bool earlier = time < m_heap[at].time;
    m_heap[at].time = time;
    if (earlier)
      siftUp(static_cast<std::size_t>(at));
    else
      siftDown(static_cast<std::size_t>(at));
  }

  /// Unschedules `flow`; nothing when it is not scheduled.
  void remove(int flow)
  {
    if (flow >= static_cast<int>(m_position.size()) || m_position[flow] < 0)
      return;
    const auto at = static_cast<std::size_t>(m_position[flow]);
    m_position[flow] = -1;
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (at == m_heap.size())
      return;
    place(at, last);
    siftUp(at);
    siftDown(static_cast<std::size_t>(m_position[last.flow]));
  }

private:
  struct Entry {
    double time;
    int flow;
  };

  static bool before(const Entry& a, const Entry& b)
  {
    return a.time != b.time ? a.time < b.time : a.flow < b.flow;
  }

  void place(std::size_t at, const Entry& entry)
  {
    m_heap[at] = entry;
    m_position[entry.flow] = static_cast<int>(at);
  }

  void siftUp(std::size_t at)
  {
    const Entry entry = m_heap[at];
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!before(entry, m_heap[parent]))
        break;
      place(at, m_heap[parent]);
      at = parent;
    }
    place(at, entry);
  }

  void siftDown(std::size_t at)
  {
    const Entry entry = m_heap[at];
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= m_heap.size())
        break;
      if (child + 1 < m_heap.size() && before(m_heap[child + 1], m_heap[child]))
        ++child;
      if (!before(m_heap[child], entry))
        break;
      place(at, m_heap[child]);
      at = child;
    }
    place(at, entry);
  }

  std::vector<Entry> m_heap;
  std::vector<int> m_position; ///< per flow id: its index in m_heap, or -1
};

} // namespace cs
