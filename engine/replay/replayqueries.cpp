// The questions a ReplayIndex answers at one time: each is a binary search in arrays built by
// ReplayIndex::build (replayindex.cpp).

#include "replayindex.h"

#include <algorithm>

namespace cs::replay {

namespace {

/// The value of a piecewise-constant sample list at `t` (0 before the first sample).
double sampleAt(const std::vector<std::pair<double, double>>& samples, double t)
{
  const auto after =
      std::upper_bound(samples.begin(), samples.end(), t,
                       [](double time, const auto& sample) { return time < sample.first; });
  return after == samples.begin() ? 0 : std::prev(after)->second;
}

} // namespace

ReplayState ReplayIndex::at(double timeUs) const
{
  ReplayState state;
  state.timeUs = timeUs;
  state.counts = counts(timeUs);
  state.running = runningEvents(timeUs);
  state.tokens = tokens(timeUs);
  state.links = links(timeUs);
  state.waiting = waiting(timeUs);
  return state;
}

EventCounts ReplayIndex::counts(double timeUs) const
{
  const auto started = static_cast<std::size_t>(
      std::upper_bound(m_starts.begin(), m_starts.end(), timeUs) - m_starts.begin());
  const auto ended = static_cast<std::size_t>(
      std::upper_bound(m_ends.begin(), m_ends.end(), timeUs) - m_ends.begin());
  EventCounts counts;
  counts.done = ended;
  counts.running = started >= ended ? started - ended : 0;
  counts.pending = m_starts.size() - started;
  return counts;
}

std::vector<std::size_t> ReplayIndex::runningEvents(double timeUs) const
{
  std::vector<std::size_t> running;
  for (const Lane& lane : m_lanes) {
    const auto after = std::upper_bound(
        lane.events.begin(), lane.events.end(), timeUs,
        [this](double time, std::size_t event) { return time < m_trace.events[event].start; });
    if (after != lane.events.begin() && m_trace.events[*std::prev(after)].end > timeUs)
      running.push_back(*std::prev(after));
  }
  return running;
}

std::vector<Token> ReplayIndex::tokens(double timeUs) const
{
  std::vector<Token> tokens;
  for (const std::vector<Index>& connection : m_connections) {
    // A connection's messages start and end in order: those in flight are a contiguous run.
    const auto first = std::partition_point(
        connection.begin(), connection.end(),
        [this, timeUs](std::size_t message) { return m_messages[message].end <= timeUs; });
    for (auto it = first; it != connection.end() && m_messages[*it].start <= timeUs; ++it) {
      const Message& message = m_messages[*it];
      if (message.end <= timeUs)
        continue;
      const double span = message.end - message.start;
      tokens.push_back({*it, span > 0 ? (timeUs - message.start) / span : 1.0});
    }
  }
  return tokens;
}

std::vector<LinkState> ReplayIndex::links(double timeUs) const
{
  const auto flowAt = [timeUs](const FlowProfile& profile, double capacity) {
    LinkFlow flow;
    const auto after = std::upper_bound(profile.times.begin(), profile.times.end(), timeUs);
    if (after == profile.times.begin())
      return flow;
    const auto k = static_cast<std::size_t>(after - profile.times.begin()) - 1;
    flow.bytesPerUs = std::max(0.0, profile.rate[k]);
    flow.bytesInFlight = std::max(0.0, profile.weightedEnd[k] - timeUs * profile.rate[k]);
    flow.utilisation = capacity > 0 ? std::min(1.0, flow.bytesPerUs / capacity) : 0;
    return flow;
  };
  std::vector<LinkState> links;
  links.reserve(m_linkProfiles.size());
  for (const LinkProfile& profile : m_linkProfiles) {
    LinkState state;
    state.link = profile.link;
    state.aToB = flowAt(profile.aToB, profile.bytesPerUs);
    state.bToA = flowAt(profile.bToA, profile.bytesPerUs);
    if (profile.usage >= 0) {
      state.utilisation =
          sampleAt(m_trace.links[static_cast<std::size_t>(profile.usage)].utilisation, timeUs);
    } else if (profile.bytesPerUs > 0) {
      const double capacity = profile.bytesPerUs * (profile.duplex ? 2 : 1);
      state.utilisation = std::min(1.0, (state.aToB.bytesPerUs + state.bToA.bytesPerUs) / capacity);
    }
    links.push_back(state);
  }
  return links;
}

std::vector<Waiting> ReplayIndex::waiting(double timeUs) const
{
  std::vector<Waiting> result;
  for (const Lane& lane : m_lanes) {
    if (std::optional<Waiting> idle = waitingOf(lane, timeUs))
      result.push_back(*idle);
  }
  return result;
}

std::optional<ReplayIndex::NextStep> ReplayIndex::nextStepOf(const Lane& lane,
                                                             std::size_t done) const
{
  NextStep next;
  next.receivesBefore = lane.receivesBefore[done];
  if (done < lane.events.size()) {
    const TraceEvent& event = m_trace.events[lane.events[done]];
    next.step = event.step;
    next.slice = event.slice;
    return next;
  }
  if (done == 0)
    return m_slices > 0 ? std::optional(next) : std::nullopt;
  // Past its last event: the step after it, unless that is the end of the run.
  const TraceEvent& last = m_trace.events[lane.events[done - 1]];
  const int steps = static_cast<int>(m_program.threadblock(lane.rank, lane.tb)->steps.size());
  next.step = last.step + 1 < steps ? last.step + 1 : 0;
  next.slice = last.step + 1 < steps ? last.slice : last.slice + 1;
  if (next.slice >= m_slices)
    return std::nullopt;
  return next;
}

bool ReplayIndex::messageArrived(const ThreadBlock& tb, int rank, int receivesBefore,
                                 double timeUs) const
{
  // A threadblock takes its connection's messages in order: its next one is number
  // receivesBefore.
  const auto connection = m_connectionOf.find({tb.recv, rank, tb.chan});
  if (connection == m_connectionOf.end())
    return false;
  const std::vector<Index>& messages = m_connections[connection->second];
  if (static_cast<std::size_t>(receivesBefore) >= messages.size())
    return false;
  return m_trace.events[m_messages[messages[static_cast<std::size_t>(receivesBefore)]].send].end <=
         timeUs;
}

std::optional<Waiting> ReplayIndex::waitingOf(const Lane& lane, double timeUs) const
{
  const auto after = std::upper_bound(
      lane.events.begin(), lane.events.end(), timeUs,
      [this](double time, std::size_t event) { return time < m_trace.events[event].start; });
  if (after != lane.events.begin() && m_trace.events[*std::prev(after)].end > timeUs)
    return std::nullopt; // running
  const std::optional<NextStep> next =
      nextStepOf(lane, static_cast<std::size_t>(after - lane.events.begin()));
  if (!next)
    return std::nullopt; // finished
  const ThreadBlock& tb = *m_program.threadblock(lane.rank, lane.tb);
  const Step& step = tb.steps[static_cast<std::size_t>(next->step)];
  Waiting waiting;
  waiting.rank = lane.rank;
  waiting.tb = lane.tb;
  waiting.step = next->step;
  waiting.slice = next->slice;
  waiting.channel = tb.chan;
  if (step.depid >= 0) {
    const std::optional<std::size_t> flag = eventAt(lane.rank, step.depid, step.deps, next->slice);
    if (!flag || m_trace.events[*flag].end > timeUs) {
      waiting.reason = WaitReason::Flag;
      waiting.depTb = step.depid;
      waiting.depStep = step.deps;
      return waiting;
    }
  }
  if (opTraits(step.type).receives &&
      !messageArrived(tb, lane.rank, next->receivesBefore, timeUs)) {
    waiting.reason = WaitReason::Message;
    waiting.peer = tb.recv;
    return waiting;
  }
  if (opTraits(step.type).sends) {
    waiting.reason = WaitReason::Room;
    waiting.peer = tb.send;
    return waiting;
  }
  waiting.reason = WaitReason::Start;
  return waiting;
}

std::vector<std::pair<double, double>> ReplayIndex::stepSpans() const
{
  std::vector<std::pair<double, double>> spans;
  for (const TraceEvent& event : m_trace.events) {
    if (static_cast<std::size_t>(event.step) >= spans.size())
      spans.resize(static_cast<std::size_t>(event.step) + 1, {m_endUs, 0.0});
    auto& [first, last] = spans[static_cast<std::size_t>(event.step)];
    first = std::min(first, event.start);
    last = std::max(last, event.end);
  }
  return spans;
}

} // namespace cs::replay
