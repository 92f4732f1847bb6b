#pragma once

// The Gantt view's index of the trace (private to views/): its lanes (rank, threadblock) in rank
// then threadblock order, each lane's events by start with a running maximum of their ends (so
// the events overlapping a time window are a binary search away), and the messages each event
// sends or receives, for the flow arrows.

#include <cstddef>
#include <utility>
#include <vector>

namespace cs::visualizer {

class ReplaySession;

struct GanttLane {
  int rank = 0;
  int tb = 0;
  std::vector<std::size_t> events; ///< indices into Trace::events, by start
  std::vector<double> starts;      ///< the start of each of events
  std::vector<double> endsSoFar;   ///< the latest end among events[0..i]
  std::vector<double> ends;        ///< the end of each of events
};

class GanttModel
{
public:
  explicit GanttModel(const ReplaySession& session);

  const std::vector<GanttLane>& lanes() const { return m_lanes; }
  /// The lane an event is drawn in.
  int laneOf(std::size_t event) const { return m_laneOf[event]; }
  /// The lane of (rank, tb), or -1.
  int laneOf(int rank, int tb) const;
  /// Positions [first, last) in lane.events of the events that overlap [fromUs, toUs].
  std::pair<std::size_t, std::size_t> visible(int lane, double fromUs, double toUs) const;
  /// The event of `lane` under `timeUs`, or -1.
  long eventAt(int lane, double timeUs) const;
  /// Messages (indices into ReplayIndex::messages) the event sends or receives.
  const std::vector<std::size_t>& messagesOf(std::size_t event) const
  {
    return m_messagesOf[event];
  }

private:
  std::vector<GanttLane> m_lanes;
  std::vector<int> m_laneOf;
  std::vector<std::vector<std::size_t>> m_messagesOf;
};

} // namespace cs::visualizer
