// MainWindow: the Help menu (see mainwindow.h for the map).

#include "mainwindow.h"

#include "aboutversions.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

/// Where a document of docs/ is: installed beside the program, or in the source tree.
QString docPath(const QString& fileName)
{
  const QStringList candidates = {
      QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/collective-studio/") +
          fileName,
#ifdef CSTUDIO_DOCS_DIR
      QStringLiteral(CSTUDIO_DOCS_DIR "/") + fileName,
#endif
  };
  for (const QString& candidate : candidates) {
    if (QFileInfo::exists(candidate))
      return QFileInfo(candidate).canonicalFilePath();
  }
  return {};
}

QString diagnosticsReferencePath()
{
  return docPath(QStringLiteral("diagnostics.md"));
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

QString MainWindow::userGuidePath()
{
  return docPath(QStringLiteral("editor.md"));
}

QDialog* MainWindow::createUserGuide()
{
  const QString path = userGuidePath();
  if (path.isEmpty()) {
    showError(tr("User Guide"), tr("The user guide (docs/editor.md) is not installed."));
    return nullptr;
  }
  auto* dialog = new QDialog(this);
  dialog->setObjectName(QStringLiteral("userGuide"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Collective Studio User Guide"));
  auto* layout = new QVBoxLayout(dialog);
  auto* browser = new QTextBrowser(dialog);
  browser->setOpenExternalLinks(true);
  // As a source, so that the guide's pictures (images/…) resolve beside it.
  browser->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
  layout->addWidget(browser);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  layout->addWidget(buttons);
  dialog->resize(900, 760);
  return dialog;
}

void MainWindow::addUserGuideAction(QMenu* help)
{
  auto* guide = new QAction(tr("&User Guide"), this);
  guide->setObjectName(QStringLiteral("userGuideAction"));
  guide->setShortcut(QKeySequence::HelpContents);
  guide->setStatusTip(tr("How to draw, check, export and replay an algorithm"));
  connect(guide, &QAction::triggered, this, [this] {
    if (QDialog* dialog = createUserGuide())
      dialog->show();
  });
  help->addAction(guide);
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
