#include "sweeprequest.h"

#include "io/bytesize.h"
#include "model/buffergeometry.h"
#include "run/runbackends.h"
#include "run/runstore.h"
#include "sim/estimates.h"

#include <QCoreApplication>

#include <numeric>

namespace cs::visualizer {

namespace {

QString tr(const char* text)
{
  return QCoreApplication::translate("cs::visualizer::SweepRequest", text);
}

bool isSimulate(const QString& backend)
{
  return backend == QLatin1String(kSimulateBackend);
}

/// A short verdict for the table; the Run panel's runVerdict() says more.
QString shortVerdict(const RunOutcome& outcome)
{
  if (outcome.sim)
    return outcome.sim->ok ? tr("simulated") : runVerdict(outcome);
  if (!outcome.exec)
    return runVerdict(outcome);
  switch (outcome.exec->status) {
  case ExecStatus::Verified:
    return tr("verified");
  case ExecStatus::Wrong:
    return tr("%1 wrong").arg(outcome.exec->wrong);
  case ExecStatus::NotVerified:
    return tr("not verified");
  case ExecStatus::Hung:
  case ExecStatus::Failed:
    break;
  }
  return runVerdict(outcome);
}

/// NCCL's own collective for the same call, where the backend timed it.
std::optional<SweepPoint> libraryPoint(const SweepRequest& request, const RunOutcome& outcome,
                                       SweepPoint point)
{
  if (!outcome.exec || outcome.exec->libraryCall.empty() || outcome.exec->libraryUs.empty())
    return std::nullopt;
  const std::vector<double>& times = outcome.exec->libraryUs;
  point.series = QString::fromStdString(outcome.exec->libraryCall);
  point.kind = SweepKind::Library;
  point.timeUs =
      std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size());
  point.algbwGBps = point.timeUs > 0 ? static_cast<double>(point.bytes) / point.timeUs / 1e3 : 0;
  point.busbwGBps =
      point.algbwGBps * busBandwidthFactor(request.program.collective, request.program.ngpus);
  point.wrong.reset(); // the executor verifies the program's result, not the library call's
  point.verdict = tr("NCCL's own call");
  return point;
}

} // namespace

std::vector<std::int64_t> sweepSizes(std::int64_t minBytes, std::int64_t maxBytes)
{
  std::vector<std::int64_t> sizes;
  if (minBytes <= 0)
    return sizes;
  for (std::int64_t bytes = minBytes; bytes <= maxBytes; bytes *= 2)
    sizes.push_back(bytes);
  return sizes;
}

std::vector<SweepPlanPoint> sweepPlan(const SweepRequest& request)
{
  std::vector<SweepPlanPoint> plan;
  const std::vector<std::int64_t> sizes = sweepSizes(request.minBytes, request.maxBytes);
  for (const QString& backend : request.backends)
    for (const std::int64_t bytes : sizes)
      plan.push_back({backend, bytes});
  return plan;
}

RunRequest pointRequest(const SweepRequest& request, const SweepPlanPoint& point)
{
  RunRequest run;
  run.backend = point.backend;
  run.program = request.program;
  run.topology = request.topology;
  run.options = request.options;
  run.options.bytes = point.bytes;
  run.options.trace = true; // every point is stored with its trace, as a run is
  return run;
}

QString pointLabel(const SweepPlanPoint& point)
{
  return QStringLiteral("%1 %2").arg(point.backend,
                                     QString::fromStdString(formatByteSize(point.bytes)));
}

std::vector<SweepPoint> sweepPoints(const SweepRequest& request, const RunRequest& run,
                                    const RunOutcome& outcome)
{
  if (outcome.cancelled)
    return {};
  const bool simulated = isSimulate(run.backend);
  SweepPoint point;
  point.series =
      QStringLiteral("%1 · %2").arg(request.label, simulated ? tr("simulated") : run.backend);
  point.backend = simulated ? QStringLiteral("simulator") : run.backend;
  point.kind = simulated ? SweepKind::Simulated : SweepKind::Measured;
  point.bytes = run.options.bytes;
  point.count = run.options.bytes / dataTypeSize(run.options.dtype) /
                sizeMultiplier(request.program.collective, request.program.ngpus);
  point.dtype = QString::fromUtf8(dataTypeName(run.options.dtype));
  point.op = QString::fromUtf8(reduceOpName(run.options.op));
  point.verdict = shortVerdict(outcome);
  if (runHasTrace(outcome)) {
    const storage::RunRecord record = runRecord(run, outcome);
    point.timeUs = record.timeUs;
    point.algbwGBps = record.algbwGBps;
    point.busbwGBps = record.busbwGBps;
  }
  if (outcome.exec) {
    point.count = outcome.exec->count > 0 ? outcome.exec->count : point.count;
    if (outcome.exec->status == ExecStatus::Verified || outcome.exec->status == ExecStatus::Wrong)
      point.wrong = outcome.exec->wrong;
  }
  std::vector<SweepPoint> points{point};
  if (std::optional<SweepPoint> library = libraryPoint(request, outcome, point))
    points.push_back(std::move(*library));
  return points;
}

} // namespace cs::visualizer
