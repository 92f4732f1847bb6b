// The main window through its dialog-free API: every corpus file opens and is lifted, the
// known-bad files show their diagnostic in the Problems dock, a malformed file leaves the document
// untouched, the title, status bar, combos and view toolbar follow the document, and New, Save,
// Export and the library do what their menus promise.

#include "support/corpus.h"

#include "window/exportdialog.h"
#include "window/librarypanel.h"
#include "window/mainwindow.h"
#include "window/recentfiles.h"
#include "window/savetolibrarydialog.h"
#include "window/statussummary.h"

#include "document/commands/statecommands.h"
#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"
#include "program/programview.h"
#include "timeline/timelineview.h"

#include "io/mscclxmlreader.h"
#include "library.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTreeWidget>

#include <memory>

using namespace cs;
using namespace cs::editor;

namespace {

/// Codes of the problems the Problems dock lists (its model's code column).
QStringList listedCodes(const ProblemsPanel* panel)
{
  QStringList codes;
  const ProblemsModel* model = panel->model();
  for (int row = 0; row < model->rowCount(); ++row)
    codes << model->index(row, ProblemsModel::CodeColumn).data().toString();
  return codes;
}

bool hasLiftingError(const Analysis& analysis)
{
  for (const Problem& problem : analysis.problems) {
    if (problem.stage == ProblemStage::Lifting && problem.diagnostic.severity == Severity::Error)
      return true;
  }
  return false;
}

} // namespace

class Test_mainwindow : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void cleanupTestCase();
  void init();

  void corpusFileOpens_data();
  void corpusFileOpens();
  void knownBadFileShowsItsDiagnostic_data();
  void knownBadFileShowsItsDiagnostic();
  void malformedFileIsRefusedAndDocumentUntouched();
  void titleFollowsModifiedState();
  void statusBarShowsVerdictTargetAndSize();
  void dialectComboIsAnUndoableEdit();
  void viewToolbarFollowsCurrentTab();
  void newFromAlgorithmBuildsScheduleAndTopology();
  void unsavedChangesPromptDecides();
  void designDocumentSavesAndReopens();
  void exportXmlWritesTheChosenDialect();
  void exportDialogSaysWhichRuntimeAccepts();
  void topologyExportsDotSvgAndPng();
  void layoutIsRestoredFromSettings();
  void libraryListsSeededAlgorithmsAndOpensThem();
  void saveToLibraryAddsOneVersion();
  void corruptLibraryIsReportedAndUntouched();
  void activatingAProblemShowsItsView();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void Test_mainwindow::initTestCase()
{
  QVERIFY(m_dir.isValid());
  // Settings, autosave and the library live in the test's folder, never in the user's.
  qputenv("XDG_CONFIG_HOME", m_dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
  qputenv("CSTUDIO_AUTOSAVE_DIR", m_dir.filePath("autosave").toUtf8());
  QCoreApplication::setOrganizationName("CollectiveStudioTest");
  QCoreApplication::setApplicationName("tst_mainwindow");

  MainWindowOptions options;
  options.libraryPath = m_dir.filePath("library.sqlite");
  options.autosave = false;
  options.restoreLayout = false;
  m_window = std::make_unique<MainWindow>(options);
  m_window->setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
  m_window->resize(1400, 900);
  m_window->show();
}

void Test_mainwindow::cleanupTestCase()
{
  m_window.reset();
}

void Test_mainwindow::init()
{
  m_window->setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
}

void Test_mainwindow::corpusFileOpens_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  const QStringList files = test::corpusFiles();
  QVERIFY(files.size() >= 60);
  for (const QString& path : files)
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_mainwindow::corpusFileOpens()
{
  QFETCH(QString, path);
  const QString error = m_window->openFile(path);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  Document* document = m_window->document();
  QCOMPARE(document->source(), Source::Program);
  QCOMPARE(document->origin().filePath, QFileInfo(path).absoluteFilePath());
  QVERIFY(document->shownProgram().has_value());
  QCOMPARE(document->isModified(), false);
  const Program read = test::loadProgram(path);
  QCOMPARE(document->shownProgram()->ngpus, read.ngpus);
  // Every file that lifts is on the timeline; one that does not says why in the Problems dock.
  QCOMPARE(document->shownSchedule().has_value(), !hasLiftingError(document->analysis()));
  if (document->shownSchedule())
    QCOMPARE(document->shownSchedule()->ranks, read.ngpus);
  QCOMPARE(m_window->problemsPanel()->model()->listedProblemCount(),
           static_cast<int>(document->analysis().problems.size()));
  QVERIFY(m_window->windowTitle().startsWith(QFileInfo(path).fileName() + " — "));
}

void Test_mainwindow::knownBadFileShowsItsDiagnostic_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("code");
  // MANIFEST.md's expected column: "post FAIL" files fail the postcondition, "RACE" files race.
  const QMap<QString, test::ManifestRow> manifest = test::readManifest();
  int rows = 0;
  for (const QString& path : test::corpusFiles()) {
    const QString name = QFileInfo(path).fileName();
    const QString expected = manifest.value(name).value("expected");
    if (expected.contains("post FAIL")) {
      QTest::newRow(qPrintable(name)) << path << "postcondition";
      ++rows;
    }
    if (expected.contains("RACE")) {
      QTest::newRow(qPrintable(name)) << path << "race";
      ++rows;
    }
  }
  QVERIFY(rows >= 3);
}

void Test_mainwindow::knownBadFileShowsItsDiagnostic()
{
  QFETCH(QString, path);
  QFETCH(QString, code);
  QVERIFY(m_window->openFile(path).isEmpty());
  const QStringList codes = listedCodes(m_window->problemsPanel());
  const bool listed = std::any_of(codes.begin(), codes.end(), [&](const QString& listedCode) {
    return codeInCategory(listedCode.toStdString(), code.toStdString());
  });
  QVERIFY2(listed, qPrintable(codes.join(", ")));
  const int errors = m_window->document()->analysis().errors;
  QVERIFY(errors >= 1);
  QCOMPARE(m_window->statusSummary()->verdictText(),
           QString("✖ %1 %2").arg(errors).arg(errors == 1 ? "error" : "errors"));
  QVERIFY2(
      m_window->problemsDock()->windowTitle().startsWith(QString("Problems (%1 error").arg(errors)),
      qPrintable(m_window->problemsDock()->windowTitle()));
}

void Test_mainwindow::malformedFileIsRefusedAndDocumentUntouched()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  const DocumentState before = m_window->document()->state();
  const QString titleBefore = m_window->windowTitle();

  const QString path = m_dir.filePath("broken.xml");
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(
      "<algo name=\"x\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allreduce\">\n<gpu id=\"0\"");
  file.close();
  const QString error = m_window->openFile(path);
  QVERIFY2(error.contains("broken.xml"), qPrintable(error));
  QVERIFY(m_window->document()->state() == before);
  QCOMPARE(m_window->windowTitle(), titleBefore);

  const QString missing = m_window->openFile(m_dir.filePath("no-such-file.xml"));
  QVERIFY2(missing.contains("no-such-file.xml"), qPrintable(missing));
  QVERIFY(m_window->document()->state() == before);
}

void Test_mainwindow::titleFollowsModifiedState()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  QCOMPARE(m_window->windowTitle(), QString("ring-allreduce-4 — Collective Studio"));
  Document* document = m_window->document();
  document->undoStack()->push(new ChangeNotesCommand(document, "edited"));
  QCOMPARE(m_window->windowTitle(), QString("ring-allreduce-4* — Collective Studio"));
  document->undoStack()->undo();
  QCOMPARE(m_window->windowTitle(), QString("ring-allreduce-4 — Collective Studio"));
  document->undoStack()->redo();
  QCOMPARE(m_window->windowTitle(), QString("ring-allreduce-4* — Collective Studio"));
}

void Test_mainwindow::statusBarShowsVerdictTargetAndSize()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  const Schedule& schedule = m_window->document()->schedule();
  // Ring all-reduce on n ranks: 2(n-1) steps of n transfers.
  QCOMPARE(schedule.transfers.size(), std::size_t{24});
  const StatusSummary* status = m_window->statusSummary();
  QCOMPARE(status->verdictText(), QString("✔ correct"));
  QCOMPARE(status->sizeText(), QString("4 ranks · 24 transfers"));
  QCOMPARE(status->targetText(), QString("executor · Simple"));
  QCOMPARE(m_window->problemsDock()->windowTitle(), QString("Problems"));
}

void Test_mainwindow::dialectComboIsAnUndoableEdit()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  Document* document = m_window->document();
  QComboBox* dialects = m_window->dialectCombo();
  QCOMPARE(dialects->count(), 3);
  QCOMPARE(dialects->currentText(), QString("executor"));
  dialects->setCurrentIndex(dialects->findText("classic"));
  QCOMPARE(document->lowering().dialect, DialectId::Classic);
  QCOMPARE(document->undoStack()->count(), 1);
  QCOMPARE(m_window->statusSummary()->targetText(), QString("classic · Simple"));
  QComboBox* protocols = m_window->protocolCombo();
  protocols->setCurrentIndex(protocols->findText("LL128"));
  QCOMPARE(document->lowering().protocol, Protocol::LL128);
  QCOMPARE(document->undoStack()->count(), 2);
  document->undoStack()->undo();
  document->undoStack()->undo();
  QCOMPARE(document->lowering().dialect, DialectId::Executor);
  QCOMPARE(dialects->currentText(), QString("executor"));
  QCOMPARE(protocols->currentText(), QString("Simple"));
  QCOMPARE(document->isModified(), false);
}

void Test_mainwindow::viewToolbarFollowsCurrentTab()
{
  QToolBar* viewTools = m_window->findChild<QToolBar*>("viewToolBar");
  QVERIFY(viewTools);
  m_window->showView(MainWindow::View::Program);
  QCOMPARE(m_window->currentView(), MainWindow::View::Program);
  QCOMPARE(viewTools->actions(), m_window->programView()->toolActions());
  m_window->showView(MainWindow::View::Timeline);
  QCOMPARE(viewTools->actions(), m_window->timelineView()->toolActions());

  // The Edit menu offers the current view's own Delete and Select All (one action, one shortcut).
  QMenu* edit = nullptr;
  for (QAction* action : m_window->menuBar()->actions()) {
    if (action->text() == "&Edit")
      edit = action->menu();
  }
  QVERIFY(edit);
  const QList<QAction*> timeline = m_window->timelineView()->toolActions();
  QAction* remove = nullptr;
  for (QAction* action : edit->actions()) {
    if (action->shortcuts().contains(QKeySequence(QKeySequence::Delete)))
      remove = action;
  }
  QVERIFY(remove);
  QVERIFY(timeline.contains(remove));
  QCOMPARE(edit->actions().first()->text().startsWith("&Undo"), true);
}

void Test_mainwindow::newFromAlgorithmBuildsScheduleAndTopology()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allgather", 8, "ring-8").isEmpty());
  Document* document = m_window->document();
  QCOMPARE(document->schedule().ranks, 8);
  QCOMPARE(document->schedule().collective, Collective::AllGather);
  QVERIFY(document->topology().has_value());
  QCOMPARE(document->topology()->rankCount(), 8);
  QCOMPARE(document->isModified(), false);
  QCOMPARE(document->source(), Source::Schedule);

  const DocumentState before = document->state();
  const QString error = m_window->newFromAlgorithm("halving-doubling-allreduce", 6, "ring-6");
  QVERIFY2(error.contains("power of two"), qPrintable(error));
  QVERIFY(document->state() == before);
}

void Test_mainwindow::unsavedChangesPromptDecides()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, {}).isEmpty());
  Document* document = m_window->document();
  QVERIFY(m_window->confirmDiscard()); // nothing to lose: no question asked
  document->undoStack()->push(new ChangeNotesCommand(document, "unsaved"));
  int asked = 0;
  m_window->setUnsavedChangesPrompt([&asked] {
    ++asked;
    return MainWindow::UnsavedAnswer::Cancel;
  });
  QVERIFY(!m_window->confirmDiscard());
  QVERIFY(!m_window->close()); // Cancel keeps the window open
  QCOMPARE(asked, 2);
  QVERIFY(document->isModified());
  m_window->setUnsavedChangesPrompt([&asked] {
    ++asked;
    return MainWindow::UnsavedAnswer::Discard;
  });
  QVERIFY(m_window->confirmDiscard());
  QCOMPARE(asked, 3);
}

void Test_mainwindow::designDocumentSavesAndReopens()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  Document* document = m_window->document();
  document->undoStack()->push(new ChangeNotesCommand(document, "a note"));
  DocumentState edited = document->state();
  const QString path = m_dir.filePath("ring.json");
  QCOMPARE(m_window->saveDesignTo(path), QString());
  edited.design.schedule.name = "ring"; // Save As names a generated document after its file
  QCOMPARE(document->isModified(), false);
  QCOMPARE(m_window->windowTitle(), QString("ring.json — Collective Studio"));
  QCOMPARE(m_window->recentFiles()->files().value(0), QFileInfo(path).absoluteFilePath());

  QVERIFY(m_window->newFromAlgorithm("ring-allgather", 4, {}).isEmpty());
  QCOMPARE(m_window->openFile(path), QString());
  QVERIFY(document->state().design == edited.design);
  QCOMPARE(document->source(), Source::Schedule);
}

void Test_mainwindow::exportXmlWritesTheChosenDialect()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, {}).isEmpty());
  const QString path = m_dir.filePath("ring-classic.xml");
  QCOMPARE(m_window->exportXmlTo(path, DialectId::Classic), QString());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  const ReadResult read = readMscclXml(text.toStdString());
  QVERIFY(read.program.has_value());
  QCOMPARE(detectDialect(*read.program), DialectId::Classic);
  const Program& shown = *m_window->document()->shownProgram();
  QCOMPARE(read.program->ngpus, 4);
  QCOMPARE(read.program->threadblockCount(), shown.threadblockCount());
  QCOMPARE(read.program->stepCount(), shown.stepCount());
  QCOMPARE(read.program->gpus, shown.gpus);

  const QString unwritable =
      m_window->exportXmlTo(m_dir.filePath("missing/dir/x.xml"), DialectId::Executor);
  QVERIFY2(unwritable.contains("x.xml"), qPrintable(unwritable));
}

void Test_mainwindow::exportDialogSaysWhichRuntimeAccepts()
{
  CS_REQUIRE_CORPUS();
  // A custom collective: only the classic runtime has a `coll` spelling for it.
  QVERIFY(m_window->openFile(test::corpusPath("custom_collective_examples_3r_Simple_part1.xml"))
              .isEmpty());
  ExportDialog dialog(*m_window->document()->shownProgram(), DialectId::Classic,
                      m_dir.filePath("custom.xml"));
  QCOMPARE(dialog.reports().size(), std::size_t{3});
  QVERIFY(dialog.report(DialectId::Classic).accepted);
  QVERIFY(!dialog.report(DialectId::Executor).accepted);
  QVERIFY(!dialog.report(DialectId::Rccl).accepted);
  QCOMPARE(dialog.report(DialectId::Executor).errors.front().code, std::string("export.coll"));
  QCOMPARE(dialog.selectedDialect(), DialectId::Classic);
  QCOMPARE(dialog.exportNow(), QString());
  QFile file(m_dir.filePath("custom.xml"));
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll().toStdString(), dialog.report(DialectId::Classic).xml);
}

void Test_mainwindow::topologyExportsDotSvgAndPng()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  const QString dot = m_dir.filePath("ring.dot");
  QCOMPARE(m_window->exportDotTo(dot), QString());
  QFile dotFile(dot);
  QVERIFY(dotFile.open(QIODevice::ReadOnly));
  const QByteArray dotText = dotFile.readAll();
  QVERIFY2(dotText.startsWith("graph"), dotText.left(40).constData());
  QCOMPARE(dotText.count("--"), 4); // the ring's four links

  const QString svg = m_dir.filePath("ring.svg");
  QCOMPARE(m_window->exportTopologyImageTo(svg), QString());
  QFile svgFile(svg);
  QVERIFY(svgFile.open(QIODevice::ReadOnly));
  QVERIFY(svgFile.readAll().contains("<svg"));
  const QString png = m_dir.filePath("ring.png");
  QCOMPARE(m_window->exportTopologyImageTo(png), QString());
  QVERIFY(!QImage(png).isNull());

  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, {}).isEmpty());
  QVERIFY(!m_window->exportDotTo(m_dir.filePath("none.dot")).isEmpty());
  QVERIFY(!QFileInfo::exists(m_dir.filePath("none.dot")));
}

void Test_mainwindow::layoutIsRestoredFromSettings()
{
  MainWindowOptions options;
  options.openLibrary = false;
  options.autosave = false;
  {
    MainWindow first(options);
    first.show();
    first.libraryDock()->hide();
    first.showView(MainWindow::View::Program);
    QVERIFY(first.close());
  }
  MainWindow second(options);
  second.show();
  QVERIFY(second.libraryDock()->isHidden());
  QVERIFY(!second.problemsDock()->isHidden());
  QCOMPARE(second.currentView(), MainWindow::View::Program);
  second.resetLayout();
  QVERIFY(!second.libraryDock()->isHidden());
}

void Test_mainwindow::libraryListsSeededAlgorithmsAndOpensThem()
{
  LibraryPanel* panel = m_window->libraryPanel();
  QVERIFY(panel->library());
  panel->setSearchText({});
  QTreeWidgetItem* ring = panel->algorithmItem("ring-allreduce-4");
  QVERIFY(ring);
  QVERIFY2(LibraryPanel::detailsOf(ring).startsWith("all-reduce · 4 ranks · "),
           qPrintable(LibraryPanel::detailsOf(ring)));
  ring->setExpanded(true);
  QVERIFY(ring->childCount() >= 1);
  QTreeWidgetItem* first = ring->child(ring->childCount() - 1); // newest first
  QCOMPARE(first->text(0), QString("v1  shipped example"));
  QVERIFY2(LibraryPanel::detailsOf(first).endsWith(" · correct"),
           qPrintable(LibraryPanel::detailsOf(first)));

  panel->setSearchText("halving");
  QVERIFY(panel->algorithmItem("halving-doubling-allreduce-8"));
  QVERIFY(!panel->algorithmItem("ring-allreduce-4"));
  panel->setSearchText({});

  // Double-clicking a version opens it, as the user does it.
  QVERIFY(m_window->newFromAlgorithm("ring-allgather", 4, {}).isEmpty());
  ring = panel->algorithmItem("ring-allreduce-4");
  ring->setExpanded(true);
  QTreeWidgetItem* version = ring->child(ring->childCount() - 1);
  panel->tree()->scrollToItem(version);
  QVERIFY(panel->tree()->isVisible());
  QCoreApplication::processEvents(); // lay out the expanded rows
  const QRect rect = panel->tree()->visualItemRect(version);
  QVERIFY(rect.isValid());
  // A real double-click is a press and release, then the second press arriving as the
  // double-click event; QTest::mouseDClick sends only the second half.
  QTest::mouseClick(panel->tree()->viewport(), Qt::LeftButton, {}, rect.center());
  QTest::mouseDClick(panel->tree()->viewport(), Qt::LeftButton, {}, rect.center());
  Document* document = m_window->document();
  QCOMPARE(document->origin().libraryName, QString("ring-allreduce-4"));
  QCOMPARE(document->schedule().collective, Collective::AllReduce);

  const qint64 id = panel->library()->algorithm("ring-allreduce-4")->id;
  QCOMPARE(m_window->openFromLibrary(id, 1), QString());
  QCOMPARE(document->origin().libraryName, QString("ring-allreduce-4"));
  QCOMPARE(document->origin().libraryVersion, 1);
  QCOMPARE(document->source(), Source::Schedule);
  QCOMPARE(document->schedule().ranks, 4);
  QCOMPARE(m_window->windowTitle(), QString("ring-allreduce-4 — Collective Studio"));
  QVERIFY(!m_window->openFromLibrary(id, 99).isEmpty());
  QCOMPARE(document->origin().libraryVersion, 1);
}

void Test_mainwindow::saveToLibraryAddsOneVersion()
{
  LibraryPanel* panel = m_window->libraryPanel();
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  Document* document = m_window->document();
  document->undoStack()->push(new ChangeNotesCommand(document, "drawn for the test"));
  const int versionsBefore = panel->library()->algorithm("ring-allreduce-4")->headVersion;

  SaveToLibraryDialog dialog(document, panel->library(), {});
  QCOMPARE(dialog.name(), QString("ring-allreduce-4"));
  dialog.setMessage("with a ring topology");
  QSignalSpy saved(&dialog, &SaveToLibraryDialog::librarySaved);
  QObject::connect(&dialog, &SaveToLibraryDialog::librarySaved, panel, &LibraryPanel::refresh);
  QVERIFY(dialog.save());
  QCOMPARE(saved.count(), 1);
  QCOMPARE(dialog.outcome(),
           QString("Saved as version %1 of ring-allreduce-4.").arg(versionsBefore + 1));
  QCOMPARE(document->isModified(), false);
  QCOMPARE(document->origin().libraryVersion, versionsBefore + 1);
  QVERIFY2(LibraryPanel::detailsOf(panel->algorithmItem("ring-allreduce-4"))
               .endsWith(QString("%1 versions").arg(versionsBefore + 1)),
           qPrintable(LibraryPanel::detailsOf(panel->algorithmItem("ring-allreduce-4"))));

  SaveToLibraryDialog again(document, panel->library(), {});
  QVERIFY(again.save());
  QCOMPARE(again.outcome(),
           QString("Unchanged: identical to version %1 of ring-allreduce-4; nothing was stored.")
               .arg(versionsBefore + 1));
}

void Test_mainwindow::corruptLibraryIsReportedAndUntouched()
{
  const QString path = m_dir.filePath("corrupt.sqlite");
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  const QByteArray garbage = QByteArray("this is not a database\n").repeated(100);
  file.write(garbage);
  file.close();

  LibraryPanel panel(m_window->document());
  const QString error = panel.openLibrary(path);
  QVERIFY2(error.contains("corrupt.sqlite"), qPrintable(error));
  QCOMPARE(panel.library(), nullptr);
  QVERIFY2(panel.message().contains("could not be opened"), qPrintable(panel.message()));
  QCOMPARE(panel.tree()->topLevelItem(0)->child(0)->text(0), QString("(no library)"));
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), garbage);
}

void Test_mainwindow::activatingAProblemShowsItsView()
{
  CS_REQUIRE_CORPUS();
  // An imported program with a race: its problems point at instructions.
  QVERIFY(m_window->openFile(test::corpusPath("alltonext_forward_2x8r_1i_Simple.xml")).isEmpty());
  m_window->showView(MainWindow::View::Topology);
  ProblemsPanel* panel = m_window->problemsPanel();
  int row = -1;
  for (int r = 0; r < panel->model()->rowCount() && row < 0; ++r) {
    const QString code = panel->model()->index(r, ProblemsModel::CodeColumn).data().toString();
    if (code.startsWith("race"))
      row = r;
  }
  QVERIFY(row >= 0);
  const Problem& problem = m_window->document()->analysis().problems[static_cast<std::size_t>(
      panel->model()->problemIndex(panel->model()->index(row, 0)))];
  QVERIFY(panel->activateRow(row));
  // The Program checker's finding is about an instruction: the Program view comes forward with
  // it selected, together with the transfer it carries on the timeline.
  QVERIFY(problem.rank && problem.tb && problem.step);
  QCOMPARE(m_window->currentView(), MainWindow::View::Program);
  const InstructionRef expected{*problem.rank, *problem.tb, *problem.step};
  QCOMPARE(m_window->document()->selection().instruction, std::optional(expected));
  QVERIFY(problem.transferId >= 0);
  QVERIFY(m_window->document()->selection().transfers.contains(problem.transferId));

  // A timeline finding (a Schedule check) brings the timeline forward with its transfer.
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, QString()).isEmpty());
  const Transfer first = m_window->document()->schedule().transfers.front();
  m_window->document()->undoStack()->push(
      new RemoveTransfersCommand(m_window->document(), {first.id}));
  m_window->showView(MainWindow::View::Topology);
  int scheduleRow = -1;
  for (int r = 0; r < panel->problemCount() && scheduleRow < 0; ++r) {
    const Problem& candidate = m_window->document()->analysis().problems[static_cast<std::size_t>(
        panel->model()->problemIndex(panel->model()->index(r, 0)))];
    if (candidate.stage == ProblemStage::Schedule && candidate.transferId >= 0)
      scheduleRow = r;
  }
  QVERIFY(scheduleRow >= 0);
  QVERIFY(panel->activateRow(scheduleRow));
  QCOMPARE(m_window->currentView(), MainWindow::View::Timeline);
  // The missing transfer leaves a wrong result: its first wrong cell (tst_problemnavigation).
  QVERIFY(m_window->document()->selection().cell.has_value());
  m_window->document()->undoStack()->setClean();
}

QTEST_MAIN(Test_mainwindow)
#include "tst_mainwindow.moc"
