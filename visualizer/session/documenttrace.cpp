#include "documenttrace.h"

#include "document/document.h"
#include "model/buffergeometry.h"

#include <QFile>
#include <QFileInfo>

namespace cs::visualizer {

namespace {

QString failure(const QString& path, const QString& reason)
{
  return QObject::tr("Cannot replay %1: %2").arg(QFileInfo(path).fileName(), reason);
}

/// Opens what `open` makes of the document's program, topology and first declared call mode;
/// `name` (a file, "run 12") is what failures name.
template <typename OpenFn>
DocumentReplay openAgainstDocument(const editor::Document& document, const QString& name,
                                   OpenFn open)
{
  DocumentReplay result;
  const std::optional<Program>& program = document.shownProgram();
  if (!program) {
    result.error = failure(name, QObject::tr("the document has no program to replay (fix its "
                                             "problems first)"));
    return result;
  }
  const std::vector<CallMode> modes = declaredModes(*program);
  const CallMode mode = modes.empty() ? CallMode::OutOfPlace : modes.front();
  ReplayOpen opened = open(*program, document.topology(), mode);
  if (opened.session) {
    result.session = std::move(opened.session);
    return result;
  }
  QString reason = QObject::tr("the trace does not fit the document's program");
  if (!opened.diagnostics.empty()) {
    reason = QString::fromStdString(opened.diagnostics.front().message);
    if (opened.diagnostics.size() > 1)
      reason += QObject::tr(" (and %1 more problems)").arg(opened.diagnostics.size() - 1);
  }
  result.error = failure(name, reason);
  return result;
}

} // namespace

bool looksLikeChromeTrace(const QString& path)
{
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return false;
  // The writer's keys come sorted (displayTimeUnit, otherData, traceEvents); a design document
  // names its format near the top.
  const QByteArray head = file.read(64 * 1024);
  if (head.contains("\"collective-studio-design\""))
    return false;
  return head.contains("\"traceEvents\"") || head.contains("\"displayTimeUnit\"") ||
         head.contains("\"otherData\"");
}

DocumentReplay openDocumentTrace(const editor::Document& document, const QString& tracePath)
{
  return openAgainstDocument(
      document, tracePath,
      [&](const Program& program, const std::optional<Topology>& topology, CallMode mode) {
        return ReplaySession::openFile(program, tracePath, topology, mode);
      });
}

DocumentReplay openDocumentRun(const editor::Document& document, const Trace& trace,
                               const QString& name)
{
  return openAgainstDocument(
      document, name,
      [&](const Program& program, const std::optional<Topology>& topology, CallMode mode) {
        return ReplaySession::open(program, trace, topology, mode);
      });
}

} // namespace cs::visualizer
