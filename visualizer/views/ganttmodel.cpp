#include "ganttmodel_p.h"

#include "session/replaysession.h"

#include <algorithm>
#include <map>

namespace cs::visualizer {

GanttModel::GanttModel(const ReplaySession& session)
{
  const std::vector<TraceEvent>& events = session.trace().events;
  std::map<std::pair<int, int>, std::vector<std::size_t>> byLane;
  for (std::size_t i = 0; i < events.size(); ++i)
    byLane[{events[i].rank, events[i].tb}].push_back(i);
  for (const BlockedPosition& blocked : session.trace().blocked) // lanes stuck before any event
    byLane[{blocked.rank, blocked.tb}];
  m_laneOf.assign(events.size(), 0);
  for (auto& [key, indices] : byLane) {
    std::stable_sort(indices.begin(), indices.end(), [&events](std::size_t a, std::size_t b) {
      return events[a].start < events[b].start;
    });
    GanttLane lane{key.first, key.second, std::move(indices), {}, {}, {}};
    double latest = 0;
    for (const std::size_t event : lane.events) {
      latest = std::max(latest, events[event].end);
      lane.starts.push_back(events[event].start);
      lane.endsSoFar.push_back(latest);
      lane.ends.push_back(events[event].end);
      m_laneOf[event] = static_cast<int>(m_lanes.size());
    }
    m_lanes.push_back(std::move(lane));
  }
  m_messagesOf.assign(events.size(), {});
  const std::vector<replay::Message>& messages = session.index().messages();
  for (std::size_t m = 0; m < messages.size(); ++m) {
    m_messagesOf[messages[m].send].push_back(m);
    if (messages[m].receive)
      m_messagesOf[*messages[m].receive].push_back(m);
  }
}

int GanttModel::laneOf(int rank, int tb) const
{
  for (std::size_t i = 0; i < m_lanes.size(); ++i) {
    if (m_lanes[i].rank == rank && m_lanes[i].tb == tb)
      return static_cast<int>(i);
  }
  return -1;
}

std::pair<std::size_t, std::size_t> GanttModel::visible(int lane, double fromUs, double toUs) const
{
  const GanttLane& l = m_lanes[static_cast<std::size_t>(lane)];
  const auto first = std::lower_bound(l.endsSoFar.begin(), l.endsSoFar.end(), fromUs);
  const auto last = std::upper_bound(l.starts.begin(), l.starts.end(), toUs);
  const auto begin = static_cast<std::size_t>(first - l.endsSoFar.begin());
  const auto end = static_cast<std::size_t>(last - l.starts.begin());
  return {begin, std::max(begin, end)};
}

long GanttModel::eventAt(int lane, double timeUs) const
{
  const GanttLane& l = m_lanes[static_cast<std::size_t>(lane)];
  const auto [first, last] = visible(lane, timeUs, timeUs);
  for (std::size_t i = first; i < last; ++i) {
    if (l.starts[i] <= timeUs && timeUs <= l.ends[i])
      return static_cast<long>(l.events[i]);
  }
  return -1;
}

} // namespace cs::visualizer
