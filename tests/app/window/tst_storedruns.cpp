// Stored runs and dropped files in the main window: a run made from the Run panel is listed under
// its version in the Library dock with its verdict, and double-clicking it replays the stored
// trace (opening that version when the document shows another one); a run stored without a trace
// says so. Files dropped on the window open as what they are: a trace replays, two compare, a
// document becomes the document.

#include "window/librarypanel.h"
#include "window/mainwindow.h"

#include "support/isolatedwindow.h"

#include "compare/comparewindow.h"
#include "document/commands/statecommands.h"
#include "document/document.h"
#include "replaywindow.h"
#include "run/runpanel.h"
#include "session/replaysession.h"

#include "catalogue/ringallreduce.h"
#include "io/chrometrace.h"
#include "library.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace cs;
using namespace cs::editor;

namespace {

constexpr const char* kRing = "ring-allreduce-4";

/// The run items under version `number` of `algorithm` (expanded first), newest first.
QList<QTreeWidgetItem*> runItems(QTreeWidgetItem* algorithm, int number)
{
  algorithm->setExpanded(true);
  for (int i = 0; i < algorithm->childCount(); ++i) {
    QTreeWidgetItem* version = algorithm->child(i);
    if (!version->text(0).startsWith(QStringLiteral("v%1 ").arg(number)))
      continue;
    QList<QTreeWidgetItem*> runs;
    for (int r = 0; r < version->childCount(); ++r)
      runs << version->child(r);
    return runs;
  }
  return {};
}

bool writeFile(const QString& path, const std::string& text)
{
  QFile file(path);
  return file.open(QIODevice::WriteOnly) &&
         file.write(text.data(), static_cast<qint64>(text.size())) ==
             static_cast<qint64>(text.size());
}

int compareWindows()
{
  int count = 0;
  for (QWidget* widget : QApplication::topLevelWidgets())
    count += qobject_cast<visualizer::CompareWindow*>(widget) && widget->isVisible() ? 1 : 0;
  return count;
}

} // namespace

class Test_storedruns : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void runFromThePanelIsListedAndReplays();
  void runOfAnotherVersionOpensThatVersion();
  void runWithoutTraceSaysSo();
  void droppedTraceReplaysAndTwoCompare();
  void droppedDocumentBecomesTheDocument();

private:
  /// A CPU run of the document from the Run panel; the stored line.
  QString runOnCpu();

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
  qint64 m_ringId = 0;
};

void Test_storedruns::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = test::openIsolatedRingWindow(m_dir, "tst_storedruns");
  QVERIFY(m_window);
  m_window->show();
  storage::Library* library = m_window->libraryPanel()->library();
  QVERIFY(library);
  m_ringId = library->algorithm(kRing)->id; // seeded with the shipped examples
  QCOMPARE(m_window->openFromLibrary(m_ringId, 1), QString());
  m_window->document()->waitForAnalysis();
}

QString Test_storedruns::runOnCpu()
{
  visualizer::RunPanel* panel = m_window->runPanel();
  if (!panel->selectBackend(QStringLiteral("cpu")))
    return QStringLiteral("no cpu backend");
  panel->sizeEdit()->setText(QStringLiteral("64K"));
  QSignalSpy finished(panel, &visualizer::RunPanel::runFinished);
  if (!panel->run())
    return panel->verdictText();
  if (!finished.wait(60000))
    return QStringLiteral("the run did not finish");
  return panel->storeText();
}

void Test_storedruns::runFromThePanelIsListedAndReplays()
{
  const QString stored = runOnCpu();
  QVERIFY2(stored.contains("stored"), qPrintable(stored));
  QVERIFY2(!stored.contains("not stored"), qPrintable(stored));
  visualizer::ReplayWindow* fromPanel = m_window->runPanel()->replayWindow();
  QVERIFY(fromPanel);
  const std::size_t events = fromPanel->session()->trace().events.size();
  QVERIFY(events > 0);
  fromPanel->close();

  LibraryPanel* library = m_window->libraryPanel();
  const QList<QTreeWidgetItem*> runs = runItems(library->algorithmItem(kRing), 1);
  QCOMPARE(runs.size(), 1);
  QVERIFY2(runs.front()->text(0).startsWith("cpu · 64 KiB · "), qPrintable(runs.front()->text(0)));
  QVERIFY2(LibraryPanel::detailsOf(runs.front()).startsWith("verified · "),
           qPrintable(LibraryPanel::detailsOf(runs.front())));

  QSignalSpy activated(library, &LibraryPanel::runActivated);
  emit library->tree()->itemActivated(runs.front(), 0);
  QCOMPARE(activated.count(), 1);
  auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(replay);
  QVERIFY(replay->isVisible());
  QCOMPARE(replay->session()->trace().events.size(), events);
  QCOMPARE(replay->session()->trace().source, std::string("cpu"));
  replay->close();
}

void Test_storedruns::runOfAnotherVersionOpensThatVersion()
{
  Document* document = m_window->document();
  const std::vector<storage::RunRecord> runs =
      m_window->libraryPanel()->library()->runs(m_ringId).value();
  QVERIFY(!runs.empty());
  // The document shows another algorithm: replaying v1's run opens v1 first.
  QCOMPARE(m_window->newFromAlgorithm("ring-allreduce", 8, "ring-8"), QString());
  QCOMPARE(m_window->openStoredRun(m_ringId, 1, runs.front().id), QString());
  QCOMPARE(document->origin().libraryName, QString(kRing));
  QCOMPARE(document->origin().libraryVersion, 1);
  auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(replay);
  QCOMPARE(replay->session()->program().ngpus, 4);
  replay->close();
}

void Test_storedruns::runWithoutTraceSaysSo()
{
  storage::Library* library = m_window->libraryPanel()->library();
  storage::RunRecord record;
  record.versionId = library->version(m_ringId, 1)->id;
  record.backend = "cpu";
  record.bytes = 4096;
  record.status = "verified";
  const std::int64_t id = library->addRun(record).value();
  m_window->libraryPanel()->refresh();
  const QList<QTreeWidgetItem*> runs = runItems(m_window->libraryPanel()->algorithmItem(kRing), 1);
  QCOMPARE(runs.size(), 2);
  QTreeWidgetItem* bare = runs.front(); // newest first
  QVERIFY2(LibraryPanel::detailsOf(bare).endsWith(" · no trace"),
           qPrintable(LibraryPanel::detailsOf(bare)));
  QSignalSpy activated(m_window->libraryPanel(), &LibraryPanel::runActivated);
  emit m_window->libraryPanel()->tree()->itemActivated(bare, 0);
  QCOMPARE(activated.count(), 0);
  QVERIFY2(m_window->libraryPanel()->message().contains(QString("Run %1").arg(id)),
           qPrintable(m_window->libraryPanel()->message()));
  QVERIFY(!m_window->openStoredRun(m_ringId, 1, id).isEmpty());
}

void Test_storedruns::droppedTraceReplaysAndTwoCompare()
{
  QCOMPARE(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4"), QString());
  m_window->document()->waitForAnalysis();
  const Program program = *m_window->document()->shownProgram();
  const Topology topology = *makePresetTopology("ring-4");
  SimOptions options;
  options.bytes = 1 << 20;
  const SimResult simulated = simulateProgram(program, topology, options);
  QVERIFY(simulated.ok);
  const QString a = m_dir.filePath("a.json");
  const QString b = m_dir.filePath("b.json");
  QVERIFY(writeFile(a, writeChromeTrace(simulated.trace, &topology)));
  options.bytes = 4 << 20;
  QVERIFY(writeFile(b, writeChromeTrace(simulateProgram(program, topology, options).trace)));

  QCOMPARE(m_window->openDroppedFiles({a}), QString());
  auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(replay);
  QCOMPARE(replay->session()->trace().bytes, std::int64_t{1} << 20);
  replay->close();

  const int before = compareWindows();
  QCOMPARE(m_window->openDroppedFiles({a, b}), QString());
  QCOMPARE(compareWindows(), before + 1);
}

void Test_storedruns::droppedDocumentBecomesTheDocument()
{
  const QString design = m_dir.filePath("ring8.json");
  QCOMPARE(m_window->newFromAlgorithm("ring-allreduce", 8, "ring-8"), QString());
  QCOMPARE(m_window->saveDesignTo(design), QString());
  QCOMPARE(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4"), QString());
  QCOMPARE(m_window->openDroppedFiles({design}), QString());
  QCOMPARE(m_window->document()->schedule().ranks, 8);
  QCOMPARE(m_window->document()->origin().filePath, design);

  // Not a trace, not a document: the error names the file and the document stays.
  const QString junk = m_dir.filePath("junk.json");
  QVERIFY(writeFile(junk, "{\"hello\": 1}"));
  const QString error = m_window->openDroppedFiles({junk});
  QVERIFY2(error.contains("junk.json"), qPrintable(error));
  QCOMPARE(m_window->document()->schedule().ranks, 8);
}

QTEST_MAIN(Test_storedruns)
#include "tst_storedruns.moc"
