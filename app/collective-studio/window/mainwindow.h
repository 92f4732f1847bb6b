#pragma once

// The main window of collective-studio (DESIGN.md §8): central tabs Topology, Timeline and
// Program; the Library dock (left), the Inspector (right) and the Problems dock (bottom, its title
// counting errors and warnings); a status bar with the size, the target and the verdict; menus and
// a toolbar with standard shortcuts, whose last part is the current view's toolActions().
//
// The window owns one Document and never edits it except through its undo stack (dialect and
// protocol combos push ChangeLoweringCommand; the Library dock pushes ChangeTopologyCommand);
// opening and New reset it. Everything a menu does has a dialog-free public function (openFile,
// exportXmlTo, …) that tests and main() call; the menu path adds the dialogs and message boxes.
//
// The file is split by concern: mainwindow.cpp (layout, views, status, title, settings, close),
// mainwindowactions.cpp (actions, menus, toolbars), mainwindowfiles.cpp (New, Open, Save, Export,
// recent files, recovery), mainwindowreplay.cpp and mainwindowreplayopen.cpp (the Replay menu,
// stored runs, dropped files), mainwindowhelp.cpp (About, the diagnostics reference),
// mainwindowteach.cpp (the Teach menu: gallery and teaching mode), mainwindowclipboard.cpp (the
// timeline's Cut, Copy, Paste, Duplicate in the Edit menu), mainwindowview.cpp (fitting the
// timeline, its zoom per document, keys wherever the focus is). Start there when adding a command.

#include "model/dialect.h"

#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QAction;
class QComboBox;
class QDialog;
class QDockWidget;
class QDragEnterEvent;
class QDropEvent;
class QMenu;
class QMessageBox;
class QTabWidget;
class QToolBar;

namespace cs {
struct Problem;
}

namespace cs::visualizer {
struct AnimationOptions;
class ReplaySession;
class ReplayWindow;
class RunPanel;
class SweepWindow;
class PresentationWindow;
class TeachingView;
} // namespace cs::visualizer

namespace cs::editor {

class Autosave;
class Document;
class GalleryDialog;
class InspectorPanel;
class LibraryPanel;
class ProblemsPanel;
class ProgramView;
class RecentFiles;
class StatusSummary;
class TimelineView;
class TopologyView;
struct DocumentState;
struct GalleryChoice;

/// What a MainWindow connects to at construction.
struct MainWindowOptions {
  QString libraryPath;       ///< empty: storage::defaultLibraryPath()
  bool openLibrary = true;   ///< off: the Library dock says that no library is open
  QString autosaveDirectory; ///< empty: Autosave::defaultDirectory()
  bool autosave = true;
  /// Restore (and on close store) the window geometry and dock layout from QSettings. Off for
  /// --screenshot, so pictures have the default layout.
  bool restoreLayout = true;
  /// Add opened and saved files to Open Recent (off for --screenshot).
  bool recordRecentFiles = true;
  /// Remember the timeline's zoom and compact rows per document in QSettings and restore them
  /// when it is opened again (off for --screenshot: pictures show the defaults, leave no trace).
  bool rememberViewSettings = true;
};

class MainWindow : public QMainWindow
{
  Q_OBJECT

public:
  /// The central tabs, in tab order.
  enum class View { Topology, Timeline, Program };
  /// The answer to "Save changes to …?" before unsaved work would be lost.
  enum class UnsavedAnswer { Save, Discard, Cancel };

  explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  Document* document() const { return m_document; }

  // Documents, without dialogs. Each returns an empty string or the error, naming the file; on
  // error the current document is untouched. None asks about unsaved changes (confirmDiscard()).

  /// Opens a design document (.json) or MSCCL XML file.
  QString openFile(const QString& path);
  /// A catalogue algorithm at `ranks` with the topology preset `presetName` (empty: none).
  QString newFromAlgorithm(const QString& key, int ranks, const QString& presetName);
  /// Replaces the document with a new, unsaved one.
  void newDocument(DocumentState state);
  /// Opens version `number` (0: head) of a library algorithm.
  QString openFromLibrary(qint64 algorithmId, int number);
  /// Writes the shown Program as MSCCL XML for `dialect`, atomically.
  QString exportXmlTo(const QString& path, DialectId dialect);
  /// Writes the design document (.json) and makes it the document's file; marks it saved.
  QString saveDesignTo(const QString& path);
  /// Writes the topology as Graphviz DOT.
  QString exportDotTo(const QString& path);
  /// Writes the topology canvas as SVG or PNG (by the extension of `path`).
  QString exportTopologyImageTo(const QString& path);
  /// Exports the document's simulated playback as an animation (GIF, MP4, PNG sequence, SVG per
  /// step, by the extension of `path`) under a progress dialog with Cancel; the error, or "".
  QString exportAnimationTo(const QString& path, const visualizer::AnimationOptions& options);
  /// Opens a Chrome trace of a run of the shown program in a replay window of its own.
  QString openTrace(const QString& path);
  /// Opens two Chrome traces of runs of the shown program side by side in a compare window of
  /// its own (designed vs measured); the error names the file that could not be opened.
  QString openComparison(const QString& first, const QString& second);
  /// Replays run `runId` stored under version `number` of a library algorithm, opening that
  /// version first unless the document shows it (without asking about unsaved changes).
  QString openStoredRun(qint64 algorithmId, int number, qint64 runId);
  /// Opens files dropped on the window: a design document or MSCCL XML becomes the document
  /// (asking about unsaved changes), one Chrome trace replays, two compare.
  QString openDroppedFiles(const QStringList& paths);
  /// The replay window openTrace last opened, while it is open.
  QWidget* replayWindow() const { return m_replayWindow; }
  /// Opens (or raises) the Benchmark Sweep window of the shown program (Replay → Benchmark
  /// Sweep…); it keeps its series while open.
  visualizer::SweepWindow* showSweepWindow();
  /// Help › About: the program and the library versions found at run time (aboutversions.h);
  /// deleted when closed. --dialog about screenshots it.
  QMessageBox* createAboutBox();
  /// Help › User Guide: docs/editor.md (installed in share/doc/collective-studio, or the source
  /// tree's) in a window of its own with its pictures; null with the reason shown when it is
  /// not installed. Deleted when closed.
  QDialog* createUserGuide();
  /// Where the user guide is: installed beside the program, else in the source tree; empty when
  /// neither exists.
  static QString userGuidePath();

  // Teaching mode (issue 19; mainwindowteach.cpp).

  /// Teach › Gallery: the gallery offering the open document's topology as "the current
  /// drawing"; deleted when closed. --dialog gallery screenshots it.
  GalleryDialog* createGalleryDialog();
  /// Makes `choice` the document (a new, unsaved one) and enters teaching mode on it; the error
  /// when the algorithm does not exist for the choice. Does not ask about unsaved changes.
  QString openInTeachingMode(const GalleryChoice& choice);
  /// The gallery as a start page: opened once, on the first start without a file to open (the
  /// setting "teach/galleryOffered" remembers it). True when it opened.
  bool offerGalleryOnFirstStart();
  /// Shows or hides the Teaching dock (Teach › Teaching Mode) on the open document.
  void setTeachingMode(bool on);
  /// Teach › Presentation Mode: teaching mode (turned on if off) in a window of its own with the
  /// high-contrast palette, `dark` or light; not shown yet (the menu shows it full screen).
  visualizer::PresentationWindow* createPresentation(bool dark);
  /// The Teaching dock's view while teaching mode is on, else null.
  visualizer::TeachingView* teachingView() const { return m_teachingView; }

  // Views and panels.

  void showView(View view);
  View currentView() const;
  TopologyView* topologyView() const { return m_topologyView; }
  TimelineView* timelineView() const { return m_timelineView; }
  ProgramView* programView() const { return m_programView; }
  ProblemsPanel* problemsPanel() const { return m_problemsPanel; }
  InspectorPanel* inspectorPanel() const { return m_inspectorPanel; }
  LibraryPanel* libraryPanel() const { return m_libraryPanel; }
  StatusSummary* statusSummary() const { return m_statusSummary; }
  QDockWidget* problemsDock() const { return m_problemsDock; }
  QDockWidget* libraryDock() const { return m_libraryDock; }
  QDockWidget* inspectorDock() const { return m_inspectorDock; }
  /// The Run dock (hidden until Replay → Run…), and the panel in it.
  QDockWidget* runDock() const { return m_runDock; }
  visualizer::RunPanel* runPanel() const { return m_runPanel; }
  QComboBox* dialectCombo() const { return m_dialectCombo; }
  QComboBox* protocolCombo() const { return m_protocolCombo; }
  /// The autosave of this window's document, or nullptr when off.
  Autosave* autosave() const { return m_autosave.get(); }
  RecentFiles* recentFiles() const { return m_recentFiles; }

  /// Puts the docks and toolbars back where a new installation has them.
  void resetLayout();

  // Unsaved changes and recovery.

  /// Replaces the Save/Discard/Cancel message box (tests answer without a dialog).
  void setUnsavedChangesPrompt(std::function<UnsavedAnswer()> prompt);
  /// When the document is modified, asks whether to save it first; saves when told to. False
  /// when the user cancelled (or the save failed): the caller must not replace the document.
  bool confirmDiscard();
  /// Offers each autosave file of a crashed instance: Recover / Discard / Later.
  void offerRecovery();
  /// Recovers one autosave file without asking: the document becomes it, unsaved.
  QString recoverFrom(const QString& path);

protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  struct Actions;

  // mainwindow.cpp
  void buildViews();
  void buildDocks();
  void updateTitle();
  void updateProblemsTitle();
  void currentViewChanged();
  void activateProblem(const Problem& problem);
  void restoreSettings();
  void storeSettings();

  // mainwindowactions.cpp
  QList<QAction*> viewActions(View view) const;
  void createActions();
  void createFileActions();
  void createEditAndViewActions();
  void createMenus();
  void createToolBars();
  void updateViewActions();
  void updateLoweringControls();
  void updateRecentMenu();
  void updateDocumentActions();
  void loweringControlChanged();

  // mainwindowfiles.cpp
  void newFromDialog();
  void openFromDialog();
  void openRecent(const QString& path);
  bool save();
  bool saveDesignAsFromDialog();
  void saveToLibraryFromDialog();
  void exportXmlFromDialog();
  void exportDotFromDialog();
  void exportTopologyFromDialog(const QString& format);
  void openLibraryVersion(qint64 algorithmId, int number);
  QString suggestedPath(const QString& extension) const;
  void showError(const QString& title, const QString& message);

  // mainwindowreplay.cpp
  void openTraceFromDialog();
  /// Shows and raises the Run dock (Replay → Run…).
  void showRunPanel();
  void compareTracesFromDialog();
  /// Adds Replay › Compare Traces…, enabled with Open Trace.
  void addCompareAction(QMenu* replay);
  /// Makes the timeline, program view and Problems panel follow `window`'s replay until it
  /// closes (instead of the replay opened before it).
  void followReplay(visualizer::ReplayWindow* window);
  /// Adds Replay › Benchmark Sweep….
  void addSweepAction(QMenu* replay);

  // mainwindowreplayopen.cpp
  /// A replay window of its own for `session`, remembered as replayWindow().
  void showReplayWindow(std::unique_ptr<visualizer::ReplaySession> session, const QString& title);
  /// Whether the document was opened from version `number` of that library algorithm.
  bool showsLibraryVersion(qint64 algorithmId, int number) const;
  /// The Runs list's double-click: asks about unsaved changes when the version must be opened.
  void replayStoredRun(qint64 algorithmId, int number, qint64 runId);

  // mainwindowteach.cpp
  /// Adds the Teach menu (Gallery…).
  void addTeachMenu();
  void showGalleryFromMenu();

  // mainwindowclipboard.cpp
  /// Shows the timeline's clipboard messages in the status bar.
  void connectClipboard();
  /// `view`'s Cut, Copy, Paste and Duplicate, listed in the Edit menu while it is current.
  QList<QAction*> clipboardActions(View view) const;

  // mainwindowanimation.cpp
  /// File › Export Animation…: the dialog, then exportAnimationTo.
  void exportAnimationFromDialog();

  // mainwindowview.cpp
  /// Adds View › Fit Timeline to Window and Compact Rows to `view`, remembers the timeline's
  /// zoom per document, and lets text fields keep Ctrl+Z only while they can undo.
  void addWindowViewActions(QMenu* view);
  void storeTimelineSettings();
  void restoreTimelineSettings();
  /// The shown view's letter and Ctrl shortcuts act wherever the focus is in the window.
  void promoteViewShortcuts();

  // mainwindowhelp.cpp
  void showAbout();
  void showDiagnosticsReference();
  /// Adds Help › User Guide (F1).
  void addUserGuideAction(QMenu* help);

  MainWindowOptions m_options;
  Document* m_document = nullptr;
  QTabWidget* m_tabs = nullptr;
  TopologyView* m_topologyView = nullptr;
  TimelineView* m_timelineView = nullptr;
  ProgramView* m_programView = nullptr;
  ProblemsPanel* m_problemsPanel = nullptr;
  InspectorPanel* m_inspectorPanel = nullptr;
  LibraryPanel* m_libraryPanel = nullptr;
  StatusSummary* m_statusSummary = nullptr;
  QDockWidget* m_libraryDock = nullptr;
  QDockWidget* m_inspectorDock = nullptr;
  QDockWidget* m_problemsDock = nullptr;
  QDockWidget* m_runDock = nullptr;
  visualizer::RunPanel* m_runPanel = nullptr;
  QToolBar* m_fileToolBar = nullptr;
  QToolBar* m_viewToolBar = nullptr;
  QComboBox* m_dialectCombo = nullptr;
  QComboBox* m_protocolCombo = nullptr;
  QMenu* m_recentMenu = nullptr;
  QMenu* m_viewToolsMenu = nullptr;
  QMenu* m_editMenu = nullptr;
  std::unique_ptr<Actions> m_actions;
  std::unique_ptr<Autosave> m_autosave;
  QPointer<QWidget> m_replayWindow;
  QPointer<QWidget> m_sweepWindow;
  QDockWidget* m_teachingDock = nullptr;
  visualizer::TeachingView* m_teachingView = nullptr;
  QAction* m_teachingAction = nullptr;
  RecentFiles* m_recentFiles = nullptr;
  std::function<UnsavedAnswer()> m_unsavedPrompt;
  QAction* m_fitTimeline = nullptr;
  QAction* m_compactRows = nullptr;
  QString m_timelineSettingsKey; ///< QSettings group of the document's timeline zoom
  bool m_restoringTimeline = false;
};

} // namespace cs::editor
