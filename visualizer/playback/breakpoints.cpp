#include "breakpoints.h"

#include "session/replaysession.h"

#include <algorithm>

namespace cs::visualizer {

QString breakpointText(const Breakpoint& breakpoint)
{
  switch (breakpoint.kind) {
  case Breakpoint::Kind::Step:
    return QStringLiteral("step %1").arg(breakpoint.a);
  case Breakpoint::Kind::Rank:
    return QStringLiteral("rank %1").arg(breakpoint.a);
  case Breakpoint::Kind::Threadblock:
    return QStringLiteral("rank %1 · tb %2").arg(breakpoint.a).arg(breakpoint.b);
  case Breakpoint::Kind::Link:
    return QStringLiteral("link %1").arg(breakpoint.a);
  }
  return {};
}

namespace {

std::vector<double> linkTimes(const ReplaySession& session, int link)
{
  std::vector<double> times;
  for (const replay::Message& message : session.index().messages()) {
    const bool crosses = std::any_of(message.route.begin(), message.route.end(),
                                     [link](const Hop& hop) { return hop.link == link; });
    if (crosses)
      times.push_back(message.start);
  }
  return times;
}

} // namespace

std::vector<double> breakpointTimes(const ReplaySession& session, const Breakpoint& breakpoint)
{
  std::vector<double> times;
  if (breakpoint.kind == Breakpoint::Kind::Step) {
    // The step's start on every slice of the slicing loop.
    const std::vector<std::pair<int, int>>& keys = session.stepKeys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i].first == breakpoint.a)
        times.push_back(session.stepStarts()[i]);
    }
  } else if (breakpoint.kind == Breakpoint::Kind::Link) {
    times = linkTimes(session, breakpoint.a);
  } else {
    const bool lane = breakpoint.kind == Breakpoint::Kind::Threadblock;
    for (const TraceEvent& event : session.trace().events) {
      if (event.rank == breakpoint.a && (!lane || event.tb == breakpoint.b))
        times.push_back(event.start);
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

} // namespace cs::visualizer
