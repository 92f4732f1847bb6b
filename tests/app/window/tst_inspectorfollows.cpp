// The Inspector follows the selection (issue 17 item 3): after a delete, an undo or a redo it
// shows what is still selected or says "Nothing selected" — never an instruction left over from
// a transfer that is gone — and a link or transfer selected on another tab does not stay in it.
// At the default window size (and after shrinking and growing the window) the link editor lies
// inside the Inspector dock.

#include "support/isolatedwindow.h"
#include "window/mainwindow.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "panels/inspectorpage.h"
#include "panels/inspectorpanel.h"
#include "support/guideshots.h"

#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace cs;
using namespace cs::editor;

class TestInspectorFollows : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void init();
  void deleteAndUndoLeaveNothingSelected();
  void otherTabsSelectionIsDropped();
  void linkEditorFitsTheDock();

private:
  /// Every visible editor of the Inspector's current page lies inside the dock horizontally.
  void checkPageFitsDock();

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void TestInspectorFollows::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = cs::test::openIsolatedWindow(m_dir, "tst_inspectorfollows");
}

void TestInspectorFollows::init()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  m_window->showView(MainWindow::View::Timeline);
}

void TestInspectorFollows::deleteAndUndoLeaveNothingSelected()
{
  Document* document = m_window->document();
  InspectorPanel* inspector = m_window->inspectorPanel();
  // The last transfer: deleting it lowers the program again, so whatever instruction now sits
  // at the selected instruction's place belongs to another transfer.
  const int id = document->schedule().transfers.back().id;
  document->selectTransfer(id);
  QVERIFY(document->selection().instruction.has_value());
  QCOMPARE(inspector->heading(), QStringLiteral("Transfer #%1").arg(id));

  document->undoStack()->push(new RemoveTransfersCommand(document, {id}));
  QVERIFY(document->selection().empty());
  QCOMPARE(inspector->heading(), QStringLiteral("Nothing selected"));

  document->undoStack()->undo();
  QVERIFY(document->schedule().transfer(id));
  QCOMPARE(inspector->heading(), QStringLiteral("Nothing selected"));

  // The transfer selected again, then removed by an undo of its re-creation (redo, undo).
  document->undoStack()->redo();
  document->undoStack()->undo();
  document->selectTransfer(id);
  document->undoStack()->redo();
  QVERIFY(!document->selection().instruction.has_value());
  QCOMPARE(inspector->heading(), QStringLiteral("Nothing selected"));
  document->undoStack()->setClean();
}

void TestInspectorFollows::otherTabsSelectionIsDropped()
{
  Document* document = m_window->document();
  InspectorPanel* inspector = m_window->inspectorPanel();
  m_window->showView(MainWindow::View::Topology);
  Selection link;
  link.links.insert(document->topology()->links.front().id);
  document->setSelection(link);
  QVERIFY2(inspector->heading().startsWith(QStringLiteral("Link")),
           qPrintable(inspector->heading()));

  m_window->showView(MainWindow::View::Timeline);
  QVERIFY(document->selection().links.empty());
  QCOMPARE(inspector->heading(), QStringLiteral("Nothing selected"));

  const int id = document->schedule().transfers.front().id;
  document->selectTransfer(id);
  m_window->showView(MainWindow::View::Program);
  QCOMPARE(document->selection().transfers, std::set<int>{id}); // the program shows it too
  m_window->showView(MainWindow::View::Topology);
  QVERIFY(document->selection().empty());
  QCOMPARE(inspector->heading(), QStringLiteral("Nothing selected"));
}

void TestInspectorFollows::checkPageFitsDock()
{
  QDockWidget* dock = m_window->inspectorDock();
  QVERIFY(dock->isVisible());
  InspectorPage* page = m_window->inspectorPanel()->currentPage();
  QVERIFY(page);
  auto* scroll = m_window->inspectorPanel()->findChild<QScrollArea*>();
  QVERIFY(scroll);
  const int right = scroll->viewport()->mapTo(dock, QPoint(scroll->viewport()->width(), 0)).x();
  QVERIFY(right <= dock->width());
  int editors = 0;
  for (QWidget* editor : page->findChildren<QWidget*>()) {
    if (!editor->isVisible() || editor->objectName().isEmpty())
      continue;
    ++editors;
    const QRect inDock(editor->mapTo(dock, QPoint(0, 0)), editor->size());
    QVERIFY2(inDock.right() < right,
             qPrintable(QStringLiteral("%1 ends at %2, the dock's view at %3")
                            .arg(editor->objectName())
                            .arg(inDock.right())
                            .arg(right)));
    QVERIFY2(inDock.left() >= 0, qPrintable(editor->objectName()));
  }
  QVERIFY(editors >= 4); // kind, bandwidth, latency, duplex
}

void TestInspectorFollows::linkEditorFitsTheDock()
{
  m_window->resize(1280, 800);
  m_window->resetLayout();
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  m_window->showView(MainWindow::View::Topology);
  Document* document = m_window->document();
  Selection link;
  link.links.insert(document->topology()->links.front().id);
  document->setSelection(link);
  QCoreApplication::processEvents();
  QVERIFY(m_window->inspectorPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("bandwidth")));
  checkPageFitsDock();
  test::saveGuideShot(m_window->grab(), QStringLiteral("guide-inspector-link.png"));

  // Shrinking and growing again must not leave it cut off.
  m_window->resize(900, 600);
  QCoreApplication::processEvents();
  m_window->resize(1280, 800);
  QCoreApplication::processEvents();
  checkPageFitsDock();
  m_window->hide();
}

QTEST_MAIN(TestInspectorFollows)
#include "tst_inspectorfollows.moc"
