// MainWindow: layout, views, status, title, settings and closing (see mainwindow.h for the map).

#include "mainwindow.h"

#include "autosave.h"
#include "librarypanel.h"
#include "mainwindowactions.h"
#include "recentfiles.h"
#include "statussummary.h"
#include "windowicons.h"

#include "document/document.h"
#include "panels/inspectorpanel.h"
#include "panels/problemspanel.h"
#include "panels/problemtargets.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include "library.h"
#include "run/runpanel.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace cs::editor {

namespace {

constexpr const char* kGeometryKey = "window/geometry";
constexpr const char* kStateKey = "window/state";
constexpr const char* kViewKey = "window/view";

} // namespace

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), m_options(options), m_actions(std::make_unique<Actions>())
{
  setObjectName(QStringLiteral("MainWindow"));
  setWindowIcon(drawnIcon(WindowIcon::App));
  setDockNestingEnabled(true);
  setAcceptDrops(true); // traces, design documents and MSCCL XML (mainwindowreplayopen.cpp)
  m_document = new Document(this);
  m_recentFiles = new RecentFiles(this);

  buildViews();
  buildDocks();
  m_statusSummary = new StatusSummary(m_document, this);
  statusBar()->addPermanentWidget(m_statusSummary);

  createActions();
  createMenus();
  createToolBars();
  connectClipboard();

  connect(m_document, &Document::changed, this, [this] {
    updateTitle();
    updateLoweringControls();
    updateDocumentActions();
  });
  connect(m_document, &Document::analysisChanged, this, &MainWindow::updateProblemsTitle);
  connect(m_document, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(m_document, &Document::originChanged, this, &MainWindow::updateTitle);
  connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::currentViewChanged);
  connect(m_problemsPanel, &ProblemsPanel::problemActivated, this, &MainWindow::activateProblem);
  connect(m_problemsPanel, &ProblemsPanel::summaryChanged, this, &MainWindow::updateProblemsTitle);
  connect(m_libraryPanel, &LibraryPanel::versionActivated, this, &MainWindow::openLibraryVersion);
  connect(m_libraryPanel, &LibraryPanel::runActivated, this, &MainWindow::replayStoredRun);
  connect(m_libraryPanel, &LibraryPanel::topologyApplied, this,
          [this] { showView(View::Topology); });
  connect(m_recentFiles, &RecentFiles::changed, this, &MainWindow::updateRecentMenu);

  resize(1400, 900);
  resetLayout();

  if (m_options.openLibrary) {
    const QString path = m_options.libraryPath.isEmpty()
                             ? QString::fromStdString(storage::defaultLibraryPath().string())
                             : m_options.libraryPath;
    m_libraryPanel->openLibrary(path);
  }
  if (m_options.autosave) {
    m_autosave = std::make_unique<Autosave>(m_document, m_options.autosaveDirectory.isEmpty()
                                                            ? Autosave::defaultDirectory()
                                                            : m_options.autosaveDirectory);
  }
  if (m_options.restoreLayout)
    restoreSettings();
  else
    showView(View::Timeline);

  currentViewChanged();
  updateTitle();
  updateProblemsTitle();
  updateLoweringControls();
  updateRecentMenu();
  updateDocumentActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildViews()
{
  m_tabs = new QTabWidget(this);
  m_tabs->setDocumentMode(true);
  // The docks keep their widths: a view with a long line clips it instead of squeezing them.
  m_tabs->setMinimumSize(360, 240);
  m_topologyView = new TopologyView(m_document, m_tabs);
  m_timelineView = new TimelineView(m_document, m_tabs);
  m_programView = new ProgramView(m_document, m_tabs);
  m_tabs->addTab(m_topologyView, tr("Topology"));
  m_tabs->addTab(m_timelineView, tr("Timeline"));
  m_tabs->addTab(m_programView, tr("Program"));
  m_tabs->setTabToolTip(0, tr("The machine: GPUs, switches and links"));
  m_tabs->setTabToolTip(1, tr("Chunks per rank and step; drag a chunk to draw a transfer"));
  m_tabs->setTabToolTip(2, tr("Threadblocks and instructions as the runtime runs them"));
  setCentralWidget(m_tabs);
}

void MainWindow::buildDocks()
{
  const auto makeDock = [this](const QString& title, const QString& name, QWidget* content) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    return dock;
  };
  m_libraryPanel = new LibraryPanel(m_document, this);
  m_libraryDock = makeDock(tr("Library"), QStringLiteral("libraryDock"), m_libraryPanel);
  m_inspectorPanel = new InspectorPanel(m_document, this);
  m_inspectorDock = makeDock(tr("Inspector"), QStringLiteral("inspectorDock"), m_inspectorPanel);
  m_problemsPanel = new ProblemsPanel(m_document, this);
  m_problemsDock = makeDock(tr("Problems"), QStringLiteral("problemsDock"), m_problemsPanel);
  m_runPanel = new visualizer::RunPanel(
      m_document, [this] { return m_libraryPanel->library(); }, this);
  m_runDock = makeDock(tr("Run"), QStringLiteral("runDock"), m_runPanel);
  // A stored run is a new row of the library's history.
  connect(m_runPanel, &visualizer::RunPanel::runFinished, m_libraryPanel, &LibraryPanel::refresh);
  connect(m_runPanel, &visualizer::RunPanel::runFinished, this, [this] {
    // The replay a run opens drives the editor's views like one opened from a file.
    visualizer::ReplayWindow* window = m_runPanel->replayWindow();
    if (window && window != m_replayWindow) {
      followReplay(window);
      m_replayWindow = window;
    }
  });
}

void MainWindow::resetLayout()
{
  // Re-adding a dock moves it back to its default area, shown and docked.
  for (QDockWidget* dock : {m_libraryDock, m_inspectorDock, m_problemsDock}) {
    removeDockWidget(dock);
    dock->setFloating(false);
  }
  addDockWidget(Qt::LeftDockWidgetArea, m_libraryDock);
  addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock);
  addDockWidget(Qt::BottomDockWidgetArea, m_problemsDock);
  // Run sits under the Inspector, hidden until Replay → Run… asks for it.
  removeDockWidget(m_runDock);
  m_runDock->setFloating(false);
  splitDockWidget(m_inspectorDock, m_runDock, Qt::Vertical);
  m_runDock->hide();
  // The side docks run the full height; the Problems dock sits under the views only.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  for (QDockWidget* dock : {m_libraryDock, m_inspectorDock, m_problemsDock})
    dock->show();
  if (m_fileToolBar)
    m_fileToolBar->show();
  if (m_viewToolBar)
    m_viewToolBar->show();
  resizeDocks({m_libraryDock, m_inspectorDock}, {300, 290}, Qt::Horizontal);
  resizeDocks({m_problemsDock}, {190}, Qt::Vertical);
}

void MainWindow::showView(View view)
{
  m_tabs->setCurrentIndex(static_cast<int>(view));
}

MainWindow::View MainWindow::currentView() const
{
  return static_cast<View>(m_tabs->currentIndex());
}

void MainWindow::updateTitle()
{
  const QString modified = m_document->isModified() ? QStringLiteral("*") : QString();
  setWindowTitle(m_document->displayName() + modified + QStringLiteral(" — ") +
                 tr("Collective Studio"));
}

void MainWindow::updateProblemsTitle()
{
  // "Problems (2 errors, 1 warning)"; just "Problems" when there is nothing to count.
  const Analysis& analysis = m_document->analysis();
  if (analysis.problems.empty()) {
    m_problemsDock->setWindowTitle(tr("Problems"));
    return;
  }
  QString counts = m_problemsPanel->summary();
  if (counts.isEmpty())
    counts = StatusSummary::problemCountText(analysis.errors, analysis.warnings);
  m_problemsDock->setWindowTitle(tr("Problems (%1)").arg(counts));
}

void MainWindow::activateProblem(const Problem& problem)
{
  // The panel selected what the problem points at (problemtargets.h); the window brings the tab
  // that shows it forward: the Program for an instruction, the topology for GPUs, else the
  // timeline.
  switch (problemTarget(problem, *m_document).view) {
  case ProblemTarget::View::Topology:
    showView(View::Topology);
    break;
  case ProblemTarget::View::Timeline:
    showView(View::Timeline);
    break;
  case ProblemTarget::View::Program:
    showView(View::Program);
    break;
  case ProblemTarget::View::Document:
    break;
  }
}

void MainWindow::restoreSettings()
{
  QSettings settings;
  if (const QByteArray geometry = settings.value(kGeometryKey).toByteArray(); !geometry.isEmpty())
    restoreGeometry(geometry);
  if (const QByteArray state = settings.value(kStateKey).toByteArray(); !state.isEmpty())
    restoreState(state);
  const int view = settings.value(kViewKey, static_cast<int>(View::Timeline)).toInt();
  showView(view >= 0 && view <= 2 ? static_cast<View>(view) : View::Timeline);
}

void MainWindow::storeSettings()
{
  if (!m_options.restoreLayout)
    return;
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
  settings.setValue(kViewKey, static_cast<int>(currentView()));
}

void MainWindow::setUnsavedChangesPrompt(std::function<UnsavedAnswer()> prompt)
{
  m_unsavedPrompt = std::move(prompt);
}

bool MainWindow::confirmDiscard()
{
  if (!m_document->isModified())
    return true;
  UnsavedAnswer answer = UnsavedAnswer::Cancel;
  if (m_unsavedPrompt) {
    answer = m_unsavedPrompt();
  } else {
    QMessageBox box(QMessageBox::Warning, tr("Collective Studio"),
                    tr("Save changes to \"%1\"?").arg(m_document->displayName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Your changes will be lost if you don't save them."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
      answer = UnsavedAnswer::Save;
      break;
    case QMessageBox::Discard:
      answer = UnsavedAnswer::Discard;
      break;
    default:
      answer = UnsavedAnswer::Cancel;
      break;
    }
  }
  switch (answer) {
  case UnsavedAnswer::Save:
    return save();
  case UnsavedAnswer::Discard:
    return true;
  case UnsavedAnswer::Cancel:
    return false;
  }
  return false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
  if (!confirmDiscard()) {
    event->ignore();
    return;
  }
  storeSettings();
  // A clean close: the unsaved work was saved or deliberately discarded.
  if (m_autosave)
    m_autosave->removeFile();
  event->accept();
}

} // namespace cs::editor
