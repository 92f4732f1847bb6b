// MainWindow: the Teach menu (issue 19): the gallery of classic algorithms, opened on a preset or
// on the topology drawn in the current document, in teaching mode.

#include "mainwindow.h"

#include "document/document.h"
#include "gallerydialog.h"
#include "newdocuments.h"
#include "session/replaysession.h"
#include "teach/breakitpanel.h"
#include "teach/presentationwindow.h"
#include "teach/teachingview.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace cs::editor {

namespace {

constexpr int kStatusMessageMs = 5000;
constexpr auto kGalleryOfferedKey = "teach/galleryOffered";

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
  m_teachingAction = teach->addAction(tr("&Teaching Mode"));
  m_teachingAction->setCheckable(true);
  m_teachingAction->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
  m_teachingAction->setStatusTip(tr("Step through the open algorithm, narrated, on its topology"));
  connect(m_teachingAction, &QAction::toggled, this, &MainWindow::setTeachingMode);
  teach->addSeparator();
  QAction* present = teach->addAction(tr("&Presentation Mode"));
  present->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5)); // F5 is Run…, as in IDEs
  present->setStatusTip(tr("Full screen, large type, high contrast: the topology, the timeline "
                           "and the narration (Esc leaves, D switches light and dark)"));
  connect(present, &QAction::triggered, this,
          [this] { createPresentation(false)->showFullScreen(); });
}

visualizer::PresentationWindow* MainWindow::createPresentation(bool dark)
{
  setTeachingMode(true);
  auto* window = new visualizer::PresentationWindow(m_teachingView, m_document, dark, this);
  window->setAttribute(Qt::WA_DeleteOnClose);
  return window;
}

void MainWindow::setTeachingMode(bool on)
{
  if (m_teachingAction->isChecked() != on)
    m_teachingAction->setChecked(on); // comes back here through toggled
  if (on == (m_teachingView != nullptr))
    return;
  if (!on) {
    m_teachingDock->hide();
    delete m_teachingView;
    m_teachingView = nullptr;
    return;
  }
  if (!m_teachingDock) {
    m_teachingDock = new QDockWidget(tr("Teaching"), this);
    m_teachingDock->setObjectName(QStringLiteral("teachingDock"));
    addDockWidget(Qt::RightDockWidgetArea, m_teachingDock);
    // The narration and the topology need the height; the Inspector stays a tab away.
    tabifyDockWidget(m_inspectorDock, m_teachingDock);
    // Closing the dock leaves teaching mode, as unchecking the menu does.
    connect(m_teachingDock->toggleViewAction(), &QAction::toggled, this, [this](bool visible) {
      if (!visible)
        setTeachingMode(false);
    });
  }
  m_teachingView = new visualizer::TeachingView(m_document, m_timelineView, m_programView);
  // Break it's CPU runs open as Replay › Open Trace opens a run: following the editor's views.
  m_teachingView->breakItPanel()->cpuRun()->setReplayOpener(
      [this](std::unique_ptr<visualizer::ReplaySession> session, const QString& title) {
        showReplayWindow(std::move(session), title);
      });
  m_teachingDock->setWidget(m_teachingView);
  m_teachingDock->show();
  m_teachingDock->raise();
  // Sentences and the topology need more room than the Inspector's default width.
  resizeDocks({m_teachingDock}, {std::max(m_teachingDock->width(), width() / 3)}, Qt::Horizontal);
  m_teachingView->panel()->setFocus();
}

GalleryDialog* MainWindow::createGalleryDialog()
{
  auto* dialog = new GalleryDialog(m_document->state().design.topology, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  return dialog;
}

bool MainWindow::offerGalleryOnFirstStart()
{
  QSettings settings;
  if (settings.value(kGalleryOfferedKey, false).toBool())
    return false;
  settings.setValue(kGalleryOfferedKey, true);
  showGalleryFromMenu();
  return true;
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
  std::optional<DocumentState> state =
      algorithmDocumentState(choice.key, {.ranks = choice.ranks},
                             choice.currentDrawing ? QString() : choice.preset, &error);
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
  // Teaching sizes analyse in milliseconds: wait, so the run is there when the dock shows.
  m_document->waitForAnalysis();
  setTeachingMode(true);
  m_teachingView->rebuildNow();
  statusBar()->showMessage(tr("%1 on %2 ranks: step through it with the Teaching panel")
                               .arg(choice.key)
                               .arg(choice.ranks),
                           kStatusMessageMs);
  return {};
}

} // namespace cs::editor
