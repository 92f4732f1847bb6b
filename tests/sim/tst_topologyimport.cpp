// Importing NCCL topology dumps and `nvidia-smi topo -m` text (samples in tests/sim/data).

#include "io/nccltopologyreader_p.h"
#include "io/nvidiasmitopology_p.h"
#include "io/topologyloader.h"
#include "model/routing.h"

#include "simtestutil.h"
#include <QFile>

#include <QTest>

using namespace cs;
using cs::test::pathNames;

namespace {

std::string readData(const char* name)
{
  QFile file(QStringLiteral(CSTUDIO_TEST_DATA_DIR "/sim/data/") + name);
  if (!file.open(QIODevice::ReadOnly))
    qFatal("cannot open test data %s", name);
  return file.readAll().toStdString();
}

Topology imported(const TopologyReadResult& result)
{
  if (!result.topology) {
    QString text;
    for (const Diagnostic& d : result.diagnostics)
      text += QString::fromStdString(d.code + ": " + d.message + "\n");
    qFatal("import failed:\n%s", qPrintable(text));
  }
  return *result.topology;
}

int countKind(const Topology& topology, NodeKind kind)
{
  return static_cast<int>(std::count_if(topology.nodes.begin(), topology.nodes.end(),
                                        [kind](const TopologyNode& n) { return n.kind == kind; }));
}

const TopologyLink* linkBetween(const Topology& topology, int nodeA, int nodeB)
{
  for (const TopologyLink& link : topology.links) {
    if ((link.a == nodeA && link.b == nodeB) || (link.a == nodeB && link.b == nodeA))
      return &link;
  }
  return nullptr;
}

const TopologyNode* named(const Topology& topology, const std::string& name)
{
  for (const TopologyNode& node : topology.nodes) {
    if (node.name == name)
      return &node;
  }
  return nullptr;
}

} // namespace

class TestTopologyImport : public QObject
{
  Q_OBJECT

private slots:
  void ncclDumpWithNvswitch()
  {
    const std::string text = readData("nccl-topo-a100-nvswitch.xml");
    QCOMPARE(detectTopologyText(text), TopologyTextKind::NcclXml);
    const Topology topology = imported(readNcclTopologyXml(text));
    QCOMPARE(topology.rankCount(), 4);
    QCOMPARE(countKind(topology, NodeKind::Cpu), 2);
    QCOMPARE(countKind(topology, NodeKind::PcieSwitch), 2);
    QCOMPARE(countKind(topology, NodeKind::Nic), 2);
    QCOMPARE(countKind(topology, NodeKind::NvSwitch), 1);
    // 2 × (CPU-bridge, 2 GPUs, 1 NIC) + SMP + 4 GPU-NVSwitch ports.
    QCOMPARE(static_cast<int>(topology.links.size()), 13);
    const TopologyNode* fabric = named(topology, "NVSwitch");
    QVERIFY(fabric);
    for (int r = 0; r < 4; ++r) {
      // Six NVSwitch chips × 2 links × 25 GB/s (A100, sm 80).
      const TopologyLink* port = linkBetween(topology, topology.gpuNode(r)->id, fabric->id);
      QVERIFY(port);
      QCOMPARE(port->bandwidthGBps, 300.0);
    }
    // The NIC link is limited by its 200 Gb/s port, not its Gen4 x16 slot.
    const TopologyNode* nic = named(topology, "mlx5_1");
    QVERIFY(nic);
    QCOMPARE(topology.link(0)->kind, LinkKind::Pcie);
    bool found = false;
    for (const TopologyLink& link : topology.links) {
      if (link.a == nic->id || link.b == nic->id) {
        QCOMPARE(link.bandwidthGBps, 25.0);
        found = true;
      }
    }
    QVERIFY(found);
    const std::optional<Route> route =
        findRoute(topology, topology.gpuNode(0)->id, topology.gpuNode(3)->id);
    QCOMPARE(pathNames(topology, *route, topology.gpuNode(0)->id),
             QStringList({"GPU0", "NVSwitch", "GPU3"}));
  }

  void ncclDumpWithDirectNvlinks()
  {
    const Topology topology = imported(readNcclTopologyXml(readData("nccl-topo-v100-direct.xml")));
    QCOMPARE(topology.rankCount(), 3);
    QCOMPARE(static_cast<int>(topology.nodes.size()), 7);
    QCOMPARE(static_cast<int>(topology.links.size()), 8);
    // rank attributes win over dev: dev 1 hosts rank 0.
    QCOMPARE(topology.gpuNode(0)->name, std::string("GPU1"));
    const TopologyLink* pair =
        linkBetween(topology, topology.gpuNode(0)->id, topology.gpuNode(1)->id);
    QVERIFY(pair);
    QCOMPARE(pair->kind, LinkKind::NvLink);
    QCOMPARE(pair->bandwidthGBps, 50.0);
    QCOMPARE(linkBetween(topology, topology.gpuNode(1)->id, topology.gpuNode(2)->id)->bandwidthGBps,
             25.0);
    // 8 GT/s × 16 lanes with 128b/130b coding.
    const TopologyNode* bridge = named(topology, "PCIe 0000:15:00.0");
    QVERIFY(bridge);
    QVERIFY(qAbs(linkBetween(topology, bridge->id, topology.gpuNode(0)->id)->bandwidthGBps -
                 8.0 * 16 * 128 / 130 / 8) < 1e-9);
    QCOMPARE(linkBetween(topology, named(topology, "CPU0")->id, named(topology, "eth0")->id)
                 ->bandwidthGBps,
             1.25);
    const std::optional<Route> route =
        findRoute(topology, topology.gpuNode(0)->id, topology.gpuNode(2)->id);
    QCOMPARE(pathNames(topology, *route, topology.gpuNode(0)->id),
             QStringList({"GPU1", "PCIe 0000:15:00.0", "CPU0", "CPU1", "GPU2"}));
  }

  void ncclDumpErrors_data()
  {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("code");
    QTest::newRow("broken xml") << "<system><cpu>\n<pci busid=\"x\">"
                                << "topology.nccl-parse";
    QTest::newRow("wrong root") << "<algo/>"
                                << "topology.nccl-format";
    QTest::newRow("no gpu") << "<system><cpu numaid=\"0\"/></system>"
                            << "topology.nccl-no-gpu";
    QTest::newRow("duplicate rank")
        << "<system><cpu><pci busid=\"0000:01:00.0\"><gpu dev=\"0\" rank=\"0\"/></pci>"
           "<pci busid=\"0000:02:00.0\"><gpu dev=\"1\" rank=\"0\"/></pci></cpu></system>"
        << "topology.duplicate-rank";
  }

  void ncclDumpErrors()
  {
    QFETCH(QString, text);
    QFETCH(QString, code);
    const TopologyReadResult result = readNcclTopologyXml(text.toStdString());
    QVERIFY(!result.topology);
    QVERIFY(!result.diagnostics.empty());
    QCOMPARE(QString::fromStdString(result.diagnostics.front().code), code);
  }

  void nvidiaSmiNvswitch()
  {
    const std::string text = readData("nvidia-smi-h100-nvswitch.txt");
    QCOMPARE(detectTopologyText(text), TopologyTextKind::NvidiaSmi);
    const Topology topology = imported(readNvidiaSmiTopology(text));
    QCOMPARE(topology.rankCount(), 8);
    QCOMPARE(countKind(topology, NodeKind::NvSwitch), 1);
    QCOMPARE(countKind(topology, NodeKind::Nic), 4);
    QCOMPARE(countKind(topology, NodeKind::PcieSwitch), 4); // a NIC with its two GPUs each
    QCOMPARE(countKind(topology, NodeKind::Cpu), 2);        // NUMA affinity 0 and 1
    QCOMPARE(static_cast<int>(topology.links.size()), 8 + 4 * 4 + 1);
    const TopologyNode* fabric = named(topology, "NVSwitch");
    for (int r = 0; r < 8; ++r)
      QCOMPARE(linkBetween(topology, topology.gpuNode(r)->id, fabric->id)->bandwidthGBps, 450.0);
    QVERIFY(named(topology, "mlx5_3")); // names from the NIC legend
    const std::optional<Route> toNic =
        findRoute(topology, topology.gpuNode(5)->id, named(topology, "mlx5_2")->id);
    QCOMPARE(toNic->hops.size(), std::size_t(2));
    const std::optional<Route> farNic =
        findRoute(topology, topology.gpuNode(0)->id, named(topology, "mlx5_3")->id);
    QCOMPARE(pathNames(topology, *farNic, topology.gpuNode(0)->id).size(), 6); // via both CPUs
  }

  void nvidiaSmiHybridCubeMesh()
  {
    const Topology topology = imported(readNvidiaSmiTopology(readData("nvidia-smi-dgx1.txt")));
    QCOMPARE(topology.rankCount(), 8);
    QCOMPARE(countKind(topology, NodeKind::NvSwitch), 0);
    QCOMPARE(countKind(topology, NodeKind::Cpu), 2); // grouped by CPU affinity
    QCOMPARE(countKind(topology, NodeKind::PcieSwitch), 2);
    int nvlinks = 0;
    double perGpu[8] = {};
    for (const TopologyLink& link : topology.links) {
      if (link.kind != LinkKind::NvLink)
        continue;
      ++nvlinks;
      for (const int end : {link.a, link.b})
        perGpu[topology.node(end)->rank] += link.bandwidthGBps;
    }
    QCOMPARE(nvlinks, 16);
    for (const double total : perGpu)
      QCOMPARE(total, 150.0); // six 25 GB/s links per V100
    QCOMPARE(linkBetween(topology, topology.gpuNode(0)->id, topology.gpuNode(1)->id)->bandwidthGBps,
             50.0);
    QVERIFY(!linkBetween(topology, topology.gpuNode(0)->id, topology.gpuNode(5)->id));
    QVERIFY(findRoute(topology, topology.gpuNode(0)->id, topology.gpuNode(5)->id));
  }

  void nvidiaSmiErrors_data()
  {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("where");
    QTest::newRow("no matrix") << "No devices were found\n"
                               << "topology.smi-parse"
                               << "GPU0";
    QTest::newRow("short row") << "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\n"
                               << "topology.smi-row"
                               << "line 3";
    QTest::newRow("bad cell") << "\tGPU0\tGPU1\nGPU0\t X \tNVX\nGPU1\tNV4\t X \n"
                              << "topology.smi-cell"
                              << "line 2, column GPU1";
    QTest::newRow("missing row") << "\tGPU0\tGPU1\nGPU0\t X \tNV4\n"
                                 << "topology.smi-row"
                                 << "GPU1";
  }

  void nvidiaSmiErrors()
  {
    QFETCH(QString, text);
    QFETCH(QString, code);
    QFETCH(QString, where);
    const TopologyReadResult result = readNvidiaSmiTopology(text.toStdString());
    QVERIFY(!result.topology);
    QCOMPARE(QString::fromStdString(result.diagnostics.front().code), code);
    QVERIFY2(QString::fromStdString(result.diagnostics.front().message).contains(where),
             result.diagnostics.front().message.c_str());
  }

  void loaderPrefersPresetsThenFiles()
  {
    const TopologyReadResult preset = loadTopology("ring-3");
    QVERIFY(preset.topology);
    QCOMPARE(preset.topology->rankCount(), 3);
    const TopologyReadResult file =
        loadTopology(CSTUDIO_TEST_DATA_DIR "/sim/data/nvidia-smi-dgx1.txt");
    QVERIFY(file.topology);
    const TopologyReadResult missing = loadTopology("/nonexistent/topo.json");
    QVERIFY(!missing.topology);
    QCOMPARE(missing.diagnostics.front().code, std::string("topology.load"));
    QVERIFY(QString::fromStdString(missing.diagnostics.front().message)
                .contains("/nonexistent/topo.json"));
  }
};

QTEST_GUILESS_MAIN(TestTopologyImport)
#include "tst_topologyimport.moc"
