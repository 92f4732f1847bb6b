// The timeline's clipboard in the main window (issue 17, item 6): the Edit menu lists Cut, Copy,
// Paste and Duplicate while the Timeline is current (and not on another tab), the Timeline menu
// names the operation toggles "Copy Operation" and "Reduce Operation", transfers copied in one
// window paste into another, and what a paste did or refused is in the status bar. With
// CSTUDIO_GUIDE_SHOTS set, the guide's picture of a paste is saved (docs/make-screenshots.sh).

#include "window/mainwindow.h"

#include "document/document.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include "document/documentstate.h"
#include "support/guideshots.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <set>

using namespace cs;
using namespace cs::editor;

namespace {

std::unique_ptr<MainWindow> ringWindow()
{
  MainWindowOptions options;
  options.openLibrary = false;
  options.autosave = false;
  options.restoreLayout = false;
  options.recordRecentFiles = false;
  auto window = std::make_unique<MainWindow>(options);
  window->setUnsavedChangesPrompt([] { return MainWindow::UnsavedAnswer::Discard; });
  window->resize(1400, 860);
  if (!window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty())
    return nullptr;
  window->showView(MainWindow::View::Timeline);
  return window;
}

QMenu* menuTitled(MainWindow& window, const QString& title)
{
  for (QAction* action : window.menuBar()->actions())
    if (action->text() == title)
      return action->menu();
  return nullptr;
}

QStringList texts(const QList<QAction*>& actions)
{
  QStringList list;
  for (QAction* action : actions)
    if (!action->isSeparator())
      list << action->text().remove(QLatin1Char('&'));
  return list;
}

/// Selects rank 0's transfers of steps 0 and 1 and returns their ids.
std::set<int> selectRankZeroFirstTwo(Document* document)
{
  Selection selection;
  for (const Transfer& t : document->schedule().transfers)
    if (t.src.rank == 0 && t.step <= 1)
      selection.transfers.insert(t.id);
  document->setSelection(selection);
  return selection.transfers;
}

} // namespace

class TestWindowClipboard : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void editMenuListsTheTimelinesClipboardVerbs();
  void timelineMenuNamesTheOperations();
  void transfersPasteIntoAnotherWindow();
  void refusedPasteSaysWhyInTheStatusBar();
  void guidePasteOfRankZeroOnRankTwo();
  void topologySentencesReachTheStatusBar();

private:
  QTemporaryDir m_dir;
};

void TestWindowClipboard::initTestCase()
{
  QVERIFY(m_dir.isValid());
  qputenv("XDG_CONFIG_HOME", m_dir.filePath("config").toUtf8());
  qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
}

void TestWindowClipboard::editMenuListsTheTimelinesClipboardVerbs()
{
  const std::unique_ptr<MainWindow> window = ringWindow();
  QVERIFY(window);
  QMenu* edit = menuTitled(*window, QStringLiteral("&Edit"));
  QVERIFY(edit);
  const QList<QAction*> verbs = window->timelineView()->clipboardActions();
  QCOMPARE(texts(verbs), (QStringList{"Cut Transfers", "Copy Transfers", "Paste Transfers",
                                      "Duplicate Transfers"}));
  for (QAction* action : verbs)
    QVERIFY(edit->actions().contains(action));
  window->showView(MainWindow::View::Topology);
  for (QAction* action : verbs)
    QVERIFY(!edit->actions().contains(action));
}

void TestWindowClipboard::timelineMenuNamesTheOperations()
{
  const std::unique_ptr<MainWindow> window = ringWindow();
  QVERIFY(window);
  QMenu* timeline = menuTitled(*window, QStringLiteral("&Timeline"));
  QVERIFY(timeline);
  const QStringList names = texts(timeline->actions());
  QVERIFY2(names.contains("Copy Operation") && names.contains("Reduce Operation"),
           qPrintable(names.join(", ")));
  QVERIFY(!names.contains("Copy"));
  QVERIFY(!names.contains("Reduce"));
}

void TestWindowClipboard::transfersPasteIntoAnotherWindow()
{
  const std::unique_ptr<MainWindow> first = ringWindow();
  const std::unique_ptr<MainWindow> second = ringWindow();
  QVERIFY(first && second);
  const std::set<int> copied = selectRankZeroFirstTwo(first->document());
  QCOMPARE(copied.size(), std::size_t{2});
  first->timelineView()->clipboardActions().at(1)->trigger(); // Copy Transfers
  QCOMPARE(first->statusBar()->currentMessage(), QStringLiteral("Copied 2 transfers"));

  // The second window pastes at its keyboard cursor: rank 1, column 2 → step 2.
  Document* target = second->document();
  const std::size_t before = target->schedule().transfers.size();
  second->timelineView()->showCell({{1, Buffer::Input, 0}, 2});
  second->timelineView()->clipboardActions().at(2)->trigger(); // Paste Transfers
  QCOMPARE(target->schedule().transfers.size(), before + 2);
  QCOMPARE(target->selection().transfers.size(), std::size_t{2});
  for (const int id : target->selection().transfers) {
    const Transfer* pasted = target->schedule().transfer(id);
    const Transfer* original = first->document()->schedule().transfer(*copied.begin());
    QVERIFY(pasted && original);
    QVERIFY(pasted->step == 2 || pasted->step == 3);
    QCOMPARE(pasted->src.rank, 1);
    QCOMPARE(pasted->dst.rank, 2);
  }
  QCOMPARE(second->statusBar()->currentMessage(),
           QStringLiteral("Paste: 2 transfers added at step 2, rank 1"));
  QCOMPARE(target->undoStack()->undoText(), QStringLiteral("Paste 2 transfers"));
}

void TestWindowClipboard::guidePasteOfRankZeroOnRankTwo()
{
  // The guide's half-drawn ring: rank 0's six arrows only.
  const std::unique_ptr<MainWindow> window = ringWindow();
  QVERIFY(window);
  DocumentState state = window->document()->state();
  std::erase_if(state.design.schedule.transfers, [](const Transfer& t) { return t.src.rank != 0; });
  const std::size_t drawn = state.design.schedule.transfers.size();
  window->newDocument(std::move(state));
  window->timelineView()->selectAll();
  window->timelineView()->clipboardActions().at(1)->trigger();
  window->timelineView()->showCell({{2, Buffer::Input, 0}, 0});
  window->timelineView()->clipboardActions().at(2)->trigger();
  const Schedule& schedule = window->document()->schedule();
  QCOMPARE(schedule.transfers.size(), 2 * drawn);
  for (const int id : window->document()->selection().transfers) {
    QCOMPARE(schedule.transfer(id)->src.rank, 2);
    QCOMPARE(schedule.transfer(id)->dst.rank, 3);
  }
  QCOMPARE(window->document()->selection().transfers.size(), drawn);
  window->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  window->timelineView()->showCell({{0, Buffer::Input, 0}, 0});
  test::saveGuideShot(window->grab(), QStringLiteral("guide-paste.png"));
}

// The topology view says what Auto layout did; the window used to drop its sentences.
void TestWindowClipboard::topologySentencesReachTheStatusBar()
{
  const std::unique_ptr<MainWindow> window = ringWindow();
  QVERIFY(window);
  window->showView(MainWindow::View::Topology);
  window->topologyView()->autoLayout();
  const QString message = window->statusBar()->currentMessage();
  QVERIFY2(message.startsWith(QLatin1String("Laid out with")) ||
               message == QLatin1String("The topology is already laid out"),
           qPrintable(message));
}

void TestWindowClipboard::refusedPasteSaysWhyInTheStatusBar()
{
  const std::unique_ptr<MainWindow> window = ringWindow();
  QVERIFY(window);
  QGuiApplication::clipboard()->setText(QStringLiteral("step 0: copy r0 i[0] -> r1 i[0]"));
  const Schedule before = window->document()->schedule();
  window->timelineView()->clipboardActions().at(2)->trigger();
  QCOMPARE(window->document()->schedule(), before);
  const QString message = window->statusBar()->currentMessage();
  QVERIFY2(message.contains(QStringLiteral("holds no transfers")), qPrintable(message));
}

QTEST_MAIN(TestWindowClipboard)
#include "tst_windowclipboard.moc"
