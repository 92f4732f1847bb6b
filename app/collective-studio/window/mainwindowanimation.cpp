// MainWindow: File › Export Animation… (issue 19 item 6). The dialog collects the choices; the
// export is visualizer/export's, the same path as --export-animation, driven here by a
// QProgressDialog whose Cancel stops it with nothing written.

#include "exportanimationdialog.h"
#include "mainwindow.h"

#include "document/document.h"

#include <QDir>
#include <QFileInfo>
#include <QProgressDialog>
#include <QStatusBar>

#include <atomic>

namespace cs::editor {

namespace {

constexpr int kStatusMessageMs = 5000;
/// The progress dialog appears only for exports that take longer than this.
constexpr int kProgressDelayMs = 400;

} // namespace

QString MainWindow::exportAnimationTo(const QString& path,
                                      const visualizer::AnimationOptions& options)
{
  m_document->waitForAnalysis();
  QProgressDialog progress(tr("Exporting %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1,
                           this);
  progress.setWindowTitle(tr("Export Animation"));
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(kProgressDelayMs);
  std::atomic<bool> cancel = false;
  visualizer::AnimationControl control;
  control.cancel = &cancel;
  control.progress = [&progress, &cancel](int done, int total) {
    progress.setMaximum(total);
    progress.setValue(done); // also runs the event loop, so Cancel gets clicked
    if (progress.wasCanceled())
      cancel = true;
  };
  const visualizer::AnimationExport result =
      visualizer::exportAnimation(*m_document, path, options, control);
  progress.reset();
  if (!result.ok)
    return result.error;
  statusBar()->showMessage(
      tr("Exported %1: %2 steps, %3 frames").arg(path).arg(result.steps).arg(result.frames),
      kStatusMessageMs);
  return {};
}

void MainWindow::exportAnimationFromDialog()
{
  const QFileInfo suggested(suggestedPath(QStringLiteral("gif")));
  ExportAnimationDialog dialog(suggested.dir().filePath(suggested.completeBaseName()), this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  const QString error = exportAnimationTo(dialog.outputPath(), dialog.options());
  if (!error.isEmpty())
    showError(tr("Export Animation"), error);
}

} // namespace cs::editor
