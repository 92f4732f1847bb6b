// MainWindow: more ways to open a recorded run: a run stored in the library (the Library dock's
// Runs list) and files dropped on the window (traces replay, two traces compare, design documents
// and MSCCL XML open as the document). See mainwindow.h for the map.

#include "mainwindow.h"

#include "librarypanel.h"

#include "document/document.h"
#include "replaywindow.h"
#include "session/documenttrace.h"

#include "library.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QStatusBar>

namespace cs::editor {

namespace {

/// The local files among dropped URLs that the window can open (.json, .xml).
QStringList openableFiles(const QMimeData* mime)
{
  QStringList files;
  if (!mime || !mime->hasUrls())
    return files;
  for (const QUrl& url : mime->urls()) {
    const QString path = url.toLocalFile();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!path.isEmpty() && (suffix == QLatin1String("json") || suffix == QLatin1String("xml")))
      files << path;
  }
  return files;
}

} // namespace

void MainWindow::showReplayWindow(std::unique_ptr<visualizer::ReplaySession> session,
                                  const QString& title)
{
  visualizer::ReplayWindow* window =
      visualizer::ReplayWindow::showWindow(std::move(session), this, title);
  followReplay(window);
  m_replayWindow = window;
}

bool MainWindow::showsLibraryVersion(qint64 algorithmId, int number) const
{
  storage::Library* library = m_libraryPanel->library();
  if (!library)
    return false;
  const storage::Result<storage::AlgorithmRecord> algorithm = library->algorithm(algorithmId);
  return algorithm && m_document->origin().libraryName == QString::fromStdString(algorithm->name) &&
         m_document->origin().libraryVersion == number;
}

QString MainWindow::openStoredRun(qint64 algorithmId, int number, qint64 runId)
{
  storage::Library* library = m_libraryPanel->library();
  if (!library)
    return tr("No library is open.");
  if (!showsLibraryVersion(algorithmId, number)) {
    if (const QString error = openFromLibrary(algorithmId, number); !error.isEmpty())
      return error;
  }
  storage::Result<Trace> trace = library->trace(runId);
  if (!trace)
    return QString::fromStdString(trace.error().message);
  m_document->waitForAnalysis(); // the Program the run is read against
  const QString name = tr("run %1").arg(runId);
  visualizer::DocumentReplay opened = visualizer::openDocumentRun(*m_document, *trace, name);
  if (!opened.session)
    return opened.error;
  const QString title = tr("Run %1 (%2) — Replay of %3 v%4")
                            .arg(runId)
                            .arg(opened.session->description(), m_document->displayName())
                            .arg(number);
  showReplayWindow(std::move(opened.session), title);
  return {};
}

void MainWindow::replayStoredRun(qint64 algorithmId, int number, qint64 runId)
{
  // Replaying another version's run replaces the document: ask about unsaved changes first.
  if (!showsLibraryVersion(algorithmId, number) && !confirmDiscard())
    return;
  if (const QString error = openStoredRun(algorithmId, number, runId); !error.isEmpty())
    showError(tr("Replay Stored Run"), error);
}

QString MainWindow::openDroppedFiles(const QStringList& paths)
{
  QStringList traces;
  QStringList documents;
  for (const QString& path : paths)
    (visualizer::looksLikeChromeTrace(path) ? traces : documents) << path;
  if (!documents.isEmpty()) {
    // One document at a time; a trace dropped with it replays against it.
    if (!confirmDiscard())
      return {};
    if (const QString error = openFile(documents.front()); !error.isEmpty())
      return error;
  }
  if (traces.size() >= 2)
    return openComparison(traces.at(0), traces.at(1));
  if (traces.size() == 1)
    return openTrace(traces.front());
  return {};
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
  if (!openableFiles(event->mimeData()).isEmpty())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
  const QStringList files = openableFiles(event->mimeData());
  if (files.isEmpty())
    return;
  event->acceptProposedAction();
  if (const QString error = openDroppedFiles(files); !error.isEmpty())
    showError(tr("Open Dropped Files"), error);
}

} // namespace cs::editor
