#include "documenttrace.h"

#include "document/document.h"
#include "model/buffergeometry.h"

#include <QFileInfo>

namespace cs::visualizer {

namespace {

QString failure(const QString& path, const QString& reason)
{
  return QObject::tr("Cannot replay %1: %2").arg(QFileInfo(path).fileName(), reason);
}

} // namespace

DocumentReplay openDocumentTrace(const editor::Document& document, const QString& tracePath)
{
  DocumentReplay result;
  const std::optional<Program>& program = document.shownProgram();
  if (!program) {
    result.error = failure(tracePath, QObject::tr("the document has no program to replay (fix "
                                                  "its problems first)"));
    return result;
  }
  const std::vector<CallMode> modes = declaredModes(*program);
  const CallMode mode = modes.empty() ? CallMode::OutOfPlace : modes.front();
  ReplayOpen opened = ReplaySession::openFile(*program, tracePath, document.topology(), mode);
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
  result.error = failure(tracePath, reason);
  return result;
}

} // namespace cs::visualizer
