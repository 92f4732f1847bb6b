// MainWindow: the Help menu (see mainwindow.h for the map).

#include "mainwindow.h"

#include "aboutversions.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

/// Where the diagnostics reference is: installed beside the program, or in the source tree.
QString diagnosticsReferencePath()
{
  const QStringList candidates = {
      QCoreApplication::applicationDirPath() +
          QStringLiteral("/../share/doc/collective-studio/diagnostics.md"),
#ifdef CSTUDIO_DOCS_DIR
      QStringLiteral(CSTUDIO_DOCS_DIR "/diagnostics.md"),
#endif
  };
  for (const QString& candidate : candidates) {
    if (QFileInfo::exists(candidate))
      return QFileInfo(candidate).canonicalFilePath();
  }
  return {};
}

} // namespace

QMessageBox* MainWindow::createAboutBox()
{
  const QString text =
      tr("<h3>Collective Studio %1</h3>"
         "<p>Design, check, simulate, run and teach GPU collective-communication algorithms. "
         "Draw chunk transfers on the timeline, watch the checker judge them live, and export "
         "MSCCL XML for the classic MSCCL runtime, the MSCCL executor or RCCL.</p>"
         "<p>Found at run time:</p>%2")
          .arg(QCoreApplication::applicationVersion(), aboutTableHtml(aboutRows()));
  auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Collective Studio"), text,
                              QMessageBox::Ok, this);
  box->setIconPixmap(QApplication::windowIcon().pixmap(64, 64));
  box->setAttribute(Qt::WA_DeleteOnClose);
  return box;
}

void MainWindow::showAbout()
{
  createAboutBox()->open();
}

void MainWindow::showDiagnosticsReference()
{
  const QString path = diagnosticsReferencePath();
  QFile file(path);
  if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
    showError(tr("Diagnostics Reference"),
              tr("The diagnostics reference (docs/diagnostics.md) is not installed."));
    return;
  }
  auto* dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Diagnostics Reference"));
  auto* layout = new QVBoxLayout(dialog);
  auto* browser = new QTextBrowser(dialog);
  browser->setOpenExternalLinks(true);
  browser->setMarkdown(QString::fromUtf8(file.readAll()));
  layout->addWidget(browser);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  layout->addWidget(buttons);
  dialog->resize(820, 700);
  dialog->show();
}

} // namespace cs::editor
