// The topology canvas looked at and moved around as a user does: labels that show when they
// fit, links that bow around nodes, Ctrl+wheel zoom, panning, nudging with the arrow keys, and
// the SVG and PNG exports of the whole scene.

#include "topology/linkitem.h"
#include "topology/nodeitem.h"
#include "topology/topologyedits.h"
#include "topology/topologyexport.h"
#include "topology/topologylayout.h"
#include "topology/topologyoverlays.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/rankpalette.h"

#include "model/topologypresets.h"
#include "support/files.h"
#include "support/topologyinput.h"

#include <QApplication>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <memory>

using namespace cs;
using namespace cs::editor;

namespace {

using Tool = TopologyView::Tool;
using Command = TopologyView::Command;
using test::Canvas;
using test::drag;
using test::moveMouse;
using test::wheel;

} // namespace

class TestTopologyNavigation : public QObject
{
  Q_OBJECT

private slots:
  void labelsShowWhenTheyFitOrOnHover();
  void linksBowAroundNodesTheyDoNotJoin();
  void ctrlWheelZoomsAndPlainWheelScrolls();
  void middleButtonAndSpaceDragPan();
  void arrowKeysNudgeTheSelectionAsOneStep();
  void svgExportHoldsTheWholeTopology();
  void pngExportRendersTheWholeSceneAtTwiceItsSize();
};

void TestTopologyNavigation::labelsShowWhenTheyFitOrOnHover()
{
  Canvas canvas(4);
  canvas.view->loadPreset(QStringLiteral("ring-4"));
  canvas.view->setZoom(1);
  TopologyScene* scene = canvas.view->topologyScene();
  QVERIFY(scene->labelsShown());
  QCOMPARE(scene->linkItem(0)->label()->text(), QStringLiteral("NVLink 100 GB/s \u00b7 2 \u00b5s"));
  QVERIFY(scene->linkItem(0)->label()->isVisible());

  // Eight links into one switch: labels would pile up, so they wait for hover or selection.
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  canvas.view->setZoom(1);
  QVERIFY(!scene->labelsShown());
  LinkItem* link = scene->linkItem(2);
  QVERIFY(!link->label()->isVisible());
  QCOMPARE(link->label()->text(), QStringLiteral("NVLink 450 GB/s \u00b7 0.35 \u00b5s"));
  const QPoint middle = canvas.view->mapFromScene(link->midpoint());
  moveMouse(canvas.viewport(), middle, Qt::NoButton);
  QVERIFY(link->label()->isVisible());
  moveMouse(canvas.viewport(), {5, 5}, Qt::NoButton);
  QVERIFY(!link->label()->isVisible());
  link->setSelected(true);
  QVERIFY(link->label()->isVisible());
  // Labels keep their pixel size at any zoom.
  canvas.view->setZoom(0.5);
  QCOMPARE(link->label()->scale(), 2.0);
}

void TestTopologyNavigation::linksBowAroundNodesTheyDoNotJoin()
{
  Canvas canvas(16);
  canvas.view->loadPreset(QStringLiteral("torus-4x4"));
  TopologyScene* scene = canvas.view->topologyScene();
  const Topology& topology = canvas.topology();
  int bowed = 0;
  for (const TopologyLink& link : topology.links) {
    const TopologyNode* a = topology.node(link.a);
    const TopologyNode* b = topology.node(link.b);
    const LinkItem* item = scene->linkItem(link.id);
    // Neighbours in the grid are 150 apart; the wrap-around links span the row or column.
    const bool wraps = std::hypot(a->x - b->x, a->y - b->y) > 200;
    QCOMPARE(item->bend() != 0, wraps);
    if (!wraps)
      continue;
    ++bowed;
    // The curve clears every node it does not join, and bows outwards (away from the middle).
    const QPainterPath path = item->path();
    for (const TopologyNode& node : topology.nodes) {
      if (node.id != link.a && node.id != link.b) {
        for (int i = 0; i <= 50; ++i)
          QVERIFY(!NodeItem::rectFor(node).contains(path.pointAtPercent(i / 50.0)));
      }
    }
    const QPointF chord = QPointF(a->x + b->x, a->y + b->y) / 2;
    const QPointF middle(225, 225);
    QVERIFY(QLineF(middle, item->midpoint()).length() > QLineF(middle, chord).length());
  }
  QCOMPARE(bowed, 8);
}

void TestTopologyNavigation::ctrlWheelZoomsAndPlainWheelScrolls()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  canvas.view->setZoom(0.8);
  const QPoint pointer(300, 200);
  const QPointF under = canvas.view->mapToScene(pointer);
  wheel(canvas.viewport(), pointer, 120, Qt::ControlModifier);
  QVERIFY(qFuzzyCompare(canvas.view->zoom(), 0.8 * 1.2));
  QCOMPARE(canvas.view->topologyScene()->viewScale(), canvas.view->zoom());
  wheel(canvas.viewport(), pointer, -240, Qt::ControlModifier);
  QVERIFY(qFuzzyCompare(canvas.view->zoom(), 0.8 * 1.2 / 1.44));

  const int scrolled = canvas.view->verticalScrollBar()->value();
  wheel(canvas.viewport(), pointer, -120, {});
  QVERIFY(qFuzzyCompare(canvas.view->zoom(), 0.8 / 1.2));
  QVERIFY(canvas.view->verticalScrollBar()->value() > scrolled);
  Q_UNUSED(under);

  canvas.view->commandAction(Command::ZoomIn)->trigger();
  QVERIFY(qFuzzyCompare(canvas.view->zoom(), 0.8 / 1.2 * 1.25));
  canvas.view->commandAction(Command::ZoomFit)->trigger();
  const QRectF content = canvas.view->topologyScene()->contentRect();
  const QRect shown = canvas.view->mapFromScene(content).boundingRect();
  QVERIFY(canvas.viewport()->rect().contains(shown));
}

void TestTopologyNavigation::middleButtonAndSpaceDragPan()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  canvas.view->setZoom(1);
  const QPoint centre = canvas.viewport()->rect().center();
  const QPointF before = canvas.view->mapToScene(centre);
  drag(canvas.viewport(), {500, 300}, {400, 250}, Qt::MiddleButton);
  const QPointF after = canvas.view->mapToScene(centre);
  QCOMPARE(after - before, QPointF(100, 50));

  // Space + left drag pans too, and moves no node.
  const Topology topology = canvas.topology();
  const int count = canvas.undoCount();
  const int gpu0 = canvas.named("GPU0")->id;
  QTest::keyPress(canvas.view.get(), Qt::Key_Space);
  drag(canvas.viewport(), canvas.at(gpu0), canvas.at(gpu0) + QPoint(-60, 0));
  QTest::keyRelease(canvas.view.get(), Qt::Key_Space);
  QCOMPARE(canvas.view->mapToScene(centre) - after, QPointF(60, 0));
  QCOMPARE(canvas.topology(), topology);
  QCOMPARE(canvas.undoCount(), count);
  // The legend stays in the canvas's bottom left corner however the canvas scrolls.
  auto* legend = canvas.view->findChild<LinkLegend*>();
  QVERIFY(legend && legend->isVisible());
  const QRect area = canvas.viewport()->geometry();
  QCOMPARE(legend->geometry().left(), area.left() + 12);
  QCOMPARE(legend->geometry().bottom(), area.bottom() - 12);
}

void TestTopologyNavigation::arrowKeysNudgeTheSelectionAsOneStep()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  const Topology before = canvas.topology();
  const TopologyNode gpu1 = *canvas.named("GPU1");
  const TopologyNode gpu2 = *canvas.named("GPU2");
  Selection selection;
  selection.nodes = {gpu1.id, gpu2.id};
  canvas.document.setSelection(selection);
  const int count = canvas.undoCount();
  QTest::keyClick(canvas.view.get(), Qt::Key_Right);
  QTest::keyClick(canvas.view.get(), Qt::Key_Right);
  QTest::keyClick(canvas.view.get(), Qt::Key_Down, Qt::ShiftModifier);
  QCOMPARE(canvas.topology().node(gpu1.id)->x, gpu1.x + 20);
  QCOMPARE(canvas.topology().node(gpu1.id)->y, gpu1.y + 1);
  QCOMPARE(canvas.topology().node(gpu2.id)->x, gpu2.x + 20);
  QCOMPARE(canvas.undoCount(), count + 1);
  QCOMPARE(canvas.document.undoStack()->undoText(), QStringLiteral("Move 2 nodes"));
  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), before);
}

void TestTopologyNavigation::svgExportHoldsTheWholeTopology()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  canvas.view->setZoom(3); // most of it is off screen: the export must not care
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("dgx.svg"));
  QCOMPARE(canvas.view->exportSvg(path), QString());
  const QByteArray svg = test::readFile(path);
  QVERIFY(svg.contains("<svg"));
  for (int rank = 0; rank < 8; ++rank)
    QVERIFY2(svg.contains("GPU" + QByteArray::number(rank)), qPrintable(QString::number(rank)));
  QVERIFY(svg.contains("NVSwitch"));
  QVERIFY(svg.contains("<title>dgx-h100</title>"));
  // The view is as it was.
  QCOMPARE(canvas.view->zoom(), 3.0);
  QCOMPARE(canvas.view->topologyScene()->viewScale(), 3.0);

  Canvas empty;
  QVERIFY(!empty.view->exportSvg(dir.filePath(QStringLiteral("empty.svg"))).isEmpty());
  QTest::ignoreMessage(QtWarningMsg, QRegularExpression("could not open output device"));
  QTest::ignoreMessage(QtWarningMsg, "QPainter::begin(): Returned false");
  QVERIFY(!canvas.view->exportSvg(QStringLiteral("/nonexistent-dir/x.svg")).isEmpty());
}

void TestTopologyNavigation::pngExportRendersTheWholeSceneAtTwiceItsSize()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  const int gpu0 = canvas.named("GPU0")->id;
  canvas.click(canvas.at(gpu0)); // selected: the export must not show the selection ring
  canvas.view->setZoom(0.3);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("dgx.png"));
  QCOMPARE(canvas.view->exportPng(path), QString());
  QImage image(path);
  QVERIFY(!image.isNull());

  TopologyScene* scene = canvas.view->topologyScene();
  scene->setViewScale(1);
  const QRectF rect = scene->exportRect(kExportMargin);
  QCOMPARE(image.width(), static_cast<int>(std::ceil(rect.width() * kPngScale)));
  QCOMPARE(image.height(), static_cast<int>(std::ceil(rect.height() * kPngScale)));
  // 8 GPUs side by side over one switch: a wide picture.
  QVERIFY(image.width() > 2 * image.height());

  const auto pixel = [&](const QPointF& scenePos) {
    const QPointF p = (scenePos - rect.topLeft()) * kPngScale;
    return image.pixelColor(static_cast<int>(p.x()), static_cast<int>(p.y()));
  };
  const QColor background = canvas.view->palette().color(QPalette::Base);
  QCOMPARE(image.pixelColor(1, 1).rgb(), background.rgb());
  for (int rank : {0, 5}) {
    // Inside the card, left of the big rank number and below the name: the rank's colour.
    const TopologyNode* gpu = canvas.topology().gpuNode(rank);
    const QRectF card = NodeItem::rectFor(*gpu);
    QCOMPARE(pixel({card.left() + 5, card.center().y() + 8}).rgb(), rankColor(rank).rgb());
  }
  // Just outside GPU0's card, where a selection ring would be drawn: background.
  const QRectF card = NodeItem::rectFor(*canvas.topology().gpuNode(0));
  QCOMPARE(pixel({card.left() - 4.5, card.center().y()}).rgb(), background.rgb());
  // The switch's accent strip is NVLink green.
  const QRectF nvswitch = NodeItem::rectFor(*canvas.named("NVSwitch"));
  QCOMPARE(pixel({nvswitch.left() + 4, nvswitch.center().y()}).rgb(),
           linkKindColor(LinkKind::NvLink).rgb());
}

QTEST_MAIN(TestTopologyNavigation)
#include "tst_topologynavigation.moc"
