#include "animationsource.h"

#include "document/document.h"
#include "model/buffergeometry.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <QObject>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace cs::visualizer {

namespace {

/// The machine to simulate on, or nullopt with the reason in `error`.
std::optional<Topology> animationTopology(const editor::Document& document, const Program& program,
                                          const QString& preset, QString* error)
{
  if (preset.isEmpty() && document.topology())
    return document.topology();
  const std::string name =
      preset.isEmpty() ? "fully-connected-" + std::to_string(program.ngpus) : preset.toStdString();
  std::string reason;
  std::optional<Topology> topology = makePresetTopology(name, {}, &reason);
  if (!topology) {
    *error = QObject::tr("unknown topology preset \"%1\": %2")
                 .arg(QString::fromStdString(name), QString::fromStdString(reason));
  }
  return topology;
}

/// Each event's logical step: its transfer's Schedule step, else its position in the threadblock
/// when there is no Schedule. Sets `stepCount`.
std::vector<int> eventSteps(const editor::Document& document, const Trace& trace, int& stepCount)
{
  std::vector<int> steps;
  steps.reserve(trace.events.size());
  const Analysis& analysis = document.analysis();
  if (!analysis.schedule) {
    stepCount = 0;
    for (const TraceEvent& event : trace.events) {
      steps.push_back(event.step);
      stepCount = std::max(stepCount, event.step + 1);
    }
    return steps;
  }
  std::unordered_map<int, int> stepOfTransfer;
  for (const Transfer& transfer : analysis.schedule->transfers)
    stepOfTransfer.emplace(transfer.id, transfer.step);
  stepCount = analysis.schedule->stepCount();
  for (const TraceEvent& event : trace.events) {
    const auto it = stepOfTransfer.find(analysis.transferAt(event.rank, event.tb, event.step));
    steps.push_back(it == stepOfTransfer.end() ? -1 : it->second);
  }
  return steps;
}

QString animationTitle(const Program& program, const Topology& topology)
{
  QStringList parts;
  if (!program.name.empty())
    parts << QString::fromStdString(program.name);
  parts << QString::fromUtf8(collectiveTitle(program.collective));
  parts << QObject::tr("%n ranks", nullptr, program.ngpus);
  if (!topology.name.empty())
    parts << QString::fromStdString(topology.name);
  return parts.join(QStringLiteral(" · "));
}

/// The simulation's first error, with how many more there are.
QString simulationError(const SimResult& result)
{
  for (const Diagnostic& diagnostic : result.diagnostics) {
    if (diagnostic.severity == Severity::Error)
      return QObject::tr("the simulation failed: %1")
          .arg(QString::fromStdString(diagnostic.message));
  }
  return QObject::tr("the simulation failed");
}

} // namespace

std::vector<StepSpan> stepSpans(const Trace& trace, const std::vector<int>& eventSteps,
                                int stepCount)
{
  std::vector<double> ends(static_cast<std::size_t>(std::max(stepCount, 0)),
                           -std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < trace.events.size() && i < eventSteps.size(); ++i) {
    const int step = eventSteps[i];
    if (step >= 0 && step < stepCount) {
      double& end = ends[static_cast<std::size_t>(step)];
      end = std::max(end, trace.events[i].end);
    }
  }
  std::vector<StepSpan> spans;
  spans.reserve(ends.size());
  double at = 0;
  for (const double end : ends) {
    const double stop = std::max(at, end);
    spans.push_back({at, stop});
    at = stop;
  }
  return spans;
}

double frameTime(const StepSpan& span, int frame, int framesPerStep)
{
  const int frames = std::max(framesPerStep, 1);
  return span.startUs + (span.endUs - span.startUs) * (frame + 0.5) / frames;
}

AnimationSourceResult makeAnimationSource(const editor::Document& document,
                                          const QString& topologyPreset, std::int64_t bytes)
{
  AnimationSourceResult result;
  const std::optional<Program>& program = document.shownProgram();
  if (!program) {
    result.error = QObject::tr("the document has no program to animate (fix its problems first)");
    return result;
  }
  const std::optional<Topology> topology =
      animationTopology(document, *program, topologyPreset, &result.error);
  if (!topology)
    return result;
  SimOptions options;
  options.bytes = bytes;
  SimResult simulated = simulateProgram(*program, *topology, options);
  if (!simulated.ok) {
    result.error = simulationError(simulated);
    return result;
  }
  int stepCount = 0;
  const std::vector<int> steps = eventSteps(document, simulated.trace, stepCount);
  auto source = std::make_unique<AnimationSource>();
  source->steps = stepSpans(simulated.trace, steps, stepCount);
  source->title = animationTitle(*program, *topology);
  const std::vector<CallMode> modes = declaredModes(*program);
  ReplayOpen opened = ReplaySession::open(*program, std::move(simulated.trace), topology,
                                          modes.empty() ? CallMode::OutOfPlace : modes.front());
  if (!opened.session) {
    result.error = QObject::tr("the simulated run cannot be replayed");
    return result;
  }
  source->session = std::move(opened.session);
  source->follow = std::make_unique<FollowIndex>(source->session->program(),
                                                 source->session->trace(), document.analysis());
  if (source->steps.empty()) {
    result.error = QObject::tr("the algorithm has no steps to animate");
    return result;
  }
  result.source = std::move(source);
  return result;
}

} // namespace cs::visualizer
