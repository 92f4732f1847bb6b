// MainWindow: actions, menus and toolbars (see mainwindow.h for the map).

#include "mainwindowactions.h"
#include "mainwindow.h"

#include "librarypanel.h"
#include "recentfiles.h"
#include "windowicons.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "panels/inspectorpanel.h"
#include "panels/problemspanel.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QToolBar>

namespace cs::editor {

namespace {

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// The action among `actions` that does `key` (by shortcut, object name or text), or nullptr.
/// Views name their delete and select-all actions in any of these ways; the Edit menu shows the
/// current view's own action so its shortcut is registered exactly once.
QAction* findEditAction(const QList<QAction*>& actions, QKeySequence::StandardKey key,
                        const QString& word)
{
  const QList<QKeySequence> bindings = QKeySequence::keyBindings(key);
  for (QAction* action : actions) {
    for (const QKeySequence& shortcut : action->shortcuts()) {
      if (bindings.contains(shortcut))
        return action;
    }
  }
  QString compact = word;
  compact.remove(QLatin1Char(' '));
  for (QAction* action : actions) {
    if (action->objectName().contains(compact, Qt::CaseInsensitive))
      return action;
  }
  for (QAction* action : actions) {
    if (action->text().remove(QLatin1Char('&')).startsWith(word, Qt::CaseInsensitive))
      return action;
  }
  return nullptr;
}

QAction* makeAction(QObject* parent, WindowIcon icon, const QString& text, const QString& tip,
                    const QList<QKeySequence>& shortcuts = {})
{
  auto* action = new QAction(drawnIcon(icon), text, parent);
  action->setShortcuts(shortcuts);
  QString withShortcut = tip;
  if (!shortcuts.isEmpty() && !shortcuts.front().isEmpty())
    withShortcut +=
        QStringLiteral(" (%1)").arg(shortcuts.front().toString(QKeySequence::NativeText));
  action->setToolTip(withShortcut);
  action->setStatusTip(tip);
  return action;
}

} // namespace

QList<QAction*> MainWindow::viewActions(View view) const
{
  switch (view) {
  case View::Topology:
    return m_topologyView->toolActions();
  case View::Timeline:
    return m_timelineView->toolActions();
  case View::Program:
    return m_programView->toolActions();
  }
  return {};
}

void MainWindow::createActions()
{
  createFileActions();
  createEditAndViewActions();
}

void MainWindow::createFileActions()
{
  Actions& a = *m_actions;
  a.newDocument = makeAction(this, WindowIcon::New, tr("&New…"),
                             tr("New document: empty or a classic algorithm"),
                             QKeySequence::keyBindings(QKeySequence::New));
  connect(a.newDocument, &QAction::triggered, this, &MainWindow::newFromDialog);
  a.open =
      makeAction(this, WindowIcon::Open, tr("&Open…"), tr("Open MSCCL XML or a design document"),
                 QKeySequence::keyBindings(QKeySequence::Open));
  connect(a.open, &QAction::triggered, this, &MainWindow::openFromDialog);
  a.save = makeAction(this, WindowIcon::SaveDesign, tr("&Save"),
                      tr("Save to the document's file or library algorithm"),
                      QKeySequence::keyBindings(QKeySequence::Save));
  connect(a.save, &QAction::triggered, this, &MainWindow::save);
  a.saveDesignAs = makeAction(this, WindowIcon::SaveDesign, tr("Save Design &As…"),
                              tr("Save the design (timeline, topology, notes) as .csdesign.json"),
                              QKeySequence::keyBindings(QKeySequence::SaveAs));
  connect(a.saveDesignAs, &QAction::triggered, this, &MainWindow::saveDesignAsFromDialog);
  a.saveToLibrary = makeAction(this, WindowIcon::SaveLibrary, tr("Save to &Library…"),
                               tr("Save a new version in the library"),
                               {QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S)});
  connect(a.saveToLibrary, &QAction::triggered, this, &MainWindow::saveToLibraryFromDialog);
  a.exportXml =
      makeAction(this, WindowIcon::Export, tr("&Export MSCCL XML…"),
                 tr("Export MSCCL XML for a runtime"), {QKeySequence(Qt::CTRL | Qt::Key_E)});
  connect(a.exportXml, &QAction::triggered, this, &MainWindow::exportXmlFromDialog);
  a.exportDot = makeAction(this, WindowIcon::Topology, tr("Export Topology &DOT…"),
                           tr("Export the topology as Graphviz DOT"));
  connect(a.exportDot, &QAction::triggered, this, &MainWindow::exportDotFromDialog);
  a.exportSvg = makeAction(this, WindowIcon::Topology, tr("Export Topology S&VG…"),
                           tr("Export the topology canvas as SVG"));
  connect(a.exportSvg, &QAction::triggered, this,
          [this] { exportTopologyFromDialog(QStringLiteral("svg")); });
  a.exportPng = makeAction(this, WindowIcon::Topology, tr("Export Topology &PNG…"),
                           tr("Export the topology canvas as PNG"));
  connect(a.exportPng, &QAction::triggered, this,
          [this] { exportTopologyFromDialog(QStringLiteral("png")); });
  a.exportAnimation = makeAction(this, WindowIcon::Export, tr("Export &Animation…"),
                                 tr("Export the simulated playback as a GIF, MP4, PNGs or SVGs"));
  connect(a.exportAnimation, &QAction::triggered, this, &MainWindow::exportAnimationFromDialog);
  a.clearRecent = new QAction(tr("&Clear Recent Files"), this);
  connect(a.clearRecent, &QAction::triggered, m_recentFiles, &RecentFiles::clear);
  QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
  if (quitKeys.isEmpty())
    quitKeys << QKeySequence(Qt::CTRL | Qt::Key_Q);
  a.quit = new QAction(tr("&Quit"), this);
  a.quit->setShortcuts(quitKeys);
  a.quit->setMenuRole(QAction::QuitRole);
  connect(a.quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createEditAndViewActions()
{
  Actions& a = *m_actions;
  a.undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
  a.undo->setIcon(drawnIcon(WindowIcon::Undo));
  a.undo->setShortcuts(QKeySequence::keyBindings(QKeySequence::Undo));
  a.redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
  a.redo->setIcon(drawnIcon(WindowIcon::Redo));
  a.redo->setShortcuts(QKeySequence::keyBindings(QKeySequence::Redo));
  a.deletePlaceholder = new QAction(tr("&Delete"), this);
  a.deletePlaceholder->setEnabled(false);
  a.selectAllPlaceholder = new QAction(tr("Select &All"), this);
  a.selectAllPlaceholder->setEnabled(false);

  a.views = new QActionGroup(this);
  const auto viewAction = [&](const QString& text, View view, int key) {
    auto* action = new QAction(text, a.views);
    action->setCheckable(true);
    action->setShortcut(QKeySequence(Qt::CTRL | key));
    connect(action, &QAction::triggered, this, [this, view] { showView(view); });
    return action;
  };
  a.showTopology = viewAction(tr("&Topology"), View::Topology, Qt::Key_1);
  a.showTimeline = viewAction(tr("T&imeline"), View::Timeline, Qt::Key_2);
  a.showProgram = viewAction(tr("&Program"), View::Program, Qt::Key_3);
  a.resetLayout = new QAction(tr("&Reset Layout"), this);
  connect(a.resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);

  a.openTrace = makeAction(this, WindowIcon::Open, tr("Open &Trace…"),
                           tr("Replay a recorded run (Chrome trace) of this program"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)});
  connect(a.openTrace, &QAction::triggered, this, &MainWindow::openTraceFromDialog);
  a.run = new QAction(tr("&Run…"), this);
  a.run->setStatusTip(tr("Run this program on the simulator or an executor and replay the run"));
  a.run->setShortcut(QKeySequence(Qt::Key_F5));
  connect(a.run, &QAction::triggered, this, &MainWindow::showRunPanel);

  a.about = new QAction(drawnIcon(WindowIcon::App), tr("&About Collective Studio"), this);
  a.about->setMenuRole(QAction::AboutRole);
  connect(a.about, &QAction::triggered, this, &MainWindow::showAbout);
  a.diagnostics = new QAction(tr("&Diagnostics Reference"), this);
  a.diagnostics->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1)); // F1 is the User Guide
  connect(a.diagnostics, &QAction::triggered, this, &MainWindow::showDiagnosticsReference);
}

void MainWindow::createMenus()
{
  Actions& a = *m_actions;
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(a.newDocument);
  file->addAction(a.open);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  file->addSeparator();
  file->addAction(a.save);
  file->addAction(a.saveDesignAs);
  file->addAction(a.saveToLibrary);
  file->addSeparator();
  file->addAction(a.exportXml);
  file->addAction(a.exportDot);
  file->addAction(a.exportSvg);
  file->addAction(a.exportPng);
  file->addAction(a.exportAnimation);
  file->addSeparator();
  file->addAction(a.quit);

  m_editMenu = menuBar()->addMenu(tr("&Edit"));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(a.showTopology);
  view->addAction(a.showTimeline);
  view->addAction(a.showProgram);
  view->addSeparator();
  view->addAction(m_libraryDock->toggleViewAction());
  view->addAction(m_inspectorDock->toggleViewAction());
  view->addAction(m_problemsDock->toggleViewAction());
  view->addAction(m_runDock->toggleViewAction());
  view->addSeparator();
  addWindowViewActions(view);
  view->addAction(a.resetLayout);

  // Filled with the current view's own actions (see updateViewActions).
  m_viewToolsMenu = menuBar()->addMenu(tr("&Timeline"));

  QMenu* replay = menuBar()->addMenu(tr("&Replay"));
  replay->addAction(a.run);
  replay->addAction(a.openTrace);
  addCompareAction(replay);
  addSweepAction(replay);
  addTeachMenu();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  addUserGuideAction(help);
  help->addAction(a.diagnostics);
  help->addSeparator();
  help->addAction(a.about);
}

void MainWindow::createToolBars()
{
  Actions& a = *m_actions;
  m_fileToolBar = addToolBar(tr("Document"));
  m_fileToolBar->setObjectName(QStringLiteral("fileToolBar"));
  m_fileToolBar->setIconSize(QSize(22, 22));
  m_fileToolBar->addAction(a.newDocument);
  m_fileToolBar->addAction(a.open);
  m_fileToolBar->addAction(a.saveToLibrary);
  m_fileToolBar->addAction(a.exportXml);
  m_fileToolBar->addSeparator();
  m_fileToolBar->addAction(a.undo);
  m_fileToolBar->addAction(a.redo);
  m_fileToolBar->addSeparator();

  auto* target = new QLabel(tr(" Target: "), m_fileToolBar);
  m_fileToolBar->addWidget(target);
  m_dialectCombo = new QComboBox(m_fileToolBar);
  m_dialectCombo->setToolTip(tr("The runtime the algorithm is lowered, checked and exported for"));
  for (const DialectId id : allDialects()) {
    m_dialectCombo->addItem(toQString(dialect(id).key), static_cast<int>(id));
    m_dialectCombo->setItemData(m_dialectCombo->count() - 1, toQString(dialect(id).title),
                                Qt::ToolTipRole);
  }
  m_fileToolBar->addWidget(m_dialectCombo);
  m_fileToolBar->addWidget(new QLabel(tr("  Protocol: "), m_fileToolBar));
  m_protocolCombo = new QComboBox(m_fileToolBar);
  m_protocolCombo->setToolTip(tr("The NCCL protocol written into the MSCCL XML"));
  for (const Protocol protocol : {Protocol::Simple, Protocol::LL, Protocol::LL128})
    m_protocolCombo->addItem(toQString(protocolName(protocol)), static_cast<int>(protocol));
  m_fileToolBar->addWidget(m_protocolCombo);
  connect(m_dialectCombo, &QComboBox::currentIndexChanged, this,
          &MainWindow::loweringControlChanged);
  connect(m_protocolCombo, &QComboBox::currentIndexChanged, this,
          &MainWindow::loweringControlChanged);

  m_viewToolBar = addToolBar(tr("View Tools"));
  m_viewToolBar->setObjectName(QStringLiteral("viewToolBar"));
  m_viewToolBar->setIconSize(QSize(22, 22));
}

void MainWindow::currentViewChanged()
{
  Actions& a = *m_actions;
  const View view = currentView();
  (view == View::Topology   ? a.showTopology
   : view == View::Timeline ? a.showTimeline
                            : a.showProgram)
      ->setChecked(true);
  // The Inspector shows what this tab shows selected, not a link or transfer left on another.
  m_document->setSelection(selectionShownBy(m_document->selection(),
                                            view == View::Topology ? SelectionScope::Topology
                                                                   : SelectionScope::Algorithm));
  updateViewActions();
}

void MainWindow::updateViewActions()
{
  const View view = currentView();
  const QList<QAction*> actions = viewActions(view);
  m_viewToolBar->clear();
  m_viewToolBar->addActions(actions);
  m_viewToolBar->setVisible(!actions.isEmpty());
  promoteViewShortcuts();

  m_viewToolsMenu->clear();
  m_viewToolsMenu->addActions(actions);
  m_viewToolsMenu->setTitle(m_tabs->tabText(m_tabs->currentIndex()).prepend(QLatin1Char('&')));
  m_viewToolsMenu->menuAction()->setVisible(!actions.isEmpty());

  Actions& a = *m_actions;
  QAction* deleteAction = findEditAction(actions, QKeySequence::Delete, tr("Delete"));
  QAction* selectAllAction = findEditAction(actions, QKeySequence::SelectAll, tr("Select All"));
  m_editMenu->clear();
  m_editMenu->addAction(a.undo);
  m_editMenu->addAction(a.redo);
  m_editMenu->addSeparator();
  m_editMenu->addActions(clipboardActions(view)); // mainwindowclipboard.cpp
  m_editMenu->addAction(deleteAction ? deleteAction : a.deletePlaceholder);
  m_editMenu->addAction(selectAllAction ? selectAllAction : a.selectAllPlaceholder);
}

void MainWindow::updateLoweringControls()
{
  const LowerOptions& lowering = m_document->lowering();
  const QSignalBlocker dialectBlocker(m_dialectCombo);
  const QSignalBlocker protocolBlocker(m_protocolCombo);
  m_dialectCombo->setCurrentIndex(m_dialectCombo->findData(static_cast<int>(lowering.dialect)));
  m_protocolCombo->setCurrentIndex(m_protocolCombo->findData(static_cast<int>(lowering.protocol)));
}

void MainWindow::loweringControlChanged()
{
  LowerOptions options = m_document->lowering();
  options.dialect = static_cast<DialectId>(m_dialectCombo->currentData().toInt());
  options.protocol = static_cast<Protocol>(m_protocolCombo->currentData().toInt());
  const LowerOptions& current = m_document->lowering();
  if (options.dialect == current.dialect && options.protocol == current.protocol)
    return;
  m_document->undoStack()->push(new ChangeLoweringCommand(m_document, options));
}

void MainWindow::updateRecentMenu()
{
  m_recentMenu->clear();
  const QStringList files = m_recentFiles->files();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    QString label = QFileInfo(path).fileName();
    label.replace(QLatin1Char('&'), QStringLiteral("&&"));
    QAction* action =
        m_recentMenu->addAction(i < 9 ? QStringLiteral("&%1  %2").arg(i + 1).arg(label) : label);
    action->setToolTip(path);
    action->setStatusTip(path);
    connect(action, &QAction::triggered, this, [this, path] { openRecent(path); });
  }
  if (!files.isEmpty())
    m_recentMenu->addSeparator();
  m_recentMenu->addAction(m_actions->clearRecent);
  m_actions->clearRecent->setEnabled(!files.isEmpty());
  m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateDocumentActions()
{
  Actions& a = *m_actions;
  const bool hasProgram = m_document->shownProgram().has_value();
  const bool hasTopology = m_document->topology().has_value();
  a.exportXml->setEnabled(hasProgram);
  a.exportDot->setEnabled(hasTopology);
  a.exportSvg->setEnabled(hasTopology);
  a.exportPng->setEnabled(hasTopology);
  a.exportAnimation->setEnabled(hasProgram);
  a.openTrace->setEnabled(hasProgram);
}

} // namespace cs::editor
