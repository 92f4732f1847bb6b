// The topology canvas grouped by machine (issue 18, item 4): a multi-node fabric draws a frame
// per machine, folds every machine into one box above 64 GPUs with one line per (machine,
// switch), and a double-click or View › Group Topology by Node folds and unfolds; selecting and
// editing work inside an unfolded machine. Expected counts come from the preset's topology
// (node names say which machine a device is in), not from the scene's own grouping.

#include "topology/linkitem.h"
#include "topology/machineitems.h"
#include "topology/nodeitem.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include "document/document.h"

#include "support/topologycanvas.h"

#include <QAction>
#include <QTest>

#include <map>
#include <memory>
#include <set>

using namespace cs;
using namespace cs::editor;

namespace {

/// A ring all-reduce over `ranks` with preset topology `preset`, on a shown canvas.
struct Canvas {
  Canvas(int ranks, const QString& preset)
  {
    view = test::showRingCanvas(document, ranks);
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QVERIFY(view->loadPreset(preset));
    view->zoomToFit();
  }

  TopologyScene* scene() const { return view->topologyScene(); }
  const Topology& topology() const { return *document.topology(); }
  int visibleNodes() const
  {
    int count = 0;
    for (const TopologyNode& node : topology().nodes)
      count += scene()->nodeItem(node.id)->isVisible() ? 1 : 0;
    return count;
  }
  int visibleLinks() const
  {
    int count = 0;
    for (const TopologyLink& link : topology().links)
      count += scene()->linkItem(link.id)->isVisible() ? 1 : 0;
    return count;
  }
  /// The machine of a device by its preset name ("node3-NIC0" -> 3; "GPU27" -> 27 / 8), or -1.
  int machineByName(const TopologyNode& node) const
  {
    const QString name = QString::fromStdString(node.name);
    if (node.kind == NodeKind::Gpu)
      return node.rank / 8;
    if (!name.startsWith(QStringLiteral("node")))
      return -1;
    return name.mid(4, name.indexOf('-') - 4).toInt();
  }
  int countKind(NodeKind kind) const
  {
    int count = 0;
    for (const TopologyNode& node : topology().nodes)
      count += node.kind == kind ? 1 : 0;
    return count;
  }

  Document document;
  std::unique_ptr<TopologyView> view;
};

} // namespace

class TestTopologyMachines : public QObject
{
  Q_OBJECT

private slots:
  void largeFabricFoldsEachMachineIntoOneBox();
  void groupActionUnfoldsAndFoldsEveryMachine();
  void doubleClickUnfoldsOneMachineThatStaysEditable();
  void smallTopologiesKeepTheirPicture();
};

void TestTopologyMachines::largeFabricFoldsEachMachineIntoOneBox()
{
  Canvas canvas(128, QStringLiteral("fabric-h100-16x8"));
  TopologyScene* scene = canvas.scene();
  QCOMPARE(scene->machineCount(), 16);
  QCOMPARE(scene->foldedMachineCount(), 16); // 128 GPUs: above the automatic threshold
  QVERIFY(canvas.view->groupByNodeAction()->isChecked());

  // Only the network switches and the links among them stay; every device is in a box.
  const int switches = canvas.countKind(NodeKind::NetworkSwitch);
  QCOMPARE(canvas.visibleNodes(), switches);
  int switchLinks = 0;
  std::set<std::pair<int, int>> machineSwitchPairs;
  int machineSwitchLinks = 0;
  for (const TopologyLink& link : canvas.topology().links) {
    const TopologyNode* a = canvas.topology().node(link.a);
    const TopologyNode* b = canvas.topology().node(link.b);
    const bool switchA = a->kind == NodeKind::NetworkSwitch;
    const bool switchB = b->kind == NodeKind::NetworkSwitch;
    switchLinks += switchA && switchB ? 1 : 0;
    if (switchA != switchB) {
      machineSwitchPairs.emplace(canvas.machineByName(switchA ? *b : *a), switchA ? a->id : b->id);
      ++machineSwitchLinks;
    }
  }
  QCOMPARE(canvas.visibleLinks(), switchLinks);
  QCOMPARE(scene->bundles().size(), machineSwitchPairs.size());
  int bundled = 0;
  for (const BundleItem* bundle : scene->bundles())
    bundled += bundle->links();
  QCOMPARE(bundled, machineSwitchLinks);
  // Rail-optimised: each NIC has its own leaf, so each bundle holds one NIC's link.
  const TopologyNode* nic = nullptr;
  for (const TopologyNode& node : canvas.topology().nodes)
    nic = !nic && node.kind == NodeKind::Nic ? &node : nic;
  QVERIFY(nic);
  double nicBandwidth = 0;
  for (const TopologyLink& link : canvas.topology().links) {
    if ((link.a == nic->id || link.b == nic->id) && link.kind == LinkKind::Network)
      nicBandwidth = link.bandwidthGBps;
  }
  QCOMPARE(scene->bundles().front()->bandwidthGBps(), nicBandwidth);
  QVERIFY(scene->bundles().front()->text().startsWith(QStringLiteral("1 Network link · ")));

  // Machines are numbered as the timeline numbers them: node 3 holds ranks 24-31.
  QCOMPARE(scene->machineItem(3)->title(), QStringLiteral("node 3 · 8 GPUs · 8 NICs"));
  QVERIFY(scene->machineItem(3)->folded());
  QCOMPARE(scene->machineOfNode(canvas.topology().gpuNode(27)->id), 3);
}

void TestTopologyMachines::groupActionUnfoldsAndFoldsEveryMachine()
{
  Canvas canvas(128, QStringLiteral("fabric-h100-16x8"));
  TopologyScene* scene = canvas.scene();
  QAction* group = canvas.view->groupByNodeAction();
  group->trigger();
  QVERIFY(!group->isChecked());
  QCOMPARE(scene->foldedMachineCount(), 0);
  QCOMPARE(canvas.visibleNodes(), static_cast<int>(canvas.topology().nodes.size()));
  QCOMPARE(canvas.visibleLinks(), static_cast<int>(canvas.topology().links.size()));
  QVERIFY(scene->bundles().empty());
  QCOMPARE(scene->machineCount(), 16); // the frames stay

  group->trigger();
  QVERIFY(group->isChecked());
  QCOMPARE(scene->foldedMachineCount(), 16);
  QCOMPARE(canvas.visibleNodes(), canvas.countKind(NodeKind::NetworkSwitch));
}

void TestTopologyMachines::doubleClickUnfoldsOneMachineThatStaysEditable()
{
  Canvas canvas(128, QStringLiteral("fabric-h100-16x8"));
  TopologyScene* scene = canvas.scene();
  const std::size_t foldedBundles = scene->bundles().size();
  const QPoint box = canvas.view->mapFromScene(scene->machineItem(3)->boxRect().center());
  QTest::mouseDClick(canvas.view->viewport(), Qt::LeftButton, {}, box);
  QVERIFY(!scene->machineFolded(3));
  QCOMPARE(scene->foldedMachineCount(), 15);

  // Node 3's devices and links are back; its bundles are its own links again.
  int devices = 0;
  int ownLinks = 0;
  for (const TopologyNode& node : canvas.topology().nodes)
    devices += canvas.machineByName(node) == 3 ? 1 : 0;
  for (const TopologyLink& link : canvas.topology().links) {
    ownLinks += canvas.machineByName(*canvas.topology().node(link.a)) == 3 ||
                        canvas.machineByName(*canvas.topology().node(link.b)) == 3
                    ? 1
                    : 0;
  }
  const int switches = canvas.countKind(NodeKind::NetworkSwitch);
  QCOMPARE(canvas.visibleNodes(), switches + devices);
  QVERIFY(scene->bundles().size() < foldedBundles);
  QCOMPARE(scene->bundles().size(), foldedBundles / 16 * 15);
  QVERIFY(canvas.visibleLinks() > ownLinks);

  // A click selects a GPU of the unfolded machine; Delete removes it as one undo step.
  const TopologyNode* gpu = canvas.topology().gpuNode(27);
  const int gpuId = gpu->id;
  canvas.view->setZoom(1);
  canvas.view->centerOn(gpu->x, gpu->y);
  QTest::mouseClick(canvas.view->viewport(), Qt::LeftButton, {},
                    canvas.view->mapFromScene(QPointF(gpu->x, gpu->y)));
  QCOMPARE(canvas.document.selection().nodes, std::set<int>{gpuId});
  const double x = gpu->x;
  QTest::keyClick(canvas.view.get(), Qt::Key_Right);
  QVERIFY(canvas.topology().node(gpuId)->x > x);
  QVERIFY(!scene->machineFolded(3));
  QVERIFY(scene->machineItem(3)->frameRect().contains(
      NodeItem::rectFor(*canvas.topology().node(gpuId))));
  canvas.view->deleteSelection();
  QVERIFY(!canvas.topology().node(gpuId));
  // Its NIC served only this GPU: joined to nothing else in the machine, it leaves it.
  QCOMPARE(scene->machineItem(3)->title(), QStringLiteral("node 3 · 7 GPUs · 7 NICs"));
  QVERIFY(!scene->machineFolded(3)); // the edit keeps the machines as they were
  QCOMPARE(scene->foldedMachineCount(), 15);

  // Double-clicking the frame's title folds it again.
  canvas.view->zoomToFit();
  const QRectF title = scene->machineItem(3)->titleRect();
  QVERIFY(title.bottom() > scene->machineItem(3)->frameRect().top());
  QTest::mouseDClick(canvas.view->viewport(), Qt::LeftButton, {},
                     canvas.view->mapFromScene(title.center()));
  QVERIFY(scene->machineFolded(3));
}

void TestTopologyMachines::smallTopologiesKeepTheirPicture()
{
  // One machine: no frame, nothing folded.
  Canvas dgx(8, QStringLiteral("dgx-h100"));
  QCOMPARE(dgx.scene()->machineCount(), 0);
  QVERIFY(!dgx.view->groupByNodeAction()->isEnabled());
  QCOMPARE(dgx.visibleNodes(), static_cast<int>(dgx.topology().nodes.size()));

  // Two machines, 16 GPUs: framed, not folded, until asked.
  Canvas fabric(16, QStringLiteral("fabric-h100-2x8"));
  TopologyScene* scene = fabric.scene();
  QCOMPARE(scene->machineCount(), 2);
  QCOMPARE(scene->foldedMachineCount(), 0);
  QVERIFY(fabric.view->groupByNodeAction()->isEnabled());
  QVERIFY(!fabric.view->groupByNodeAction()->isChecked());
  QCOMPARE(fabric.visibleLinks(), static_cast<int>(fabric.topology().links.size()));
  // Each frame holds its machine's devices.
  for (const TopologyNode& node : fabric.topology().nodes) {
    const int machine = fabric.machineByName(node);
    if (machine >= 0)
      QVERIFY(scene->machineItem(machine)->frameRect().contains(NodeItem::rectFor(node)));
  }
  fabric.view->groupByNodeAction()->trigger();
  QCOMPARE(scene->foldedMachineCount(), 2);
  QCOMPARE(fabric.visibleNodes(), fabric.countKind(NodeKind::NetworkSwitch));
}

QTEST_MAIN(TestTopologyMachines)
#include "tst_topologymachines.moc"
