// File › Export Animation…: the dialog's choices (format, view, frame rate, size, the path's
// extension following the format) and MainWindow::exportAnimationTo, the menu's path, writing a
// GIF that decodes to steps × frames per step frames.

#include "gifdecode.h"

#include "window/exportanimationdialog.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

class Test_exportanimationwindow : public QObject
{
  Q_OBJECT

private slots:
  void dialogFollowsTheFormat();
  void menuExportsAGif();
};

void Test_exportanimationwindow::dialogFollowsTheFormat()
{
  ExportAnimationDialog dialog("/tmp/talk/ring");
  QCOMPARE(dialog.outputPath(), QString("/tmp/talk/ring.gif"));
  const QList<QComboBox*> combos = dialog.findChildren<QComboBox*>();
  QCOMPARE(combos.size(), 2); // format, view
  const QList<QSpinBox*> spins = dialog.findChildren<QSpinBox*>();
  QCOMPARE(spins.size(), 3);         // fps, width, height
  QCOMPARE(spins[0]->maximum(), 50); // GIF delays
  combos[0]->setCurrentIndex(3);     // SVG
  QCOMPARE(dialog.outputPath(), QString("/tmp/talk/ring.svg"));
  QCOMPARE(spins[0]->maximum(), 60);
  combos[1]->setCurrentIndex(2); // timeline
  spins[0]->setValue(24);
  spins[1]->setValue(640);
  spins[2]->setValue(360);
  const visualizer::AnimationOptions options = dialog.options();
  QCOMPARE(options.view, visualizer::AnimationView::Timeline);
  QCOMPARE(options.fps, 24);
  QCOMPARE(options.size, QSize(640, 360));
}

void Test_exportanimationwindow::menuExportsAGif()
{
  QTemporaryDir dir;
  MainWindowOptions windowOptions;
  windowOptions.openLibrary = false;
  windowOptions.restoreLayout = false;
  windowOptions.recordRecentFiles = false;
  windowOptions.autosave = false;
  MainWindow window(windowOptions);
  QCOMPARE(window.newFromAlgorithm("ring-allreduce", 4, "ring-4"), QString());
  QAction* action = nullptr;
  for (QAction* candidate : window.findChildren<QAction*>()) {
    if (candidate->text() == "Export &Animation…")
      action = candidate;
  }
  QVERIFY(action);
  QVERIFY(action->isEnabled());
  visualizer::AnimationOptions options;
  options.fps = 3;
  options.size = QSize(320, 180);
  const QString path = dir.filePath("ring.gif");
  QCOMPARE(window.exportAnimationTo(path, options), QString());
  const auto decoded = visualizer::test::decodeGif(path);
  QCOMPARE(decoded.frames, 6 * 3);
  QCOMPARE(decoded.width, 320);
}

QTEST_MAIN(Test_exportanimationwindow)
#include "tst_exportanimationwindow.moc"
