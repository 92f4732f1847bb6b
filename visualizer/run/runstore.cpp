#include "runstore.h"

#include "library.h"
#include "model/buffergeometry.h"
#include "session/replaysession.h"
#include "sim/estimates.h"

#include <QCoreApplication>

namespace cs::visualizer {

namespace {

QString tr(const char* text)
{
  return QCoreApplication::translate("cs::visualizer::RunStore", text);
}

QString microseconds(double us)
{
  return QStringLiteral("%1 µs").arg(us, 0, 'g', 4);
}

QString execVerdict(const ExecResult& result)
{
  switch (result.status) {
  case ExecStatus::Verified:
    return tr("verified, %1 per iteration").arg(microseconds(result.meanUs()));
  case ExecStatus::Wrong:
    return tr("%1 wrong of %2").arg(result.wrong).arg(result.checked);
  case ExecStatus::NotVerified:
    return tr("ran in %1 (no postcondition to verify)").arg(microseconds(result.meanUs()));
  case ExecStatus::Hung: {
    QString text = tr("hung: %1 threadblock(s) blocked").arg(result.blocked.size());
    if (!result.blocked.empty())
      text += QStringLiteral(" (") + QString::fromStdString(describe(result.blocked.front())) +
              QStringLiteral(")");
    return text;
  }
  case ExecStatus::Failed:
    break;
  }
  return tr("failed: %1")
      .arg(result.diagnostics.empty() ? tr("no reason given")
                                      : QString::fromStdString(result.diagnostics.front().message));
}

QString simVerdict(const SimResult& result)
{
  if (result.ok)
    return tr("simulated: %1, busbw %2 GB/s")
        .arg(microseconds(result.timeUs))
        .arg(result.busbwGBps, 0, 'f', 1);
  const QString reason = result.diagnostics.empty()
                             ? tr("no reason given")
                             : QString::fromStdString(result.diagnostics.front().message);
  return tr("simulation stopped: %1").arg(reason);
}

} // namespace

storage::RunRecord runRecord(const RunRequest& request, const RunOutcome& outcome)
{
  storage::RunRecord record;
  record.backend = outcome.sim ? "simulator" : request.backend.toStdString();
  record.dtype = std::string(dataTypeName(request.options.dtype));
  record.op = std::string(reduceOpName(request.options.op));
  record.bytes = request.options.bytes;
  record.status = outcome.sim ? "simulated" : std::string(execStatusName(outcome.exec->status));
  record.verdict = runVerdict(outcome).toStdString();
  if (outcome.sim) {
    record.device = request.topology ? request.topology->name : std::string();
    record.timeUs = outcome.sim->timeUs;
    record.algbwGBps = outcome.sim->algbwGBps;
    record.busbwGBps = outcome.sim->busbwGBps;
  } else {
    record.timeUs = outcome.exec->meanUs();
    record.wrong = outcome.exec->wrong;
    if (record.timeUs > 0) {
      record.algbwGBps = static_cast<double>(record.bytes) / record.timeUs / 1e3;
      record.busbwGBps =
          record.algbwGBps * busBandwidthFactor(request.program.collective, request.program.ngpus);
    }
  }
  return record;
}

QString runVerdict(const RunOutcome& outcome)
{
  if (outcome.cancelled)
    return tr("cancelled");
  if (!outcome.error.isEmpty())
    return tr("could not run: %1").arg(outcome.error);
  if (outcome.sim)
    return simVerdict(*outcome.sim);
  if (outcome.exec)
    return execVerdict(*outcome.exec);
  return tr("no result");
}

bool runHasTrace(const RunOutcome& outcome)
{
  if (outcome.sim)
    return !outcome.sim->trace.events.empty();
  return outcome.exec && outcome.exec->status != ExecStatus::Failed &&
         !outcome.exec->trace.events.empty();
}

const Trace& runTrace(const RunOutcome& outcome)
{
  return outcome.sim ? outcome.sim->trace : outcome.exec->trace;
}

ReplayOpen openRunReplay(const RunRequest& request, const RunOutcome& outcome)
{
  const std::vector<CallMode> modes = declaredModes(request.program);
  CallMode mode = modes.empty() ? CallMode::OutOfPlace : modes.front();
  if (outcome.exec)
    mode = outcome.exec->mode;
  ReplayOpen opened =
      ReplaySession::open(request.program, runTrace(outcome), request.topology, mode);
  if (opened.session) {
    if (const std::optional<double> stopped = runTrace(outcome).stoppedUs)
      opened.session->setCursor(*stopped);
  }
  return opened;
}

QString whyNoReplay(const ReplayOpen& opened)
{
  return opened.diagnostics.empty() ? QString()
                                    : QString::fromStdString(opened.diagnostics.front().message);
}

StoredRun keepRun(storage::Library* library, const RunTarget& target, const RunRequest& request,
                  const RunOutcome& outcome)
{
  const auto notStored = [](const QString& why) { return StoredRun{false, why, {}}; };
  if (!runHasTrace(outcome))
    return notStored(tr("not stored: the run has no result"));
  if (target.libraryName.isEmpty())
    return notStored(tr("not stored: save the algorithm to the library first"));
  if (!library)
    return notStored(tr("not stored: no library is open"));
  const auto algorithm = library->algorithm(target.libraryName.toStdString());
  if (!algorithm.ok())
    return notStored(tr("not stored: %1").arg(QString::fromStdString(algorithm.error().message)));
  const auto version = library->version(algorithm.value().id, target.libraryVersion);
  if (!version.ok())
    return notStored(tr("not stored: %1").arg(QString::fromStdString(version.error().message)));
  storage::RunRecord record = runRecord(request, outcome);
  record.versionId = version.value().id;
  const auto stored = library->addRun(record, &runTrace(outcome));
  if (!stored.ok())
    return notStored(tr("not stored: %1").arg(QString::fromStdString(stored.error().message)));
  const QString label =
      QStringLiteral("%1 v%2").arg(target.libraryName).arg(version.value().number);
  return {true, tr("stored in the library under %1").arg(label), label};
}

QString storeRun(storage::Library* library, const RunTarget& target, const RunRequest& request,
                 const RunOutcome& outcome)
{
  return keepRun(library, target, request, outcome).message;
}

} // namespace cs::visualizer
