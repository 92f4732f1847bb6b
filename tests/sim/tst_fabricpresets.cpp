// Multi-node cluster presets (fabricpresets.h): the names and their errors, the rail-optimised
// wiring (same-rail traffic crosses one leaf, other traffic the spines), the leaves' uplink
// bandwidth under oversubscription, the JSON round trip of network switches, and a ring
// simulated across nodes.

#include "catalogue/ringallreduce.h"
#include "io/topologyjson.h"
#include "model/fabricpresets.h"
#include "model/routing.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include "simtestutil.h"

#include <QTest>

#include <algorithm>

using namespace cs;
using cs::test::pathNames;

namespace {

Topology preset(const std::string& name)
{
  std::string error;
  const std::optional<Topology> topology = makePresetTopology(name, {}, &error);
  if (!topology)
    qFatal("preset %s: %s", name.c_str(), error.c_str());
  return *topology;
}

int countKind(const Topology& topology, NodeKind kind)
{
  return static_cast<int>(std::count_if(topology.nodes.begin(), topology.nodes.end(),
                                        [kind](const TopologyNode& n) { return n.kind == kind; }));
}

const TopologyNode* named(const Topology& topology, const std::string& name)
{
  for (const TopologyNode& node : topology.nodes) {
    if (node.name == name)
      return &node;
  }
  return nullptr;
}

QStringList rankPath(const Topology& topology, int from, int to)
{
  const std::optional<Route> route =
      findRoute(topology, topology.gpuNode(from)->id, topology.gpuNode(to)->id);
  return route ? pathNames(topology, *route, topology.gpuNode(from)->id) : QStringList();
}

} // namespace

class TestFabricPresets : public QObject
{
  Q_OBJECT

private slots:
  void namesParseAndPrintBack_data()
  {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("nics");
    QTest::newRow("h100 default") << "fabric-h100-16x8" << 128 << 128;
    QTest::newRow("a100, fewer NICs") << "fabric-a100-4x8-nics4" << 32 << 16;
    QTest::newRow("every suffix") << "fabric-h100-128x8-nics2-800g-os2" << 1024 << 256;
    QTest::newRow("one GPU per node") << "fabric-h100-2x1" << 2 << 2;
  }

  void namesParseAndPrintBack()
  {
    QFETCH(QString, name);
    QFETCH(int, ranks);
    QFETCH(int, nics);
    const Topology topology = preset(name.toStdString());
    QCOMPARE(QString::fromStdString(topology.name), name);
    QCOMPARE(topology.rankCount(), ranks);
    QCOMPARE(countKind(topology, NodeKind::Nic), nics);
    const std::optional<FabricOptions> options = parseFabricName(name.toStdString(), nullptr);
    QVERIFY(options);
    QCOMPARE(QString::fromStdString(fabricName(*options)), name);
  }

  void badNamesSayWhichPart_data()
  {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one node") << "fabric-h100-1x8"
                              << "between 2 and 128";
    QTest::newRow("too many nodes") << "fabric-h100-129x8"
                                    << "between 2 and 128";
    QTest::newRow("uneven NICs") << "fabric-h100-4x8-nics3"
                                 << "3 NICs cannot serve 8 GPUs";
    QTest::newRow("unknown GPU") << "fabric-v100-4x8"
                                 << "fabric-h100-NxG or fabric-a100-NxG";
    QTest::newRow("no shape") << "fabric-h100-8"
                              << "expected NxG";
    QTest::newRow("undersubscribed") << "fabric-h100-4x8-os0.5"
                                     << "oversubscription >= 1";
    QTest::newRow("unknown suffix") << "fabric-h100-4x8-fast"
                                    << "\"fast\" is not";
  }

  void badNamesSayWhichPart()
  {
    QFETCH(QString, name);
    QFETCH(QString, expected);
    std::string error;
    QVERIFY(!makePresetTopology(name.toStdString(), {}, &error));
    const QString message = QString::fromStdString(error);
    QVERIFY2(message.startsWith(name + ": "), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void sameRailCrossesOneLeafOtherRailsTheSpines()
  {
    const Topology topology = preset("fabric-h100-4x8");
    QCOMPARE(rankPath(topology, 0, 1), QStringList({"GPU0", "node0-NVSwitch", "GPU1"}));
    QCOMPARE(rankPath(topology, 3, 11),
             QStringList({"GPU3", "node0-NIC3", "rail3-leaf", "node1-NIC3", "GPU11"}));
    QCOMPARE(rankPath(topology, 3, 12), QStringList({"GPU3", "node0-NIC3", "rail3-leaf", "Spines",
                                                     "rail4-leaf", "node1-NIC4", "GPU12"}));
    const std::optional<Route> across =
        findRoute(topology, topology.gpuNode(3)->id, topology.gpuNode(11)->id);
    QCOMPARE(across->bottleneckGBps, 50.0); // a 400 Gb/s NIC
  }

  void largeClustersSplitRailsOverLeaves()
  {
    // 128 nodes: 4 leaves per rail of 32 nodes each; nodes under different leaves of the same
    // rail meet at the spines.
    const Topology topology = preset("fabric-h100-128x8-os2");
    QCOMPARE(topology.rankCount(), 1024);
    QCOMPARE(countKind(topology, NodeKind::NetworkSwitch), 8 * 4 + 1);
    QCOMPARE(rankPath(topology, 5, 31 * 8 + 5).size(), 5); // node 31: the first leaf still
    QCOMPARE(rankPath(topology, 5, 32 * 8 + 5),
             QStringList({"GPU5", "node0-NIC5", "rail5-leaf0", "Spines", "rail5-leaf1",
                          "node32-NIC5", "GPU261"}));
    // Each leaf's uplink carries its 32 NICs' bandwidth halved.
    const int spines = named(topology, "Spines")->id;
    const int leaf = named(topology, "rail5-leaf1")->id;
    const auto uplink =
        std::find_if(topology.links.begin(), topology.links.end(),
                     [&](const TopologyLink& link) { return link.a == leaf && link.b == spines; });
    QVERIFY(uplink != topology.links.end());
    QCOMPARE(uplink->bandwidthGBps, 32 * 50.0 / 2);
    QCOMPARE(uplink->kind, LinkKind::Network);
  }

  void sharedNicsServeNeighbouringGpus()
  {
    const Topology topology = preset("fabric-a100-2x8-nics4");
    QCOMPARE(rankPath(topology, 1, 9),
             QStringList({"GPU1", "node0-NIC0", "rail0-leaf", "node1-NIC0", "GPU9"}));
    QCOMPARE(rankPath(topology, 2, 10).at(1), QString("node0-NIC1"));
  }

  void oneRailOfOneLeafNeedsNoSpine()
  {
    const Topology topology = preset("fabric-h100-4x8-nics1");
    QCOMPARE(countKind(topology, NodeKind::NetworkSwitch), 1);
    QVERIFY(!named(topology, "Spines"));
  }

  void networkSwitchesSurviveJson()
  {
    const Topology topology = preset("fabric-h100-2x8");
    const TopologyReadResult back = readTopologyJson(writeTopologyJson(topology));
    QVERIFY(back.topology);
    QVERIFY(*back.topology == topology);
    QCOMPARE(countKind(*back.topology, NodeKind::NetworkSwitch), 9);
  }

  void aRouteFinderStoppingAtItsTargetsFindsTheFullSearchRoutes()
  {
    // RouteFinder stops each search once its targets are settled and reuses its work space;
    // RouteTable searches the whole fabric from every GPU. Asked in a changing order (near,
    // far, several at once), every route must be the same.
    const Topology topology = preset("fabric-h100-4x8");
    const RouteTable table(topology);
    RouteFinder finder(topology);
    int compared = 0;
    for (int from = 0; from < 32; ++from) {
      const std::vector<int> to = {(from + 1) % 32, (from + 8) % 32, (from + 17) % 32, from};
      std::vector<int> nodes;
      for (const int rank : to)
        nodes.push_back(topology.gpuNode(rank)->id);
      const std::vector<std::optional<Route>> routes =
          finder.routes(topology.gpuNode(from)->id, nodes);
      QCOMPARE(routes.size(), to.size());
      for (std::size_t i = 0; i + 1 < to.size(); ++i) {
        QVERIFY(routes[i] && table.route(from, to[i]));
        QVERIFY(*routes[i] == *table.route(from, to[i]));
        ++compared;
      }
      QVERIFY(routes.back() && routes.back()->hops.empty()); // to itself
    }
    QCOMPARE(compared, 96);
    QVERIFY(!finder.routes(-12345, {topology.gpuNode(0)->id}).front());
  }

  void aRingRunsAcrossNodes()
  {
    // 32 ranks on 4 nodes: every ring hop from rank 8n+7 to 8(n+1) leaves its node over the
    // network, so the ring is slower than the same ring inside one NVSwitch.
    const Program program = makeRingAllReduce({32, 1, Protocol::Simple});
    SimOptions options;
    options.bytes = 64 << 20;
    options.recordEvents = false;
    const SimResult across = simulateProgram(program, preset("fabric-h100-4x8"), options);
    QVERIFY(across.ok);
    QVERIFY(across.timeUs > 0);
    const Program eight = makeRingAllReduce({8, 1, Protocol::Simple});
    const SimResult inside = simulateProgram(eight, preset("dgx-h100"), options);
    QVERIFY(inside.ok);
    QVERIFY2(across.timeUs > inside.timeUs,
             qPrintable(QString("%1 vs %2").arg(across.timeUs).arg(inside.timeUs)));
  }
};

QTEST_GUILESS_MAIN(TestFabricPresets)
#include "tst_fabricpresets.moc"
