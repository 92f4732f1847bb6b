// The canvas's edits and layouts without a widget: the default link between two kinds, the
// naming of new nodes and ranks, the rank lists people read, the preset sizes, and that every
// layout (built-in and Graphviz) keeps node glyphs apart on every preset shape.

#include "topology/nodeitem.h"
#include "topology/topologyedits.h"
#include "topology/topologylayout.h"

#include "model/topologypresets.h"

#include <QTest>

using namespace cs;
using namespace cs::editor;

class TestTopologyEdits : public QObject
{
  Q_OBJECT

private slots:
  void defaultLinkKinds_data();
  void defaultLinkKinds();
  void newNodesTakeTheFirstFreeRankAndName();
  void removingANodeRemovesItsLinks();
  void formatRankList_data();
  void formatRankList();
  void sizedPresetNames_data();
  void sizedPresetNames();
  void layoutsKeepNodesApart_data();
  void layoutsKeepNodesApart();
};

void TestTopologyEdits::defaultLinkKinds_data()
{
  QTest::addColumn<NodeKind>("a");
  QTest::addColumn<NodeKind>("b");
  QTest::addColumn<LinkKind>("kind");
  QTest::addColumn<double>("bandwidth");
  QTest::addColumn<double>("latency");
  QTest::newRow("gpu-gpu") << NodeKind::Gpu << NodeKind::Gpu << LinkKind::NvLink << 25.0 << 0.35;
  QTest::newRow("gpu-nvswitch") << NodeKind::Gpu << NodeKind::NvSwitch << LinkKind::NvLink << 450.0
                                << 0.35;
  QTest::newRow("nvswitch-gpu") << NodeKind::NvSwitch << NodeKind::Gpu << LinkKind::NvLink << 450.0
                                << 0.35;
  QTest::newRow("gpu-pcie") << NodeKind::Gpu << NodeKind::PcieSwitch << LinkKind::Pcie << 32.0
                            << 0.5;
  QTest::newRow("pcie-cpu") << NodeKind::PcieSwitch << NodeKind::Cpu << LinkKind::Pcie << 32.0
                            << 0.5;
  QTest::newRow("cpu-cpu") << NodeKind::Cpu << NodeKind::Cpu << LinkKind::Smp << 40.0 << 1.0;
  QTest::newRow("gpu-nic") << NodeKind::Gpu << NodeKind::Nic << LinkKind::Pcie << 64.0 << 0.5;
  QTest::newRow("nic-cpu") << NodeKind::Nic << NodeKind::Cpu << LinkKind::Pcie << 64.0 << 0.5;
  QTest::newRow("nic-nic") << NodeKind::Nic << NodeKind::Nic << LinkKind::Network << 50.0 << 1.5;
  QTest::newRow("nic-switch") << NodeKind::Nic << NodeKind::PcieSwitch << LinkKind::Network << 50.0
                              << 1.5;
  QTest::newRow("nic-network switch")
      << NodeKind::Nic << NodeKind::NetworkSwitch << LinkKind::Network << 50.0 << 1.5;
  QTest::newRow("leaf-spine") << NodeKind::NetworkSwitch << NodeKind::NetworkSwitch
                              << LinkKind::Network << 50.0 << 1.5;
}

void TestTopologyEdits::defaultLinkKinds()
{
  QFETCH(NodeKind, a);
  QFETCH(NodeKind, b);
  QFETCH(LinkKind, kind);
  QFETCH(double, bandwidth);
  QFETCH(double, latency);
  const TopologyLink link = defaultLink(a, b);
  QCOMPARE(link.kind, kind);
  QCOMPARE(link.bandwidthGBps, bandwidth);
  QCOMPARE(link.latencyUs, latency);
  QVERIFY(link.duplex);
}

void TestTopologyEdits::formatRankList_data()
{
  QTest::addColumn<std::vector<int>>("ranks");
  QTest::addColumn<QString>("text");
  QTest::newRow("none") << std::vector<int>{} << "";
  QTest::newRow("one") << std::vector<int>{3} << "3";
  QTest::newRow("pair") << std::vector<int>{0, 1} << "0, 1";
  QTest::newRow("range") << std::vector<int>{4, 5, 6, 7} << "4\u20137";
  QTest::newRow("mixed") << std::vector<int>{1, 3, 4, 5, 6, 9} << "1, 3\u20136, 9";
}

void TestTopologyEdits::formatRankList()
{
  QFETCH(std::vector<int>, ranks);
  QFETCH(QString, text);
  QCOMPARE(QString::fromStdString(cs::editor::formatRankList(ranks)), text);
}

void TestTopologyEdits::layoutsKeepNodesApart_data()
{
  QTest::addColumn<QString>("layout");
  QTest::addColumn<QString>("preset");
  QStringList layouts{QStringLiteral("built-in")};
  if (makeGraphvizLayout())
    layouts.push_back(QStringLiteral("Graphviz"));
  for (const QString& layout : layouts) {
    for (const char* preset : {"dgx-h100", "dgx1-v100", "pcie-8gpu", "2x-dgx-h100", "ring-8",
                               "fully-connected-6", "torus-4x4", "ring-40"}) {
      QTest::addRow("%s %s", qPrintable(layout), preset) << layout << QString::fromLatin1(preset);
    }
  }
}

void TestTopologyEdits::layoutsKeepNodesApart()
{
  QFETCH(QString, layout);
  QFETCH(QString, preset);
  const Topology topology = *makePresetTopology(preset.toStdString());
  const std::unique_ptr<TopologyLayout> strategy =
      layout == QStringLiteral("Graphviz") ? makeGraphvizLayout() : makeBuiltinLayout();
  QCOMPARE(strategy->name(), layout);
  QString error;
  const std::optional<NodePositions> positions =
      strategy->layout(topology, NodeItem::sizeFor, &error);
  QVERIFY2(positions, qPrintable(error));
  QCOMPARE(positions->size(), topology.nodes.size());
  for (const TopologyNode& node : topology.nodes)
    QVERIFY(positions->contains(node.id));
  QVERIFY(!layoutHasOverlap(topology, *positions, NodeItem::sizeFor, 2));
}

void TestTopologyEdits::newNodesTakeTheFirstFreeRankAndName()
{
  Topology topology;
  QCOMPARE(addNode(topology, NodeKind::Gpu, 10.4, 20.6), 0);
  QCOMPARE(addNode(topology, NodeKind::Gpu, 0, 0), 1);
  QCOMPARE(addNode(topology, NodeKind::Gpu, 0, 0), 2);
  QCOMPARE(topology.nodes[0].x, 10.0);
  QCOMPARE(topology.nodes[0].y, 21.0);
  // Rank 1 freed: the next GPU takes it, not rank 3.
  removeNodesAndLinks(topology, {1}, {});
  const int id = addNode(topology, NodeKind::Gpu, 0, 0);
  QCOMPARE(id, 3);
  QCOMPARE(topology.node(id)->rank, 1);
  QCOMPARE(topology.node(id)->name, std::string("GPU1"));
  QCOMPARE(topology.node(addNode(topology, NodeKind::NvSwitch, 0, 0))->name,
           std::string("NVSwitch0"));
  QCOMPARE(topology.node(addNode(topology, NodeKind::NvSwitch, 0, 0))->name,
           std::string("NVSwitch1"));
  const int nic = addNode(topology, NodeKind::Nic, 0, 0);
  QCOMPARE(topology.node(nic)->name, std::string("NIC0"));
  QCOMPARE(topology.node(nic)->rank, -1);
  QCOMPARE(nextFreeRank(topology), 3);
}

void TestTopologyEdits::removingANodeRemovesItsLinks()
{
  Topology topology = *makePresetTopology("ring-4");
  QCOMPARE(linkBetween(topology, 1, 2), 1);
  QCOMPARE(linkBetween(topology, 2, 1), 1);
  QCOMPARE(addLink(topology, 2, 1), -1);  // already linked
  QCOMPARE(addLink(topology, 2, 2), -1);  // itself
  QCOMPARE(addLink(topology, 2, 99), -1); // no such node
  QCOMPARE(addLink(topology, 0, 2), 4);
  removeNodesAndLinks(topology, {2}, {0});
  QCOMPARE(topology.nodes.size(), std::size_t(3));
  std::vector<int> left;
  for (const TopologyLink& link : topology.links)
    left.push_back(link.id);
  // Only 3-0 is left: 0-1 was removed by id, 1-2, 2-3 and 0-2 went with GPU2.
  QCOMPARE(left, std::vector<int>({3}));
}

void TestTopologyEdits::sizedPresetNames_data()
{
  QTest::addColumn<QString>("pattern");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<QString>("name");
  QTest::newRow("fixed") << "dgx-h100" << 8 << "dgx-h100";
  QTest::newRow("ring") << "ring-N" << 8 << "ring-8";
  QTest::newRow("full") << "fully-connected-N" << 6 << "fully-connected-6";
  QTest::newRow("torus 8") << "torus-RxC" << 8 << "torus-2x4";
  QTest::newRow("torus 16") << "torus-RxC" << 16 << "torus-4x4";
  QTest::newRow("torus prime") << "torus-RxC" << 7 << "torus-1x7";
  QTest::newRow("one rank") << "ring-N" << 1 << "ring-2";
  QTest::newRow("fabric of DGX nodes") << "fabric-h100-NxG" << 1024 << "fabric-h100-128x8";
  QTest::newRow("fabric of 4-GPU nodes") << "fabric-a100-NxG" << 12 << "fabric-a100-3x4";
  QTest::newRow("fabric of 16-GPU nodes") << "fabric-h100-NxG" << 2048 << "fabric-h100-128x16";
}

void TestTopologyEdits::sizedPresetNames()
{
  QFETCH(QString, pattern);
  QFETCH(int, ranks);
  QFETCH(QString, name);
  const std::string sized = sizedPresetName(pattern.toStdString(), ranks);
  QCOMPARE(QString::fromStdString(sized), name);
  QVERIFY(makePresetTopology(sized));
}

QTEST_MAIN(TestTopologyEdits)
#include "tst_topologyedits.moc"
