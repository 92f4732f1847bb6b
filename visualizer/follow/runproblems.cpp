#include "runproblems.h"

#include "replay/stopreport.h"

namespace cs::visualizer {

namespace {

Problem problemAt(const Analysis& analysis, int rank, int tb, int step)
{
  Problem problem;
  problem.rank = rank;
  problem.tb = tb;
  problem.step = step;
  problem.transferId = analysis.transferAt(rank, tb, step);
  Location& location = problem.diagnostic.location;
  location.rank = rank;
  location.tb = tb;
  location.step = step;
  location.transfer = problem.transferId;
  return problem;
}

std::string locationText(const Location& at)
{
  return "rank " + std::to_string(at.rank) + " tb " + std::to_string(at.tb) + " step " +
         std::to_string(at.step);
}

} // namespace

std::string blockedText(const BlockedPosition& position)
{
  std::string text = replay::describeBlocked(position);
  if (position.waitsFor != BlockedOn::Flag && position.channel >= 0)
    text += " (channel " + std::to_string(position.channel) + ")";
  return text;
}

std::vector<Problem> runProblems(const Program& program, const Trace& trace,
                                 const Analysis& analysis)
{
  std::vector<Problem> problems;
  if (!trace.stoppedUs)
    return problems;
  for (const BlockedPosition& position : trace.blocked) {
    Problem problem = problemAt(analysis, position.rank, position.tb, position.step);
    problem.diagnostic.code = "run.blocked";
    problem.diagnostic.message = blockedText(position);
    problems.push_back(std::move(problem));
  }
  const std::vector<Location> cycle = replay::predictedCycle(program, trace);
  if (cycle.empty())
    return problems;
  Problem problem = problemAt(analysis, cycle.front().rank, cycle.front().tb, cycle.front().step);
  problem.diagnostic.code = "run.wait-for-cycle";
  std::string chain;
  for (const Location& at : cycle)
    chain += locationText(at) + " → ";
  chain += "back to " + locationText(cycle.front());
  const int slots = trace.connectionSlots.value_or(0);
  problem.diagnostic.message = "The run stopped in the wait-for cycle the checker predicts" +
                               (slots > 0 ? " with " + std::to_string(slots) + " slot" +
                                                (slots == 1 ? "" : "s") + " per connection"
                                          : std::string()) +
                               ": " + chain;
  problem.diagnostic.related = cycle;
  problems.push_back(std::move(problem));
  return problems;
}

} // namespace cs::visualizer
