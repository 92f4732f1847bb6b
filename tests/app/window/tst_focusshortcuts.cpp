// Keys wherever the focus is (issue 17 item 5): the shown view's single-letter tool shortcuts
// act with the focus in the Library tree, the Problems list, the Inspector or the view itself
// (not in a hidden view), text fields keep their letters and their own undo, Ctrl+Z in a field
// with nothing of its own to undo undoes the document, and a new or opened document starts with
// each view's default tool.

#include "support/isolatedwindow.h"
#include "window/librarypanel.h"
#include "window/mainwindow.h"

#include "document/document.h"
#include "panels/inspectorpanel.h"
#include "panels/problemspanel.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "topology/topologyview.h"

#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <memory>

using namespace cs;
using namespace cs::editor;

class TestFocusShortcuts : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void init();
  void toolKeysWorkWithFocusInEachDock_data();
  void toolKeysWorkWithFocusInEachDock();
  void topologyToolKeysWorkFromTheLibrary();
  void hiddenViewsDoNotAnswer();
  void textFieldsKeepLettersAndUndo();
  void ctrlZInAFieldWithNothingToUndoUndoesTheDocument();
  void newDocumentStartsWithDefaultTools();
  void noWindowShortcutIsBoundTwice_data();
  void noWindowShortcutIsBoundTwice();

private:
  /// A widget of the window that takes the keyboard focus, by where it is.
  QWidget* focusTarget(const QString& where) const;
  void focus(QWidget* widget);

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void TestFocusShortcuts::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = cs::test::openIsolatedWindow(m_dir, "tst_focusshortcuts");
  m_window->show();
  m_window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestFocusShortcuts::init()
{
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "ring-4").isEmpty());
  m_window->document()->waitForAnalysis();
  m_window->showView(MainWindow::View::Timeline);
  m_window->timelineView()->setOperation(TransferOp::Copy);
  QCoreApplication::processEvents();
}

QWidget* TestFocusShortcuts::focusTarget(const QString& where) const
{
  if (where == QLatin1String("library"))
    return m_window->libraryPanel()->findChild<QTreeWidget*>();
  if (where == QLatin1String("problems"))
    return m_window->problemsPanel()->findChild<QTreeView*>();
  if (where == QLatin1String("inspector combo"))
    return m_window->inspectorPanel()->findChild<QWidget*>(QStringLiteral("collective"));
  if (where == QLatin1String("timeline"))
    return m_window->timelineView();
  return nullptr;
}

void TestFocusShortcuts::focus(QWidget* widget)
{
  QVERIFY(widget);
  QVERIFY2(widget->isVisible(), qPrintable(widget->objectName()));
  widget->setFocus(Qt::OtherFocusReason);
  QTRY_COMPARE(QApplication::focusWidget(), widget);
}

void TestFocusShortcuts::toolKeysWorkWithFocusInEachDock_data()
{
  QTest::addColumn<QString>("where");
  QTest::newRow("Library tree") << QStringLiteral("library");
  QTest::newRow("Problems list") << QStringLiteral("problems");
  QTest::newRow("Inspector combo box") << QStringLiteral("inspector combo");
  QTest::newRow("Timeline") << QStringLiteral("timeline");
}

void TestFocusShortcuts::toolKeysWorkWithFocusInEachDock()
{
  QFETCH(QString, where);
  if (where == QLatin1String("problems")) {
    // Without a topology the panel lists an info, so its list is shown.
    QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "").isEmpty());
    m_window->document()->waitForAnalysis();
    QCoreApplication::processEvents();
  }
  QWidget* target = focusTarget(where);
  focus(target);
  TimelineView* timeline = m_window->timelineView();
  QTest::keyClick(target, Qt::Key_R);
  QCOMPARE(timeline->operation(), TransferOp::Reduce);
  QTest::keyClick(target, Qt::Key_S);
  QCOMPARE(timeline->tool(), TimelineView::Tool::Select);
  QTest::keyClick(target, Qt::Key_C);
  QCOMPARE(timeline->operation(), TransferOp::Copy);
  QTest::keyClick(target, Qt::Key_D);
  QCOMPARE(timeline->tool(), TimelineView::Tool::Draw);
  QCOMPARE(QApplication::focusWidget(), target);
}

void TestFocusShortcuts::topologyToolKeysWorkFromTheLibrary()
{
  m_window->showView(MainWindow::View::Topology);
  TopologyView* topology = m_window->topologyView();
  for (QWidget* target : {focusTarget("library"), static_cast<QWidget*>(topology)}) {
    topology->setTool(TopologyView::Tool::Select);
    focus(target);
    QTest::keyClick(target, Qt::Key_G);
    QCOMPARE(topology->tool(), TopologyView::Tool::AddGpu);
    QTest::keyClick(target, Qt::Key_V);
    QCOMPARE(topology->tool(), TopologyView::Tool::Select);
  }
}

void TestFocusShortcuts::hiddenViewsDoNotAnswer()
{
  // With the Program view shown, R and S belong to no view: the hidden timeline keeps its mode.
  m_window->showView(MainWindow::View::Program);
  ProgramView* program = m_window->programView();
  QWidget* tree = program->findChild<QTreeView*>();
  focus(tree ? tree : program);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_R);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_G);
  QCOMPARE(m_window->timelineView()->operation(), TransferOp::Copy);
  QCOMPARE(m_window->topologyView()->tool(), TopologyView::Tool::Select);
}

void TestFocusShortcuts::textFieldsKeepLettersAndUndo()
{
  Document* document = m_window->document();
  TimelineView* timeline = m_window->timelineView();
  auto* name = m_window->inspectorPanel()->findChild<QLineEdit*>(QStringLiteral("name"));
  QVERIFY(name);
  const QString before = name->text();
  const int index = document->undoStack()->index();
  focus(name);
  name->end(false);
  QTest::keyClick(name, Qt::Key_R);
  QCOMPARE(name->text(), before + QLatin1Char('r'));
  QCOMPARE(timeline->operation(), TransferOp::Copy);
  QTest::keyClick(name, Qt::Key_Z, Qt::ControlModifier);
  QCOMPARE(name->text(), before);
  QCOMPARE(document->undoStack()->index(), index);

  auto* chunks = m_window->inspectorPanel()->findChild<QSpinBox*>(QStringLiteral("inputChunks"));
  QVERIFY(chunks);
  const QString shown = chunks->text();
  focus(chunks);
  chunks->selectAll();
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_7);
  QCOMPARE(chunks->text(), QStringLiteral("7"));
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_R);
  QCOMPARE(timeline->operation(), TransferOp::Copy);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
  QCOMPARE(chunks->text(), shown);
  QCOMPARE(document->undoStack()->index(), index);
}

void TestFocusShortcuts::ctrlZInAFieldWithNothingToUndoUndoesTheDocument()
{
  Document* document = m_window->document();
  auto* chunks = m_window->inspectorPanel()->findChild<QSpinBox*>(QStringLiteral("inputChunks"));
  QVERIFY(chunks);
  const int value = chunks->value();
  focus(chunks);
  chunks->selectAll();
  QTest::keyClicks(QApplication::focusWidget(), QString::number(value + 1));
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
  QCOMPARE(document->undoStack()->index(), 1);
  QCOMPARE(chunks->value(), value + 1);
  // The field was refreshed from the document: it has nothing of its own left to undo.
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
  QCOMPARE(document->undoStack()->index(), 0);
  QCOMPARE(chunks->value(), value);
}

void TestFocusShortcuts::newDocumentStartsWithDefaultTools()
{
  TimelineView* timeline = m_window->timelineView();
  TopologyView* topology = m_window->topologyView();
  timeline->setTool(TimelineView::Tool::Select);
  timeline->setOperation(TransferOp::Reduce);
  topology->setTool(TopologyView::Tool::AddNic);
  QVERIFY(m_window->newFromAlgorithm("ring-allreduce", 4, "").isEmpty());
  QCOMPARE(timeline->tool(), TimelineView::Tool::Draw);
  QCOMPARE(timeline->operation(), TransferOp::Copy);
  QCOMPARE(topology->tool(), TopologyView::Tool::Select);

  const QString path = m_dir.filePath("tools.json");
  QVERIFY(m_window->saveDesignTo(path).isEmpty());
  timeline->setTool(TimelineView::Tool::Select);
  QVERIFY(m_window->openFile(path).isEmpty());
  QCOMPARE(timeline->tool(), TimelineView::Tool::Draw);
  // An undo does not count as a new document: the tool stays.
  timeline->setTool(TimelineView::Tool::Select);
  m_window->document()->undoStack()->undo();
  QCOMPARE(timeline->tool(), TimelineView::Tool::Select);
}

void TestFocusShortcuts::noWindowShortcutIsBoundTwice_data()
{
  QTest::addColumn<int>("view");
  QTest::newRow("Topology") << static_cast<int>(MainWindow::View::Topology);
  QTest::newRow("Timeline") << static_cast<int>(MainWindow::View::Timeline);
  QTest::newRow("Program") << static_cast<int>(MainWindow::View::Program);
}

// Two window-wide actions with one key make Qt call the key ambiguous and do neither (F5 was
// once both Replay › Run… and Teach › Presentation Mode).
void TestFocusShortcuts::noWindowShortcutIsBoundTwice()
{
  QFETCH(int, view);
  m_window->showView(static_cast<MainWindow::View>(view));
  QCoreApplication::processEvents();
  QMap<QKeySequence, QString> owner;
  std::vector<QMenu*> menus;
  for (QAction* top : m_window->menuBar()->actions()) {
    if (top->menu())
      menus.push_back(top->menu());
  }
  while (!menus.empty()) {
    QMenu* menu = menus.back();
    menus.pop_back();
    for (QAction* action : menu->actions()) {
      if (action->menu())
        menus.push_back(action->menu());
      const bool windowWide = action->shortcutContext() == Qt::WindowShortcut ||
                              action->shortcutContext() == Qt::ApplicationShortcut;
      if (!windowWide || !action->isEnabled())
        continue;
      for (const QKeySequence& key : action->shortcuts()) {
        const QString name = menu->title() + QLatin1String(" › ") + action->text();
        QVERIFY2(!owner.contains(key) || owner[key] == name,
                 qPrintable(key.toString() + QLatin1String(": ") + owner[key] +
                            QLatin1String(" and ") + name));
        owner[key] = name;
      }
    }
  }
  QVERIFY(owner.contains(QKeySequence(Qt::Key_F5)));
}

QTEST_MAIN(TestFocusShortcuts)
#include "tst_focusshortcuts.moc"
