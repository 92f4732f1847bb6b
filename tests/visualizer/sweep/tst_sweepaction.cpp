// Replay → Benchmark Sweep… opens the sweep window of the main window's document, titled after
// it, and a second trigger raises the same window instead of opening another.

#include "window/mainwindow.h"

#include "support/isolatedwindow.h"

#include "sweep/sweepwindow.h"

#include <QAction>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

class Test_sweepaction : public QObject
{
  Q_OBJECT

private slots:
  void actionOpensOneSweepWindow();
};

void Test_sweepaction::actionOpensOneSweepWindow()
{
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  std::unique_ptr<MainWindow> window = test::openIsolatedRingWindow(dir, "tst_sweepaction");
  QVERIFY(window);
  window->show();
  QAction* sweep = nullptr;
  for (QAction* menu : window->menuBar()->actions())
    if (menu->text().remove('&') == QLatin1String("Replay"))
      for (QAction* action : menu->menu()->actions())
        if (action->text().remove('&') == QStringLiteral("Benchmark Sweep…"))
          sweep = action;
  QVERIFY(sweep);
  sweep->trigger();
  const QList<visualizer::SweepWindow*> opened = window->findChildren<visualizer::SweepWindow*>();
  QCOMPARE(opened.size(), 1);
  QVERIFY(opened.front()->isVisible());
  QVERIFY(opened.front()->isWindow());
  QVERIFY2(opened.front()->windowTitle().endsWith("Benchmark Sweep"),
           qPrintable(opened.front()->windowTitle()));
  QVERIFY(opened.front()->isBackendEnabled(QStringLiteral("cpu")));
  sweep->trigger();
  QCOMPARE(window->findChildren<visualizer::SweepWindow*>().size(), 1);
  QCOMPARE(window->showSweepWindow(), opened.front());
}

QTEST_MAIN(Test_sweepaction)
#include "tst_sweepaction.moc"
