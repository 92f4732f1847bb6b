// Replay → Run… (F5) in the main window shows the Run dock, which starts hidden and has a View
// menu toggle; a simulated run of the window's document from the dock opens its replay window.

#include "window/mainwindow.h"

#include "support/isolatedwindow.h"

#include "document/document.h"
#include "run/runpanel.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

/// The action of menu `menuTitle` whose text starts with `text`, or null.
QAction* menuAction(QMainWindow& window, const QString& menuTitle, const QString& text)
{
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->text().remove('&') != menuTitle || !menu->menu())
      continue;
    for (QAction* action : menu->menu()->actions()) {
      if (action->text().remove('&').startsWith(text))
        return action;
    }
  }
  return nullptr;
}

} // namespace

class Test_runaction : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void runActionShowsTheDock();
  void simulatedRunOpensAReplay();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void Test_runaction::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = test::openIsolatedRingWindow(m_dir, "tst_runaction");
  QVERIFY(m_window);
  QVERIFY(m_window->document()->shownProgram().has_value());
  m_window->show();
}

void Test_runaction::runActionShowsTheDock()
{
  QVERIFY(m_window->runDock()->isHidden());
  QVERIFY(menuAction(*m_window, "View", "Run") == m_window->runDock()->toggleViewAction());
  QAction* run = menuAction(*m_window, "Replay", "Run");
  QVERIFY(run);
  QCOMPARE(run->shortcut(), QKeySequence(Qt::Key_F5));
  run->trigger();
  QVERIFY(m_window->runDock()->isVisible());
  QCOMPARE(m_window->dockWidgetArea(m_window->runDock()), Qt::RightDockWidgetArea);
}

void Test_runaction::simulatedRunOpensAReplay()
{
  visualizer::RunPanel* panel = m_window->runPanel();
  QVERIFY(panel->selectBackend(QStringLiteral("simulate")));
  QSignalSpy finished(panel, &visualizer::RunPanel::runFinished);
  QVERIFY(panel->run());
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
  QVERIFY2(panel->verdictText().contains("simulated"), qPrintable(panel->verdictText()));
  QVERIFY(panel->replayWindow() != nullptr);
  QVERIFY(panel->replayWindow()->isVisible());
}

QTEST_MAIN(Test_runaction)
#include "tst_runaction.moc"
