// MainWindow: the Teach menu (issue 19): the gallery of classic algorithms, opened on a preset or
// on the topology drawn in the current document, in teaching mode.

#include "mainwindow.h"

#include "document/document.h"
#include "gallerydialog.h"
#include "newdocuments.h"

#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace cs::editor {

namespace {

constexpr int kStatusMessageMs = 5000;

int drawnGpus(const Document& document)
{
  const auto& topology = document.state().design.topology;
  return topology ? topology->rankCount() : 0;
}

} // namespace

void MainWindow::addTeachMenu()
{
  QMenu* teach = menuBar()->addMenu(tr("T&each"));
  QAction* gallery = teach->addAction(tr("&Gallery…"));
  gallery->setShortcut(QKeySequence(tr("Ctrl+Shift+G")));
  gallery->setStatusTip(tr("Every classic algorithm as a card: open one, narrated, on any "
                           "topology"));
  connect(gallery, &QAction::triggered, this, &MainWindow::showGalleryFromMenu);
}

GalleryDialog* MainWindow::createGalleryDialog()
{
  auto* dialog = new GalleryDialog(drawnGpus(*m_document), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  return dialog;
}

void MainWindow::showGalleryFromMenu()
{
  GalleryDialog* dialog = createGalleryDialog();
  connect(dialog, &QDialog::accepted, this, [this, dialog] {
    const GalleryChoice choice = dialog->choice();
    if (!confirmDiscard())
      return;
    const QString error = openInTeachingMode(choice);
    if (!error.isEmpty())
      showError(tr("Gallery"), error);
  });
  dialog->open();
}

QString MainWindow::openInTeachingMode(const GalleryChoice& choice)
{
  QString error;
  std::optional<DocumentState> state = algorithmDocumentState(
      choice.key, {.ranks = choice.ranks}, choice.currentDrawing ? QString() : choice.preset,
      &error);
  if (!state)
    return error;
  if (choice.currentDrawing) {
    if (drawnGpus(*m_document) != choice.ranks)
      return tr("The current drawing has %1 GPUs, not %2.")
          .arg(drawnGpus(*m_document))
          .arg(choice.ranks);
    state->design.topology = m_document->state().design.topology;
  }
  newDocument(std::move(*state));
  showView(View::Timeline);
  statusBar()->showMessage(tr("%1 on %2 ranks: step through it with the Teaching panel")
                               .arg(choice.key)
                               .arg(choice.ranks),
                           kStatusMessageMs);
  return {};
}

} // namespace cs::editor
