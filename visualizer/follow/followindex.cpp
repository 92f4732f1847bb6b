#include "followindex.h"

#include "runproblems.h"

#include "replay/stopreport.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace cs::visualizer {

using editor::BlockedMark;
using editor::LaneMark;
using editor::PlaybackMarks;
using editor::TransferMark;
using editor::TransferProgress;

FollowIndex::FollowIndex(const Program& program, const Trace& trace, const Analysis& analysis)
{
  indexLanes(program, trace);
  indexTransfers(analysis);
  indexStop(program, trace, analysis);
}

void FollowIndex::indexLanes(const Program& program, const Trace& trace)
{
  for (const Gpu& gpu : program.gpus)
    for (const ThreadBlock& tb : gpu.threadblocks) {
      Lane& lane = m_lanes.emplace_back();
      lane.rank = gpu.id;
      lane.tb = tb.id;
      lane.positions.resize(tb.steps.size());
    }
  std::sort(m_lanes.begin(), m_lanes.end(), [](const Lane& a, const Lane& b) {
    return std::pair(a.rank, a.tb) < std::pair(b.rank, b.tb);
  });
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& event = trace.events[i];
    m_slices = std::max(m_slices, event.slice + 1);
    const int lane = laneOf(event.rank, event.tb);
    if (lane >= 0)
      m_lanes[static_cast<std::size_t>(lane)].events.push_back(i);
  }
  for (Lane& lane : m_lanes) {
    std::stable_sort(lane.events.begin(), lane.events.end(), [&](std::size_t a, std::size_t b) {
      return trace.events[a].start < trace.events[b].start;
    });
    double latest = 0;
    for (std::size_t p = 0; p < lane.events.size(); ++p) {
      const TraceEvent& event = trace.events[lane.events[p]];
      lane.starts.push_back(event.start);
      lane.ends.push_back(event.end);
      latest = std::max(latest, event.end);
      lane.doneBy.push_back(latest);
      lane.steps.push_back(event.step);
      if (event.step >= 0 && event.step < static_cast<int>(lane.positions.size()))
        lane.positions[static_cast<std::size_t>(event.step)].push_back(static_cast<int>(p));
    }
    int after = -1;
    for (const std::vector<int>& slices : lane.positions) {
      const bool complete = static_cast<int>(slices.size()) >= m_slices;
      after = !complete || after == INT_MAX ? INT_MAX : std::max(after, slices.back());
      lane.doneAfter.push_back(after);
    }
  }
}

void FollowIndex::indexTransfers(const Analysis& analysis)
{
  if (!analysis.schedule)
    return;
  for (const Transfer& transfer : analysis.schedule->transfers) {
    TransferSteps steps{.transfer = transfer.id, .step = transfer.step, .instructions = {}};
    for (const InstructionOrigin& origin : analysis.instructionsOf(transfer.id)) {
      const int lane = laneOf(origin.rank, origin.tb);
      if (lane >= 0 && origin.step >= 0 &&
          origin.step < static_cast<int>(m_lanes[static_cast<std::size_t>(lane)].positions.size()))
        steps.instructions.emplace_back(lane, origin.step);
    }
    if (!steps.instructions.empty())
      m_transfers.push_back(std::move(steps));
  }
  std::sort(m_transfers.begin(), m_transfers.end(),
            [](const TransferSteps& a, const TransferSteps& b) { return a.transfer < b.transfer; });
}

void FollowIndex::indexStop(const Program& program, const Trace& trace, const Analysis& analysis)
{
  for (const BlockedPosition& position : trace.blocked)
    m_blocked.push_back({.rank = position.rank,
                         .tb = position.tb,
                         .step = position.step,
                         .transfer = analysis.transferAt(position.rank, position.tb, position.step),
                         .text = blockedText(position)});
  if (!trace.stoppedUs)
    return;
  for (const Location& at : replay::predictedCycle(program, trace))
    if (const int transfer = analysis.transferAt(at.rank, at.tb, at.step); transfer >= 0)
      m_cycle.push_back(transfer);
}

int FollowIndex::laneOf(int rank, int tb) const
{
  const auto it = std::lower_bound(m_lanes.begin(), m_lanes.end(), std::pair(rank, tb),
                                   [](const Lane& lane, const std::pair<int, int>& key) {
                                     return std::pair(lane.rank, lane.tb) < key;
                                   });
  return it != m_lanes.end() && it->rank == rank && it->tb == tb
             ? static_cast<int>(it - m_lanes.begin())
             : -1;
}

FollowIndex::LaneAt FollowIndex::laneAt(const Lane& lane, double timeUs) const
{
  const auto done = std::upper_bound(lane.doneBy.begin(), lane.doneBy.end(), timeUs);
  const auto started = std::upper_bound(lane.starts.begin(), lane.starts.end(), timeUs);
  return {static_cast<int>(done - lane.doneBy.begin()),
          std::max(static_cast<int>(done - lane.doneBy.begin()),
                   static_cast<int>(started - lane.starts.begin()))};
}

TransferMark FollowIndex::transferAt(const TransferSteps& transfer, const std::vector<LaneAt>& at,
                                     double timeUs) const
{
  double total = 0;
  double done = 0;
  bool running = false;
  for (const auto& [laneIndex, instruction] : transfer.instructions) {
    const Lane& lane = m_lanes[static_cast<std::size_t>(laneIndex)];
    const LaneAt& where = at[static_cast<std::size_t>(laneIndex)];
    const std::vector<int>& slices = lane.positions[static_cast<std::size_t>(instruction)];
    total += std::max<double>(m_slices, static_cast<double>(slices.size()));
    const auto firstOpen = std::lower_bound(slices.begin(), slices.end(), where.done);
    done += static_cast<double>(firstOpen - slices.begin());
    for (auto it = firstOpen; it != slices.end() && *it < where.started; ++it) {
      const auto p = static_cast<std::size_t>(*it);
      const double span = lane.ends[p] - lane.starts[p];
      done += span > 0 ? std::clamp((timeUs - lane.starts[p]) / span, 0.0, 1.0) : 1.0;
      running = true;
    }
  }
  TransferMark mark{.transfer = transfer.transfer};
  const double fraction = total > 0 ? done / total : 1.0;
  mark.fraction = static_cast<float>(std::round(fraction * 100) / 100);
  if (fraction >= 1.0 && !running)
    mark.state = TransferProgress::Done;
  else if (done > 0 || running)
    mark.state = TransferProgress::Running;
  return mark;
}

PlaybackMarks FollowIndex::marksAt(double timeUs) const
{
  PlaybackMarks marks;
  marks.active = true;
  marks.timeUs = timeUs;
  std::vector<LaneAt> at;
  at.reserve(m_lanes.size());
  marks.lanes.reserve(m_lanes.size());
  for (const Lane& lane : m_lanes) {
    const LaneAt& where = at.emplace_back(laneAt(lane, timeUs));
    LaneMark& mark = marks.lanes.emplace_back();
    mark.rank = lane.rank;
    mark.tb = lane.tb;
    mark.done = static_cast<int>(
        std::lower_bound(lane.doneAfter.begin(), lane.doneAfter.end(), where.done) -
        lane.doneAfter.begin());
    for (int p = where.done; p < where.started; ++p)
      if (lane.ends[static_cast<std::size_t>(p)] > timeUs)
        mark.running.push_back(lane.steps[static_cast<std::size_t>(p)]);
    std::sort(mark.running.begin(), mark.running.end());
    mark.running.erase(std::unique(mark.running.begin(), mark.running.end()), mark.running.end());
  }
  std::optional<int> firstRunning;
  std::optional<int> firstPending;
  marks.transfers.reserve(m_transfers.size());
  for (const TransferSteps& transfer : m_transfers) {
    const TransferMark& mark = marks.transfers.emplace_back(transferAt(transfer, at, timeUs));
    std::optional<int>& first =
        mark.state == TransferProgress::Running ? firstRunning : firstPending;
    if (mark.state != TransferProgress::Done && (!first || transfer.step < *first))
      first = transfer.step;
  }
  marks.step = firstRunning ? firstRunning : firstPending;
  marks.blocked = m_blocked;
  marks.cycle = m_cycle;
  for (const BlockedMark& blocked : m_blocked)
    if (const int lane = laneOf(blocked.rank, blocked.tb); lane >= 0)
      marks.lanes[static_cast<std::size_t>(lane)].blocked = blocked.step;
  return marks;
}

std::optional<std::size_t> FollowIndex::eventOf(int rank, int tb, int step, double timeUs) const
{
  const int laneIndex = laneOf(rank, tb);
  if (laneIndex < 0)
    return std::nullopt;
  const Lane& lane = m_lanes[static_cast<std::size_t>(laneIndex)];
  if (step < 0 || step >= static_cast<int>(lane.positions.size()))
    return std::nullopt;
  const std::vector<int>& slices = lane.positions[static_cast<std::size_t>(step)];
  if (slices.empty())
    return std::nullopt;
  int chosen = slices.front();
  for (const int p : slices)
    if (lane.starts[static_cast<std::size_t>(p)] <= timeUs)
      chosen = p;
  return lane.events[static_cast<std::size_t>(chosen)];
}

} // namespace cs::visualizer
