// Presets, routing, topology JSON and DOT export.

#include "io/dotwriter.h"
#include "io/topologyjson.h"
#include "model/routing.h"
#include "model/topologypresets.h"

#include "simtestutil.h"

#include <QTest>

using namespace cs;
using cs::test::pathNames;

namespace {

Topology preset(const char* name, const PresetOptions& options = {})
{
  std::string error;
  const std::optional<Topology> topology = makePresetTopology(name, options, &error);
  if (!topology)
    qFatal("preset %s: %s", name, error.c_str());
  return *topology;
}

std::vector<LinkKind> kindsOf(const Topology& topology, const Route& route)
{
  std::vector<LinkKind> kinds;
  for (const Hop& hop : route.hops)
    kinds.push_back(topology.link(hop.link)->kind);
  return kinds;
}

} // namespace

class TestTopology : public QObject
{
  Q_OBJECT

private slots:
  void presetShapes_data()
  {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("links");
    // Links: DGX H100/A100 one per GPU to the fabric; DGX-1 16 NVLink pairs + 2 per PCIe switch
    // pair + switch uplinks (4) + 1 CPU link; PCIe server 8 + 2 + 1 NIC; two nodes 2·(8 + 8
    // GPU-NIC) + 16 NIC-network; parametric counts from their definitions.
    QTest::newRow("dgx-h100") << "dgx-h100" << 8 << 8;
    QTest::newRow("dgx-a100") << "dgx-a100" << 8 << 8;
    QTest::newRow("dgx1-v100") << "dgx1-v100" << 8 << 16 + 8 + 4 + 1;
    QTest::newRow("pcie-8gpu") << "pcie-8gpu" << 8 << 8 + 2 + 1;
    QTest::newRow("2x-dgx-h100") << "2x-dgx-h100" << 16 << 2 * 16 + 16;
    QTest::newRow("ring-2") << "ring-2" << 2 << 1;
    QTest::newRow("ring-7") << "ring-7" << 7 << 7;
    QTest::newRow("fully-connected-5") << "fully-connected-5" << 5 << 10;
    QTest::newRow("torus-3x4") << "torus-3x4" << 12 << 24;
    QTest::newRow("torus-2x2") << "torus-2x2" << 4 << 4;
    QTest::newRow("torus-1x5") << "torus-1x5" << 5 << 5;
  }

  void presetShapes()
  {
    QFETCH(QString, name);
    QFETCH(int, ranks);
    QFETCH(int, links);
    const Topology topology = preset(qPrintable(name));
    QCOMPARE(topology.name, name.toStdString());
    QCOMPARE(topology.rankCount(), ranks);
    QCOMPARE(static_cast<int>(topology.links.size()), links);
    for (int r = 0; r < ranks; ++r)
      QVERIFY(topology.gpuNode(r));
  }

  void presetBandwidths()
  {
    const Topology h100 = preset("dgx-h100");
    for (const TopologyLink& link : h100.links)
      QCOMPARE(link.bandwidthGBps, 450.0);
    const Topology a100 = preset("dgx-a100");
    for (const TopologyLink& link : a100.links)
      QCOMPARE(link.bandwidthGBps, 300.0);
    // DGX-1V: every GPU has 6 NVLink 2 bricks of 25 GB/s.
    const Topology dgx1 = preset("dgx1-v100");
    for (int r = 0; r < 8; ++r) {
      double nvlink = 0;
      for (const TopologyLink& link : dgx1.links) {
        if (link.kind == LinkKind::NvLink &&
            (link.a == dgx1.gpuNode(r)->id || link.b == dgx1.gpuNode(r)->id))
          nvlink += link.bandwidthGBps;
      }
      QCOMPARE(nvlink, 6 * 25.0);
    }
    const Topology ring = preset("ring-4", {250.0, 0.5});
    for (const TopologyLink& link : ring.links) {
      QCOMPARE(link.bandwidthGBps, 250.0);
      QCOMPARE(link.latencyUs, 0.5);
    }
    const Topology defaults = preset("fully-connected-3");
    QCOMPARE(defaults.links.front().bandwidthGBps, 100.0);
    QCOMPARE(defaults.links.front().latencyUs, 2.0);
  }

  void presetsHavePositions()
  {
    for (const PresetInfo& info : topologyPresets()) {
      std::string name = info.name;
      if (name == "ring-N" || name == "fully-connected-N")
        name.replace(name.size() - 1, 1, "6");
      if (name == "torus-RxC")
        name = "torus-3x3";
      if (name.ends_with("-NxG"))
        name.replace(name.size() - 3, 3, "5x4");
      const Topology topology = preset(name.c_str());
      // No two nodes on the same spot, so the canvas shows each one.
      for (std::size_t i = 0; i < topology.nodes.size(); ++i) {
        for (std::size_t j = i + 1; j < topology.nodes.size(); ++j) {
          QVERIFY2(topology.nodes[i].x != topology.nodes[j].x ||
                       topology.nodes[i].y != topology.nodes[j].y,
                   qPrintable(QString::fromStdString(name + ": " + topology.nodes[i].name +
                                                     " and " + topology.nodes[j].name)));
        }
      }
    }
  }

  void badPresetNames_data()
  {
    QTest::addColumn<QString>("name");
    QTest::newRow("unknown") << "dgx-z9";
    QTest::newRow("ring-1") << "ring-1";
    QTest::newRow("ring-x") << "ring-x";
    QTest::newRow("ring-") << "ring-";
    QTest::newRow("torus-3") << "torus-3";
    QTest::newRow("torus-0x4") << "torus-0x4";
    QTest::newRow("huge") << "fully-connected-100000";
  }

  void badPresetNames()
  {
    QFETCH(QString, name);
    std::string error;
    QVERIFY(!makePresetTopology(name.toStdString(), {}, &error));
    QVERIFY(!error.empty());
  }

  void routeThroughNvswitch()
  {
    const Topology topology = preset("dgx-h100");
    const std::optional<Route> route =
        findRoute(topology, topology.gpuNode(0)->id, topology.gpuNode(5)->id);
    QVERIFY(route);
    QCOMPARE(pathNames(topology, *route, topology.gpuNode(0)->id),
             QStringList({"GPU0", "NVSwitch", "GPU5"}));
    QCOMPARE(route->bottleneckGBps, 450.0);
    QCOMPARE(route->latencyUs, 0.7);
  }

  void routePcieAcrossCpu()
  {
    const Topology topology = preset("pcie-8gpu");
    const std::optional<Route> across =
        findRoute(topology, topology.gpuNode(1)->id, topology.gpuNode(6)->id);
    QVERIFY(across);
    QCOMPARE(pathNames(topology, *across, topology.gpuNode(1)->id),
             QStringList({"GPU1", "PCIe0", "CPU0", "PCIe1", "GPU6"}));
    const std::optional<Route> same =
        findRoute(topology, topology.gpuNode(1)->id, topology.gpuNode(2)->id);
    QCOMPARE(pathNames(topology, *same, topology.gpuNode(1)->id),
             QStringList({"GPU1", "PCIe0", "GPU2"}));
  }

  void routeAcrossNodes()
  {
    const Topology topology = preset("2x-dgx-h100");
    const RouteTable table(topology);
    QCOMPARE(table.ranks(), 16);
    const Route* across = table.route(2, 13);
    QVERIFY(across);
    QCOMPARE(pathNames(topology, *across, topology.gpuNode(2)->id),
             QStringList({"GPU2", "NIC2", "NetworkSwitch", "NIC13", "GPU13"}));
    QCOMPARE(kindsOf(topology, *across),
             std::vector<LinkKind>(
                 {LinkKind::Pcie, LinkKind::Network, LinkKind::Network, LinkKind::Pcie}));
    QCOMPARE(across->bottleneckGBps, 50.0);
    // Inside a node the NVSwitch wins: two NVLink hops.
    const Route* inside = table.route(9, 15);
    QVERIFY(inside);
    QCOMPARE(kindsOf(topology, *inside),
             std::vector<LinkKind>({LinkKind::NvLink, LinkKind::NvLink}));
  }

  void routeDgx1()
  {
    const Topology topology = preset("dgx1-v100");
    const RouteTable table(topology);
    // GPU0-GPU1 is a double NVLink; GPU0-GPU5 has none and crosses PCIe and both CPUs.
    QCOMPARE(table.route(0, 1)->hops.size(), std::size_t(1));
    QCOMPARE(table.route(0, 1)->bottleneckGBps, 50.0);
    QCOMPARE(pathNames(topology, *table.route(0, 5), topology.gpuNode(0)->id),
             QStringList({"GPU0", "PCIe0", "CPU0", "CPU1", "PCIe2", "GPU5"}));
  }

  void gpusDoNotForward()
  {
    const Topology ring = preset("ring-4");
    QVERIFY(!findRoute(ring, ring.gpuNode(0)->id, ring.gpuNode(2)->id));
    QVERIFY(findRoute(ring, ring.gpuNode(0)->id, ring.gpuNode(3)->id));
    const RouteTable table(ring);
    QVERIFY(!table.route(1, 3));
    QVERIFY(table.route(1, 2));
    QVERIFY(!table.route(0, 9));
    QCOMPARE(table.route(2, 2)->hops.size(), std::size_t(0));
  }

  void jsonRoundTrip_data()
  {
    QTest::addColumn<QString>("name");
    for (const char* name : {"dgx-h100", "dgx-a100", "dgx1-v100", "pcie-8gpu", "2x-dgx-h100",
                             "ring-5", "fully-connected-4", "torus-3x4"})
      QTest::newRow(name) << name;
  }

  void jsonRoundTrip()
  {
    QFETCH(QString, name);
    Topology topology = preset(qPrintable(name));
    topology.links.front().duplex = false; // every field must survive
    topology.links.front().latencyUs = 0.123456789;
    const std::string text = writeTopologyJson(topology);
    const TopologyReadResult read = readTopologyJson(text);
    QVERIFY2(read.topology, read.diagnostics.empty() ? "" : read.diagnostics[0].message.c_str());
    QVERIFY(read.diagnostics.empty());
    QCOMPARE(*read.topology, topology);
    QCOMPARE(writeTopologyJson(*read.topology), text);
  }

  void jsonErrors_data()
  {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("where");
    const QString node = R"({"id": 0, "kind": "gpu", "rank": 0})";
    QTest::newRow("syntax") << "{\"nodes\": ["
                            << "topology.parse"
                            << "";
    QTest::newRow("not object") << "[1]"
                                << "topology.type"
                                << "$";
    QTest::newRow("no nodes") << "{}"
                              << "topology.missing-field"
                              << "$.nodes";
    QTest::newRow("bad kind") << R"({"nodes": [{"id": 0, "kind": "tpu"}]})"
                              << "topology.unknown-kind"
                              << "$.nodes[0].kind";
    QTest::newRow("duplicate rank")
        << "{\"nodes\": [" + node + R"(, {"id": 1, "kind": "gpu", "rank": 0}]})"
        << "topology.duplicate-rank"
        << "$.nodes[1].rank";
    QTest::newRow("duplicate id")
        << R"({"nodes": [{"id": 0, "kind": "gpu", "rank": 0}, {"id": 0, "kind": "cpu"}]})"
        << "topology.duplicate-id"
        << "$.nodes[1].id";
    QTest::newRow("missing node")
        << R"({"nodes": [{"id": 0, "kind": "gpu"}], "links": [{"id": 0, "a": 0, "b": 7,
              "kind": "nvlink", "bandwidth_GBps": 10}]})"
        << "topology.missing-node"
        << "$.links[0].b";
    QTest::newRow("zero bandwidth")
        << R"({"nodes": [{"id": 0, "kind": "gpu"}, {"id": 1, "kind": "cpu"}], "links": [{"id": 0,
              "a": 0, "b": 1, "kind": "pcie", "bandwidth_GBps": 0}]})"
        << "topology.bad-bandwidth"
        << "$.links[0].bandwidth_GBps";
    QTest::newRow("negative latency")
        << R"({"nodes": [{"id": 0, "kind": "gpu"}, {"id": 1, "kind": "cpu"}], "links": [{"id": 0,
              "a": 0, "b": 1, "kind": "pcie", "bandwidth_GBps": 5, "latency_us": -1}]})"
        << "topology.bad-latency"
        << "$.links[0].latency_us";
    QTest::newRow("string id") << R"({"nodes": [{"id": "0", "kind": "gpu"}]})"
                               << "topology.type"
                               << "$.nodes[0].id";
    QTest::newRow("newer version") << R"({"version": 2, "nodes": []})"
                                   << "topology.version"
                                   << "reads version 1";
  }

  void jsonErrors()
  {
    QFETCH(QString, text);
    QFETCH(QString, code);
    QFETCH(QString, where);
    const TopologyReadResult read = readTopologyJson(text.toStdString());
    QVERIFY(!read.topology);
    bool found = false;
    for (const Diagnostic& d : read.diagnostics) {
      if (d.code == code.toStdString() && QString::fromStdString(d.message).contains(where))
        found = true;
    }
    QVERIFY2(found, qPrintable(read.diagnostics.empty()
                                   ? QString("no diagnostic")
                                   : QString::fromStdString(read.diagnostics[0].code + ": " +
                                                            read.diagnostics[0].message)));
  }

  void dotExport()
  {
    Topology topology = preset("dgx-h100");
    topology.links[3].duplex = false;
    topology.nodes[0].name = "GPU \"zero\"";
    const QString dot = QString::fromStdString(writeTopologyDot(topology));
    QVERIFY(dot.startsWith("graph \"dgx-h100\" {\n"));
    QVERIFY(dot.endsWith("}\n"));
    QCOMPARE(dot.count(" -- "), 8);
    QVERIFY(dot.contains("n0 -- n8 [label=\"nvlink 450 GB/s\""));
    QVERIFY(dot.contains("n8 [label=\"NVSwitch\", shape=hexagon"));
    QVERIFY(dot.contains("label=\"GPU \\\"zero\\\"\\nrank 0\""));
    QCOMPARE(dot.count("style=dashed"), 1);
  }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
