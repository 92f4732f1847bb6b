// MainWindow: the Replay menu, which opens recorded runs of the shown program in the visual
// debugger (see mainwindow.h for the map).

#include "mainwindow.h"

#include "document/document.h"
#include "replaywindow.h"
#include "run/runpanel.h"
#include "session/documenttrace.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>

namespace cs::editor {

QString MainWindow::openTrace(const QString& path)
{
  visualizer::DocumentReplay opened = visualizer::openDocumentTrace(*m_document, path);
  if (!opened.session)
    return opened.error;
  auto* window = new visualizer::ReplayWindow(std::move(opened.session), this);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(
      tr("%1 — Replay of %2").arg(QFileInfo(path).fileName(), m_document->displayName()));
  window->resize(1300, 860);
  window->show();
  m_replayWindow = window;
  return {};
}

void MainWindow::openTraceFromDialog()
{
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Trace"), QFileInfo(m_document->origin().filePath).absolutePath(),
      tr("Chrome traces (*.json);;All files (*)"));
  if (path.isEmpty())
    return;
  const QString error = openTrace(path);
  if (!error.isEmpty())
    showError(tr("Open Trace"), error);
}

void MainWindow::showRunPanel()
{
  m_runDock->show();
  m_runDock->raise();
  m_runPanel->setFocus();
}

} // namespace cs::editor
