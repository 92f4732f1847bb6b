#include "narration_p.h"

#include "check/schedulegeometry.h"
#include "model/collectivespec.h"

#include <algorithm>
#include <optional>

namespace cs::narration {

namespace {

/// How far one column of the chunk states is from the postcondition.
struct Progress {
  int rightChunks = 0;
  int doneRanks = 0;
  int leastRightOnARank = 0; ///< over the ranks whose result matters
  bool complete = false;
};

bool holdsExpected(const CellSummary& s, const std::vector<Contribution>& expected)
{
  if (expected.empty())
    return true;
  if (expected.size() == 1)
    return s.kind == CellKind::Single && s.ranks.front() == expected.front().rank &&
           s.chunk == expected.front().chunk;
  return s.kind == CellKind::Complete && s.chunk == expected.front().chunk &&
         s.ranks.size() == expected.size();
}

Progress progressAt(const CollectiveSpec& spec, const ChunkStates& states, int column)
{
  Progress progress;
  progress.leastRightOnARank = -1;
  std::vector<Contribution> expected;
  int resultRanks = 0;
  for (int r = 0; r < spec.ranks(); ++r) {
    const ResultChunks result = spec.result(r);
    if (result.count == 0)
      continue;
    ++resultRanks;
    int right = 0;
    for (int i = 0; i < result.count; ++i) {
      spec.contributions(r, i, expected);
      const int row = states.rowOf({r, result.buffer, result.first + i});
      if (row >= 0 && holdsExpected(states.summary(states.value(row, column)), expected))
        ++right;
    }
    progress.rightChunks += right;
    progress.doneRanks += right == result.count ? 1 : 0;
    if (progress.leastRightOnARank < 0 || right < progress.leastRightOnARank)
      progress.leastRightOnARank = right;
  }
  progress.complete = resultRanks > 0 && progress.doneRanks == resultRanks;
  return progress;
}

std::string plural(int count, const std::string& word)
{
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

std::string goalText(const CollectiveSpec& spec, int whole)
{
  const int n = spec.ranks();
  const std::string all = plural(whole, "chunk");
  switch (spec.collective()) {
  case Collective::AllReduce:
    return "Goal: every rank ends with all " + all + " summed over all " + plural(n, "rank") + ".";
  case Collective::AllGather:
    return "Goal: every rank ends with every rank's " + plural(spec.share(), "input chunk") + ", " +
           all + " in all.";
  case Collective::ReduceScatter:
    return "Goal: rank p ends with block p (" + plural(spec.share(), "chunk") +
           ") summed over all " + plural(n, "rank") + ".";
  case Collective::AllToAll:
    return "Goal: rank p ends with block p (" + plural(spec.share(), "chunk") +
           ") of every rank's input.";
  case Collective::Broadcast:
    return "Goal: every rank ends with the root's (rank " + std::to_string(spec.root()) + ") " +
           all + ".";
  case Collective::Reduce:
    return "Goal: the root (rank " + std::to_string(spec.root()) + ") ends with all " + all +
           " summed over all " + plural(n, "rank") + ".";
  default:
    return {};
  }
}

std::string completeText(const CollectiveSpec& spec, int step)
{
  const std::string after = "After step " + std::to_string(step);
  const std::string name(collectiveTitle(spec.collective()));
  if (spec.collective() == Collective::Broadcast)
    return after + " all " + std::to_string(spec.ranks()) +
           " ranks hold the root's data: the broadcast is complete.";
  if (spec.collective() == Collective::Reduce)
    return after + " the root (rank " + std::to_string(spec.root()) +
           ") holds the whole result: the reduce is complete.";
  return after + " every rank holds the whole result: the " + name + " is complete.";
}

/// What changed in one step, or "" when the step moved nothing towards (or away from) the goal.
std::string stepText(const CollectiveSpec& spec, const Progress& before, const Progress& now,
                     int step, int resultChunks)
{
  if (now.complete && !before.complete)
    return completeText(spec, step);
  const int share = spec.share();
  // An all-reduce whose every rank holds its share fully reduced has done its reduce-scatter
  // half, whatever the algorithm calls its phases.
  const bool allReduceLike = spec.collective() == Collective::AllReduce && share > 0;
  if (allReduceLike && now.leastRightOnARank >= share && before.leastRightOnARank < share)
    return "After step " + std::to_string(step) + " every rank holds " +
           plural(share, "fully reduced chunk") + ": the reduce-scatter half is done.";
  if (now.rightChunks == before.rightChunks && now.doneRanks == before.doneRanks)
    return {};
  const std::string after = "After step " + std::to_string(step) + ", ";
  if (spec.collective() == Collective::Broadcast)
    return after + std::to_string(now.doneRanks) + " of " + std::to_string(spec.ranks()) +
           " ranks hold the root's data.";
  return after + std::to_string(now.rightChunks) + " of the " + std::to_string(resultChunks) +
         " result chunks hold their final value, and " + std::to_string(now.doneRanks) +
         " of the " + std::to_string(spec.ranks()) + " ranks hold their whole result.";
}

} // namespace

GoalNarration narrateGoal(const Schedule& schedule, const ChunkStates& states)
{
  GoalNarration narration;
  const int steps = schedule.stepCount();
  narration.afterStep.assign(static_cast<std::size_t>(std::max(steps, 0)), std::string());
  const int root = schedule.root.value_or(-1);
  const Collective collective = schedule.collective;
  if (!hasPostcondition(collective) || schedule.ranks <= 0 ||
      (isRooted(collective) && (root < 0 || root >= schedule.ranks))) {
    narration.goal = "This " + std::string(collectiveTitle(collective)) +
                     " has no postcondition to measure progress by: the sentences say what "
                     "moves, not how close the goal is.";
    return narration;
  }
  const ScheduleGeometry geometry = scheduleGeometry(schedule);
  if (geometry.whole <= 0) {
    // In-place files may declare no input (i_chunks="0"): nothing to follow to a result.
    narration.goal = "This " + std::string(collectiveTitle(collective)) +
                     " declares no input chunks, so there are no contributions to follow "
                     "towards its result.";
    return narration;
  }
  const CollectiveSpec spec(collective, schedule.ranks, geometry.whole, root);
  narration.goal = goalText(spec, geometry.whole);
  int resultChunks = 0;
  for (int r = 0; r < spec.ranks(); ++r)
    resultChunks += spec.result(r).count;
  Progress before = progressAt(spec, states, 0);
  for (int step = 0; step < steps && states.computed(step + 1); ++step) {
    const Progress now = progressAt(spec, states, step + 1);
    narration.afterStep[static_cast<std::size_t>(step)] =
        stepText(spec, before, now, step, resultChunks);
    before = now;
  }
  return narration;
}

} // namespace cs::narration
