#include "teachingrun.h"

#include "document/document.h"
#include "model/buffergeometry.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <algorithm>
#include <string>

namespace cs::visualizer {

namespace {

// The bisection stops when the interval is this small relative to the run (a frame of a one-
// minute animation is far coarser).
constexpr double kRelativeResolution = 1e-9;

/// Whether every transfer of steps <= `step` is done at `timeUs`.
bool stepsDoneBy(const FollowIndex& follow, const std::vector<int>& stepOfTransfer, int step,
                 double timeUs)
{
  const editor::PlaybackMarks marks = follow.marksAt(timeUs);
  return std::ranges::all_of(marks.transfers, [&](const editor::TransferMark& mark) {
    const bool counted = mark.transfer >= 0 &&
                         mark.transfer < static_cast<int>(stepOfTransfer.size()) &&
                         stepOfTransfer[mark.transfer] <= step;
    return !counted || mark.state == editor::TransferProgress::Done;
  });
}

} // namespace

std::vector<double> scheduleStepEnds(const FollowIndex& follow, const Schedule& schedule,
                                     double endUs)
{
  int largestId = -1;
  for (const Transfer& transfer : schedule.transfers)
    largestId = std::max(largestId, transfer.id);
  std::vector<int> stepOfTransfer(static_cast<std::size_t>(largestId + 1), -1);
  for (const Transfer& transfer : schedule.transfers)
    stepOfTransfer[static_cast<std::size_t>(transfer.id)] = transfer.step;

  std::vector<double> ends;
  double low = 0;
  const double resolution = std::max(endUs, 1.0) * kRelativeResolution;
  for (int step = 0; step < schedule.stepCount(); ++step) {
    // Steps finish in order (a later step's set includes the earlier one's), so each search
    // starts where the previous one ended.
    double high = endUs;
    if (stepsDoneBy(follow, stepOfTransfer, step, low)) {
      ends.push_back(low);
      continue;
    }
    while (high - low > resolution) {
      const double middle = (low + high) / 2;
      (stepsDoneBy(follow, stepOfTransfer, step, middle) ? high : low) = middle;
    }
    ends.push_back(high);
    low = high;
  }
  return ends;
}

TeachingRun simulateForTeaching(const editor::Document& document, std::int64_t bytes)
{
  TeachingRun run;
  const std::optional<Program>& program = document.shownProgram();
  if (!program) {
    run.error = QObject::tr("The algorithm has no program to simulate: fix its problems first.");
    return run;
  }
  std::optional<Topology> topology = document.topology();
  run.topologyName = QObject::tr("the document's topology");
  if (!topology) {
    const std::string preset = "ring-" + std::to_string(program->ngpus);
    topology = makePresetTopology(preset);
    run.topologyName = QString::fromStdString(preset);
  }
  if (!topology) {
    run.error = QObject::tr("No topology to simulate on.");
    return run;
  }
  SimOptions options;
  options.bytes = bytes;
  SimResult simulated = simulateProgram(*program, *topology, options);
  if (!simulated.ok) {
    run.error = simulated.diagnostics.empty()
                    ? QObject::tr("The simulation gave no run.")
                    : QString::fromStdString(simulated.diagnostics.front().message);
    return run;
  }
  const std::vector<CallMode> modes = declaredModes(*program);
  ReplayOpen opened = ReplaySession::open(*program, std::move(simulated.trace), topology,
                                          modes.empty() ? CallMode::OutOfPlace : modes.front());
  if (!opened.session) {
    run.error = opened.diagnostics.empty()
                    ? QObject::tr("The simulated run could not be replayed.")
                    : QString::fromStdString(opened.diagnostics.front().message);
    return run;
  }
  run.session = std::move(opened.session);
  const FollowIndex follow(*program, run.session->trace(), document.analysis());
  run.stepEnds = scheduleStepEnds(follow, document.state().design.schedule, run.session->endUs());
  return run;
}

} // namespace cs::visualizer
