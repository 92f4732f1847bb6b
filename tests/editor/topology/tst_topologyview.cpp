// The topology canvas driven as a user drives it: tools placed by clicks on the viewport, links
// drawn and nodes moved by mouse drags, Delete, presets, auto layout and selection (zoom, pan,
// labels and exports: tst_topologynavigation.cpp).
// Every edit must land in the document as exactly one undo step that restores the exact
// previous Topology.

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

} // namespace

class TestTopologyView : public QObject
{
  Q_OBJECT

private slots:
  void toolsPlaceNodesWhereClicked();
  void shortcutsSwitchTheExclusiveTools();
  void draggingFromNodeToNodeDrawsOneLink();
  void draggingANodeMovesItAsOneUndoStep();
  void deleteRemovesNodesWithTheirLinksAndLinks();
  void undoAndRedoRestoreEveryExactTopology();
  void presetMenuIsSizedForTheAlgorithm();
  void missingRanksAreNamedAndCanBeAdded();
  void emptyCanvasOffersPresetsAndGpus();
  void autoLayoutIsOneUndoStepWithoutOverlap();
  void selectionFollowsTheDocumentBothWays();
};

void TestTopologyView::toolsPlaceNodesWhereClicked()
{
  Canvas canvas;
  QVERIFY(!canvas.document.topology());
  canvas.use(Tool::AddGpu);
  const QPoint first(200, 150);
  const QPoint second(500, 150);
  const auto onWidget = [&](const QPoint& inViewport) {
    return canvas.viewport()->mapTo(canvas.view.get(), inViewport);
  };
  const QPointF firstScene = canvas.view->mapToScene(first);
  const QPoint firstOnWidget = onWidget(first);
  canvas.click(first);
  const QPointF secondScene = canvas.view->mapToScene(second);
  const QPoint secondOnWidget = onWidget(second);
  canvas.click(second);
  canvas.use(Tool::AddNvSwitch);
  const QPoint third(350, 420);
  const QPointF thirdScene = canvas.view->mapToScene(third);
  const QPoint thirdOnWidget = onWidget(third);
  canvas.click(third);

  const Topology& topology = canvas.topology();
  QCOMPARE(topology.nodes.size(), std::size_t(3));
  QCOMPARE(topology.links.size(), std::size_t(0));
  const struct {
    NodeKind kind;
    int rank;
    const char* name;
    QPointF at;
  } expected[] = {{NodeKind::Gpu, 0, "GPU0", firstScene},
                  {NodeKind::Gpu, 1, "GPU1", secondScene},
                  {NodeKind::NvSwitch, -1, "NVSwitch0", thirdScene}};
  for (std::size_t i = 0; i < 3; ++i) {
    const TopologyNode& node = topology.nodes[i];
    QCOMPARE(node.kind, expected[i].kind);
    QCOMPARE(node.rank, expected[i].rank);
    QCOMPARE(node.name, std::string(expected[i].name));
    QCOMPARE(node.x, std::round(expected[i].at.x()));
    QCOMPARE(node.y, std::round(expected[i].at.y()));
  }
  // The drawing did not jump: each node is still under the point of the widget that placed
  // it (the viewport itself moves down when the warning about ranks 2-3 appears above it).
  const QPoint clickedAt[] = {firstOnWidget, secondOnWidget, thirdOnWidget};
  for (std::size_t i = 0; i < 3; ++i)
    QVERIFY((onWidget(canvas.at(topology.nodes[i].id)) - clickedAt[i]).manhattanLength() <= 2);
  QCOMPARE(canvas.view->missingRanksText(),
           QStringLiteral("Ranks 2, 3 of the algorithm have no GPU in this topology."));
  QCOMPARE(canvas.undoCount(), 3);
  QCOMPARE(canvas.document.undoStack()->text(2), QStringLiteral("Add NVSwitch0"));
  // The node just placed is the selection, so the inspector shows it.
  QCOMPARE(canvas.document.selection().nodes, std::set<int>{topology.nodes[2].id});
  QVERIFY(!canvas.view->emptyHintShown());

  // Clicking on an existing node with an add tool selects it instead of stacking another.
  canvas.click(canvas.at(topology.nodes[0].id));
  QCOMPARE(canvas.topology().nodes.size(), std::size_t(3));
  QCOMPARE(canvas.document.selection().nodes, std::set<int>{topology.nodes[0].id});
}

void TestTopologyView::shortcutsSwitchTheExclusiveTools()
{
  Canvas canvas;
  const std::pair<Qt::Key, Tool> keys[] = {
      {Qt::Key_G, Tool::AddGpu},        {Qt::Key_S, Tool::AddNvSwitch},
      {Qt::Key_P, Tool::AddPcieSwitch}, {Qt::Key_N, Tool::AddNic},
      {Qt::Key_C, Tool::AddCpu},        {Qt::Key_W, Tool::AddNetworkSwitch},
      {Qt::Key_L, Tool::Link},          {Qt::Key_V, Tool::Select}};
  for (const auto& [key, tool] : keys) {
    QTest::keyClick(canvas.view.get(), key);
    QCOMPARE(canvas.view->tool(), tool);
    const auto on = [&](auto k) { return canvas.view->toolAction(k.second)->isChecked(); };
    QCOMPARE(std::count_if(std::begin(keys), std::end(keys), on), std::ptrdiff_t(1));
    QVERIFY(canvas.view->toolAction(tool)->isChecked());
  }
  // Escape returns to Select from any tool.
  QTest::keyClick(canvas.view.get(), Qt::Key_N);
  QTest::keyClick(canvas.view.get(), Qt::Key_Escape);
  QCOMPARE(canvas.view->tool(), Tool::Select);
}

void TestTopologyView::draggingFromNodeToNodeDrawsOneLink()
{
  Canvas canvas;
  canvas.use(Tool::AddGpu);
  canvas.click({200, 150});
  canvas.click({500, 150});
  canvas.use(Tool::AddCpu);
  canvas.click({800, 150});
  canvas.use(Tool::AddNvSwitch);
  canvas.click({350, 450});
  const int gpu0 = canvas.named("GPU0")->id;
  const int gpu1 = canvas.named("GPU1")->id;
  const int cpu = canvas.named("CPU0")->id;
  const int nvswitch = canvas.named("NVSwitch0")->id;
  const int before = canvas.undoCount();

  canvas.use(Tool::Link);
  drag(canvas.viewport(), canvas.at(gpu0), canvas.at(nvswitch));
  QCOMPARE(canvas.topology().links.size(), std::size_t(1));
  const TopologyLink link = canvas.topology().links.front();
  QCOMPARE(link.a, gpu0);
  QCOMPARE(link.b, nvswitch);
  QCOMPARE(link.kind, LinkKind::NvLink);
  QCOMPARE(link.bandwidthGBps, 450.0);
  QCOMPARE(link.latencyUs, 0.35);
  QVERIFY(link.duplex);
  QCOMPARE(canvas.undoCount(), before + 1);
  QCOMPARE(canvas.document.selection().links, std::set<int>{link.id});
  QVERIFY(canvas.view->topologyScene()->linkItem(link.id));

  // The same pair again, in either direction, adds nothing and says why.
  QSignalSpy messages(canvas.view.get(), &TopologyView::statusMessage);
  drag(canvas.viewport(), canvas.at(nvswitch), canvas.at(gpu0));
  QCOMPARE(canvas.topology().links.size(), std::size_t(1));
  QCOMPARE(canvas.undoCount(), before + 1);
  QCOMPARE(messages.count(), 1);
  QCOMPARE(messages.front().front().toString(),
           QStringLiteral("NVSwitch0 and GPU0 are already linked"));

  // Released on empty canvas or on the node it started from: no link.
  drag(canvas.viewport(), canvas.at(gpu1), {650, 600});
  drag(canvas.viewport(), canvas.at(gpu1), canvas.at(gpu1) + QPoint(10, 5));
  QCOMPARE(canvas.topology().links.size(), std::size_t(1));

  // A GPU to a CPU is PCIe.
  drag(canvas.viewport(), canvas.at(gpu1), canvas.at(cpu));
  QCOMPARE(canvas.topology().links.size(), std::size_t(2));
  QCOMPARE(canvas.topology().links.back().kind, LinkKind::Pcie);
  QCOMPARE(canvas.topology().links.back().bandwidthGBps, 32.0);
  QCOMPARE(canvas.undoCount(), before + 2);
}

void TestTopologyView::draggingANodeMovesItAsOneUndoStep()
{
  Canvas canvas(8);
  QVERIFY(canvas.view->loadPreset(QStringLiteral("dgx-h100")));
  const Topology before = canvas.topology();
  const int count = canvas.undoCount();
  const TopologyNode gpu3 = *canvas.named("GPU3");
  const QPoint from = canvas.at(gpu3.id);
  const QPoint to = from + QPoint(70, 45);
  const QPointF delta = canvas.view->mapToScene(to) - canvas.view->mapToScene(from);
  canvas.use(Tool::Select);
  drag(canvas.viewport(), from, to, Qt::LeftButton, 10);

  const Topology after = canvas.topology();
  QCOMPARE(after.node(gpu3.id)->x, std::round(gpu3.x + delta.x()));
  QCOMPARE(after.node(gpu3.id)->y, std::round(gpu3.y + delta.y()));
  for (const TopologyNode& node : before.nodes) {
    if (node.id != gpu3.id)
      QCOMPARE(*after.node(node.id), node);
  }
  QCOMPARE(canvas.undoCount(), count + 1);
  QCOMPARE(canvas.document.undoStack()->undoText(), QStringLiteral("Move GPU3"));
  // The item followed the document.
  QCOMPARE(canvas.view->topologyScene()->nodeItem(gpu3.id)->pos(),
           QPointF(after.node(gpu3.id)->x, after.node(gpu3.id)->y));

  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), before);
  canvas.document.undoStack()->redo();
  QCOMPARE(canvas.topology(), after);

  // A second drag is a second undo step, not merged into the first.
  drag(canvas.viewport(), canvas.at(gpu3.id), canvas.at(gpu3.id) + QPoint(-30, 0));
  QCOMPARE(canvas.undoCount(), count + 2);
  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), after);
}

void TestTopologyView::deleteRemovesNodesWithTheirLinksAndLinks()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  const Topology before = canvas.topology();
  const int gpu2 = canvas.named("GPU2")->id;
  canvas.use(Tool::Select);
  canvas.click(canvas.at(gpu2));
  QCOMPARE(canvas.document.selection().nodes, std::set<int>{gpu2});
  QVERIFY(canvas.view->commandAction(Command::Delete)->isEnabled());
  canvas.view->commandAction(Command::Delete)->trigger();

  const Topology afterNode = canvas.topology();
  QCOMPARE(afterNode.nodes.size(), before.nodes.size() - 1);
  QVERIFY(!afterNode.node(gpu2));
  QCOMPARE(afterNode.links.size(), before.links.size() - 1);
  for (const TopologyLink& link : afterNode.links)
    QVERIFY(link.a != gpu2 && link.b != gpu2);
  QVERIFY(canvas.document.selection().nodes.empty());
  QCOMPARE(canvas.view->missingRanksText(),
           QStringLiteral("Rank 2 of the algorithm has no GPU in this topology."));

  // A link is selected by clicking on it, away from both ends.
  const TopologyLink link = afterNode.links.front();
  const TopologyNode* a = afterNode.node(link.a);
  const TopologyNode* b = afterNode.node(link.b);
  const QPoint middle = canvas.view->mapFromScene(QPointF(a->x + b->x, a->y + b->y) / 2);
  QCOMPARE(canvas.view->topologyScene()->linkItem(link.id)->bend(), 0.0);
  canvas.click(middle);
  QCOMPARE(canvas.document.selection().links, std::set<int>{link.id});
  QTest::keyClick(canvas.view.get(), Qt::Key_Delete);
  QCOMPARE(canvas.topology().links.size(), afterNode.links.size() - 1);
  QCOMPARE(canvas.topology().nodes.size(), afterNode.nodes.size());
  const int steps = canvas.undoCount();
  canvas.view->commandAction(Command::Delete)->trigger(); // nothing selected: no new step
  QCOMPARE(canvas.undoCount(), steps);

  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), afterNode);
  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), before);
  QCOMPARE(canvas.view->topologyScene()->nodeCount(), 9);
  QCOMPARE(canvas.view->topologyScene()->linkCount(), 8);
}

void TestTopologyView::undoAndRedoRestoreEveryExactTopology()
{
  Canvas canvas;
  std::vector<std::optional<Topology>> states{canvas.document.topology()};
  const auto record = [&] { states.push_back(canvas.document.topology()); };
  canvas.use(Tool::AddGpu);
  canvas.click({250, 200});
  record();
  canvas.click({600, 200});
  record();
  canvas.use(Tool::Link);
  drag(canvas.viewport(), {250, 200}, {600, 200});
  record();
  canvas.use(Tool::Select);
  drag(canvas.viewport(), {600, 200}, {640, 420});
  record();
  canvas.click({250, 200});
  canvas.view->deleteSelection();
  record();
  QCOMPARE(canvas.undoCount(), 5);
  QCOMPARE(canvas.topology().nodes.size(), std::size_t(1));
  QCOMPARE(canvas.topology().links.size(), std::size_t(0));

  for (int i = 4; i >= 0; --i) {
    canvas.document.undoStack()->undo();
    QCOMPARE(canvas.document.topology(), states[static_cast<std::size_t>(i)]);
  }
  QCOMPARE(canvas.view->topologyScene()->nodeCount(), 0);
  QVERIFY(canvas.view->emptyHintShown());
  for (std::size_t i = 1; i < states.size(); ++i) {
    canvas.document.undoStack()->redo();
    QCOMPARE(canvas.document.topology(), states[i]);
  }
  QCOMPARE(canvas.view->topologyScene()->nodeCount(), 1);
}

void TestTopologyView::presetMenuIsSizedForTheAlgorithm()
{
  Canvas canvas(8);
  QMenu* menu = canvas.view->presetMenu();
  emit menu->aboutToShow();
  QStringList names;
  QAction* dgx = nullptr;
  for (QAction* action : menu->actions()) {
    if (action->objectName().startsWith(QStringLiteral("preset:")))
      names.push_back(action->text());
    if (action->text() == QStringLiteral("dgx-h100"))
      dgx = action;
  }
  QCOMPARE(names,
           QStringList({"dgx-h100", "dgx-a100", "dgx1-v100", "pcie-8gpu", "2x-dgx-h100", "ring-8",
                        "fully-connected-8", "torus-2x4", "fabric-h100-2x4", "fabric-a100-2x4"}));
  QCOMPARE(canvas.view->presetNames(), names);
  QVERIFY(dgx);
  dgx->trigger();
  QCOMPARE(canvas.topology(), *makePresetTopology("dgx-h100"));
  QCOMPARE(canvas.undoCount(), 1);
  QCOMPARE(canvas.document.undoStack()->undoText(), QStringLiteral("Load preset dgx-h100"));
  QCOMPARE(canvas.view->missingRanksText(), QString());
  QCOMPARE(canvas.view->topologyScene()->nodeCount(), 9);
  QCOMPARE(canvas.view->topologyScene()->linkCount(), 8);
  // Every node is on screen after loading.
  const QRect visible = canvas.viewport()->rect();
  for (const TopologyNode& node : canvas.topology().nodes)
    QVERIFY(visible.contains(canvas.at(node.id)));

  QVERIFY(!canvas.view->loadPreset(QStringLiteral("ring-1")));
  QCOMPARE(canvas.undoCount(), 1);
}

void TestTopologyView::missingRanksAreNamedAndCanBeAdded()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("ring-4"));
  QCOMPARE(canvas.view->missingRanksText(),
           QStringLiteral("Ranks 4\u20137 of the algorithm have no GPU in this topology."));
  auto* warning = canvas.view->findChild<QWidget*>(QStringLiteral("topologyRankWarning"));
  QVERIFY(warning && warning->isVisible());
  // The warning sits above the canvas, not over it.
  QCOMPARE(canvas.viewport()->geometry().top(), warning->geometry().bottom() + 1);
  auto* add = warning->findChild<QToolButton*>();
  QVERIFY(add);
  QTest::mouseClick(add, Qt::LeftButton);
  QCOMPARE(canvas.view->missingRanksText(), QString());
  QVERIFY(!warning->isVisible());
  QCOMPARE(canvas.topology().nodes.size(), std::size_t(8));
  for (int rank = 4; rank < 8; ++rank) {
    const TopologyNode* gpu = canvas.topology().gpuNode(rank);
    QVERIFY(gpu);
    QCOMPARE(gpu->name, "GPU" + std::to_string(rank));
  }
  QCOMPARE(canvas.undoCount(), 2);
  QVERIFY(!layoutHasOverlap(canvas.topology(), {}, NodeItem::sizeFor));
}

void TestTopologyView::emptyCanvasOffersPresetsAndGpus()
{
  Canvas canvas(6);
  QVERIFY(canvas.view->emptyHintShown());
  QVERIFY(!canvas.view->commandAction(Command::Delete)->isEnabled());
  QVERIFY(!canvas.view->commandAction(Command::AutoLayout)->isEnabled());
  QVERIFY(!canvas.view->commandAction(Command::ExportImage)->isEnabled());
  auto* hint = canvas.view->findChild<QWidget*>(QStringLiteral("topologyEmptyHint"));
  QVERIFY(hint && hint->isVisible());
  // Centred in the canvas.
  const QPoint offset = hint->geometry().center() - canvas.viewport()->geometry().center();
  QVERIFY(std::abs(offset.x()) <= 1 && std::abs(offset.y()) <= 1);
  QCOMPARE(canvas.view->missingRanksText(), QString());

  QPushButton* add = nullptr;
  for (QPushButton* button : hint->findChildren<QPushButton*>()) {
    if (button->text() == QStringLiteral("Add 6 GPUs"))
      add = button;
  }
  QVERIFY(add);
  QTest::mouseClick(add, Qt::LeftButton);
  QVERIFY(!canvas.view->emptyHintShown());
  QCOMPARE(canvas.topology().nodes.size(), std::size_t(6));
  QCOMPARE(canvas.topology().rankCount(), 6);
  QVERIFY(!layoutHasOverlap(canvas.topology(), {}, NodeItem::sizeFor, 20));
  QCOMPARE(canvas.undoCount(), 1);
  canvas.document.undoStack()->undo();
  QVERIFY(!canvas.document.topology());
  QVERIFY(canvas.view->emptyHintShown());
}

void TestTopologyView::autoLayoutIsOneUndoStepWithoutOverlap()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  // Crowd the GPUs onto one spot first so the layout has real work to do.
  Topology crowded = canvas.topology();
  for (TopologyNode& node : crowded.nodes)
    node.x = node.y = 0;
  canvas.document.undoStack()->push(
      new ChangeTopologyCommand(&canvas.document, crowded, QStringLiteral("crowd")));
  const int count = canvas.undoCount();
  canvas.view->commandAction(Command::AutoLayout)->trigger();

  const Topology& laidOut = canvas.topology();
  QCOMPARE(canvas.undoCount(), count + 1);
  QCOMPARE(canvas.document.undoStack()->undoText(), QStringLiteral("Auto layout"));
  QCOMPARE(laidOut.nodes.size(), std::size_t(9));
  QCOMPARE(laidOut.links, crowded.links);
  for (std::size_t i = 0; i < laidOut.nodes.size(); ++i) {
    QCOMPARE(laidOut.nodes[i].name, crowded.nodes[i].name);
    for (std::size_t j = i + 1; j < laidOut.nodes.size(); ++j) {
      QVERIFY2(!NodeItem::rectFor(laidOut.nodes[i]).intersects(NodeItem::rectFor(laidOut.nodes[j])),
               (laidOut.nodes[i].name + " overlaps " + laidOut.nodes[j].name).c_str());
    }
  }
  // The switch ends up on its own row, apart from every GPU row.
  const TopologyNode* nvswitch = canvas.named("NVSwitch");
  for (const TopologyNode& node : laidOut.nodes) {
    if (node.kind == NodeKind::Gpu)
      QVERIFY(std::abs(node.y - nvswitch->y) >= 54);
  }
  canvas.document.undoStack()->undo();
  QCOMPARE(canvas.topology(), crowded);
}

void TestTopologyView::selectionFollowsTheDocumentBothWays()
{
  Canvas canvas(8);
  canvas.view->loadPreset(QStringLiteral("dgx-h100"));
  TopologyScene* scene = canvas.view->topologyScene();
  const int gpu5 = canvas.named("GPU5")->id;
  canvas.click(canvas.at(gpu5));
  QCOMPARE(canvas.document.selection().nodes, std::set<int>{gpu5});
  QVERIFY(scene->nodeItem(gpu5)->isSelected());

  // Ctrl+click adds to the selection.
  const int gpu6 = canvas.named("GPU6")->id;
  QTest::mouseClick(canvas.viewport(), Qt::LeftButton, Qt::ControlModifier, canvas.at(gpu6));
  QCOMPARE(canvas.document.selection().nodes, (std::set<int>{gpu5, gpu6}));

  Selection selection;
  selection.links = {3};
  canvas.document.setSelection(selection);
  QVERIFY(scene->linkItem(3)->isSelected());
  QVERIFY(!scene->nodeItem(gpu5)->isSelected());
  QCOMPARE(scene->selectedLinkIds(), std::set<int>{3});

  // A rubber band over GPU0..GPU2 selects exactly them.
  const TopologyNode* g0 = canvas.named("GPU0");
  const TopologyNode* g2 = canvas.named("GPU2");
  const QPoint topLeft = canvas.view->mapFromScene(QPointF(g0->x - 70, g0->y - 55));
  const QPoint bottomRight = canvas.view->mapFromScene(QPointF(g2->x + 60, g2->y + 45));
  drag(canvas.viewport(), topLeft, bottomRight);
  QCOMPARE(canvas.document.selection().nodes,
           (std::set<int>{g0->id, canvas.named("GPU1")->id, g2->id}));
  QVERIFY(canvas.document.selection().links.empty());
}

QTEST_MAIN(TestTopologyView)
#include "tst_topologyview.moc"
