// The simulator against closed forms, max-min fairness, contention and failure modes.

#include "simtestutil.h"

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "sim/fairshare_p.h"
#include "sim/simulator.h"

#include <QTest>

using namespace cs;
using namespace cs::test;

namespace {

Topology preset(const std::string& name, double bandwidth = 100, double latency = 2)
{
  return *makePresetTopology(name, {bandwidth, latency});
}

/// Protocol effects off: the closed forms are pure alpha-beta.
SimOptions pureOptions(std::int64_t bytes)
{
  SimOptions options;
  options.bytes = bytes;
  options.protocol = ProtocolParams{1.0, 0.0, 0, {}, {}};
  return options;
}

QString describe(const SimResult& result)
{
  QString text;
  for (const Diagnostic& d : result.diagnostics)
    text += QString::fromStdString(d.code + ": " + d.message + "\n");
  return text;
}

bool within(double value, double expected, double relative)
{
  return std::abs(value - expected) <= relative * std::abs(expected);
}

/// One message of `bytes` from rank `from` to rank `to` on its own channel per sender.
void addTransfer(Program& program, int from, int to, int channel)
{
  addStep(addThreadblock(program, from, to, -1, channel), OpType::Send, 0);
  addStep(addThreadblock(program, to, -1, from, channel), OpType::Recv, 0);
}

} // namespace

class TestSimulator : public QObject
{
  Q_OBJECT

private slots:
  void maxMinThreeFlowsTwoLinks()
  {
    // Link 0 (10) carries A and B, link 1 (4) carries B and C: link 1 is the bottleneck of B
    // and C (2 each); A takes what B leaves on link 0.
    const std::vector<double> rates = maxMinFairShares({10, 4}, {{0}, {0, 1}, {1}});
    QCOMPARE(rates, std::vector<double>({8, 2, 2}));
    // Equal links of 6: each carries two flows, 3 each, and B fits both.
    QCOMPARE(maxMinFairShares({6, 6}, {{0}, {0, 1}, {1}}), std::vector<double>({3, 3, 3}));
    // A flow crossing nothing is not limited.
    const std::vector<double> free = maxMinFairShares({5}, {{}, {0}});
    QVERIFY(std::isinf(free[0]));
    QCOMPARE(free[1], 5.0);
  }

  void flowNetworkRebalances()
  {
    FlowNetwork network({10, 4});
    const int a = network.add({0}, 80, 0); // alone on link 0: 10/µs, done at 8
    QCOMPARE(network.nextCompletion(), 8.0);
    // From t=2 (A has 60 left) B is limited by link 1 to 4/µs and A takes the other 6.
    const int b = network.add({0, 1}, 8, 2);
    QCOMPARE(network.load(0), 10.0);
    QCOMPARE(network.load(1), 4.0);
    QCOMPARE(network.nextCompletion(), 4.0); // B: 8 bytes at 4/µs
    QCOMPARE(network.popCompletion(4.0), b);
    // A ran at 6/µs for 2 µs: 48 left at t=4, back to 10/µs: done at 8.8.
    QVERIFY(within(network.nextCompletion(), 8.8, 1e-12));
    QCOMPARE(network.popCompletion(network.nextCompletion()), a);
    QCOMPARE(network.activeFlows(), 0);
    QVERIFY(std::isinf(network.nextCompletion()));
  }

  void ringAllReduceClosedForm_data()
  {
    QTest::addColumn<QString>("topology");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<double>("latency");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("ring-4") << "ring-4" << 4 << 100.0 << 2.0 << qint64(64 << 20);
    QTest::newRow("ring-8 small") << "ring-8" << 8 << 100.0 << 2.0 << qint64(8 << 10);
    QTest::newRow("ring-8") << "ring-8" << 8 << 50.0 << 5.0 << qint64(1 << 30);
    QTest::newRow("fully-connected-4")
        << "fully-connected-4" << 4 << 100.0 << 2.0 << qint64(64 << 20);
    QTest::newRow("fully-connected-8")
        << "fully-connected-8" << 8 << 300.0 << 0.7 << qint64(256 << 20);
  }

  void ringAllReduceClosedForm()
  {
    QFETCH(QString, topology);
    QFETCH(int, ranks);
    QFETCH(double, bandwidth);
    QFETCH(double, latency);
    QFETCH(qint64, bytes);
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    const SimResult result = simulateProgram(
        program, preset(topology.toStdString(), bandwidth, latency), pureOptions(bytes));
    QVERIFY2(result.ok, qPrintable(describe(result)));
    // 2(N-1) hops one after another, each α + S/(N·β); β in bytes per µs.
    const double n = ranks;
    const double expected = 2 * (n - 1) * (latency + bytes / (n * bandwidth * 1e3));
    QVERIFY2(within(result.timeUs, expected, 0.01),
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(expected)));
    QVERIFY(within(result.algbwGBps, bytes / (result.timeUs * 1e3), 1e-12));
    QVERIFY(within(result.busbwGBps, result.algbwGBps * 2 * (n - 1) / n, 1e-12));
  }

  void ringSlicesRunInOrder()
  {
    // The runtime replays a threadblock's whole step list per slice, forwarding each piece as
    // it arrives: the links stay busy through a slice (α is shorter than a piece's time on the
    // wire), and only between slices does a rank's link wait, one α, for the last receive of the
    // slice before it sends the next: 2(N-1)·S/(Nβ) + slices·α.
    const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
    const std::int64_t bytes = 256 << 20;
    const std::int64_t slice = 1 << 20;
    SimOptions options = pureOptions(bytes);
    options.protocol->sliceBytes = slice;
    const SimResult result = simulateProgram(program, preset("ring-8", 100, 2), options);
    QVERIFY2(result.ok, qPrintable(describe(result)));
    QCOMPARE(result.slices, 32);
    const double expected = 14 * (bytes / 8) / 100e3 + 32 * 2;
    QVERIFY2(within(result.timeUs, expected, 0.01),
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(expected)));
    QCOMPARE(static_cast<int>(result.trace.events.size()), 8 * 15 * 32);
  }

  void channelsOverlap()
  {
    // Two rings on two channels split the chunks between independent threadblocks on the same
    // links: each ring moves half the bytes at half the bandwidth, so the time matches one ring.
    const std::int64_t bytes = 64 << 20;
    const Topology ring = preset("ring-4", 100, 2);
    const SimResult one =
        simulateProgram(makeRingAllReduce({4, 1, Protocol::Simple}), ring, pureOptions(bytes));
    const SimResult two =
        simulateProgram(makeRingAllReduce({4, 2, Protocol::Simple}), ring, pureOptions(bytes));
    QVERIFY(one.ok && two.ok);
    QVERIFY(within(two.timeUs, one.timeUs, 0.01));
  }

  void directAllToAllClosedForm()
  {
    // Every rank sends one chunk to every other rank at once, each pair on its own link.
    const int n = 6;
    Program program = emptyProgram(n, n, Collective::AllToAll);
    for (int from = 0; from < n; ++from) {
      for (int to = 0; to < n; ++to) {
        if (from != to)
          addTransfer(program, from, to, 0);
      }
    }
    const std::int64_t bytes = 6 << 20;
    const SimResult result =
        simulateProgram(program, preset("fully-connected-6", 100, 2), pureOptions(bytes));
    QVERIFY2(result.ok, qPrintable(describe(result)));
    const double expected = 2 + (bytes / n) / 100e3;
    QVERIFY2(within(result.timeUs, expected, 0.01),
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(expected)));
    QVERIFY(within(result.busbwGBps, result.algbwGBps * (n - 1.0) / n, 1e-12));
    // Every directed pair carried exactly one chunk.
    for (const LinkUsage& usage : result.trace.links) {
      QCOMPARE(usage.bytesAtoB, bytes / n);
      QCOMPARE(usage.bytesBtoA, bytes / n);
    }
  }

  void sharedLinkHalvesBandwidth()
  {
    // Ranks 0 and 1 both send to rank 2 through one switch: its port to rank 2 is shared.
    const Topology star = starTopology(3, 100, 0.01);
    Program one = emptyProgram(3, 1);
    addTransfer(one, 0, 2, 0);
    Program two = emptyProgram(3, 1);
    addTransfer(two, 0, 2, 0);
    addTransfer(two, 1, 2, 0);
    const std::int64_t bytes = 512 << 20;
    const SimResult single = simulateProgram(one, star, pureOptions(bytes));
    const SimResult shared = simulateProgram(two, star, pureOptions(bytes));
    QVERIFY2(single.ok && shared.ok, qPrintable(describe(single) + describe(shared)));
    QVERIFY(within(shared.timeUs / single.timeUs, 2.0, 0.01));
    // Opposite directions of a duplex link do not share; of a half-duplex link they do.
    Program opposite = emptyProgram(2, 1);
    addTransfer(opposite, 0, 1, 0);
    addTransfer(opposite, 1, 0, 0);
    Program alone = emptyProgram(2, 1);
    addTransfer(alone, 0, 1, 0);
    const Topology duplex = starTopology(2, 100, 0.01, true);
    const Topology half = starTopology(2, 100, 0.01, false);
    const double base = simulateProgram(alone, duplex, pureOptions(bytes)).timeUs;
    QVERIFY(within(simulateProgram(opposite, duplex, pureOptions(bytes)).timeUs, base, 1e-6));
    QVERIFY(within(simulateProgram(opposite, half, pureOptions(bytes)).timeUs, 2 * base, 0.01));
  }

  void protocolEfficiencyAndLatency()
  {
    Program program = emptyProgram(2, 1);
    addTransfer(program, 0, 1, 0);
    const Topology ring = preset("ring-2", 100, 1);
    SimOptions options = pureOptions(100'000'000);
    options.protocol = ProtocolParams{0.5, 3, 0, {}, {}};
    // bytes / (efficiency · β) + link latency: the protocol's fixed cost per hop overlaps a
    // piece that streams for longer than it.
    const double expected = 100e6 / (0.5 * 100e3) + 1;
    QVERIFY(within(simulateProgram(program, ring, options).timeUs, expected, 1e-9));
    // A small message: both pieces (500 bytes, 0.01 µs each) arrive at 3 µs + 1 µs.
    options.bytes = 1000;
    QVERIFY(within(simulateProgram(program, ring, options).timeUs, 3 + 0.01 + 1, 1e-9));
    const ProtocolParams ll = defaultProtocolParams(Protocol::LL);
    QCOMPARE(ll.efficiency, 0.5);
    QCOMPARE(defaultProtocolParams(Protocol::LL128).efficiency, 120.0 / 128.0);
    QCOMPARE(defaultProtocolParams(Protocol::Simple).sliceBytes, std::int64_t(2 << 20));
  }

  void hopLatencyByLinkType()
  {
    // One small message over a two-link route (GPU - switch - GPU) with link latency 0: it
    // arrives the protocol's per-hop latency of the route's slowest link type after it left.
    Program program = emptyProgram(2, 1);
    addTransfer(program, 0, 1, 0);
    SimOptions options = pureOptions(1000);
    options.protocol = ProtocolParams{1.0, 3.4, 0, 5.7, 9.6};
    const double streaming = 1000 / (100e3 * 2); // two 500-byte pieces at 100 GB/s
    const auto timeWith = [&](LinkKind first, LinkKind second) {
      Topology topology = starTopology(2, 100, 0);
      topology.links[0].kind = first;
      topology.links[1].kind = second;
      const SimResult result = simulateProgram(program, topology, options);
      return result.ok ? result.timeUs - streaming : -1.0;
    };
    QVERIFY(within(timeWith(LinkKind::NvLink, LinkKind::NvLink), 3.4, 1e-9));
    QVERIFY(within(timeWith(LinkKind::Pcie, LinkKind::Pcie), 5.7, 1e-9));
    QVERIFY(within(timeWith(LinkKind::NvLink, LinkKind::Pcie), 5.7, 1e-9));
    QVERIFY(within(timeWith(LinkKind::Smp, LinkKind::NvLink), 5.7, 1e-9));
    QVERIFY(within(timeWith(LinkKind::Pcie, LinkKind::Network), 9.6, 1e-9));
    // NCCL's ring hwLat per class (src/graph/tuning.cc), and one figure for all when set so.
    const ProtocolParams simple = defaultProtocolParams(Protocol::Simple);
    QCOMPARE(simple.hopLatencyUs(HopClass::Pcie), 5.7);
    QCOMPARE(simple.hopLatencyUs(HopClass::Network), 9.6);
    ProtocolParams uniform = simple;
    uniform.setUniformLatency(1.5);
    QCOMPARE(uniform.hopLatencyUs(HopClass::Network), 1.5);
  }

  void localCopyCost()
  {
    Program program = emptyProgram(2, 2);
    addStep(addThreadblock(program, 0, -1, -1), OpType::Copy, 0, 2);
    SimOptions options = pureOptions(4'000'000);
    options.localGBps = 1000;
    const SimResult result = simulateProgram(program, preset("ring-2"), options);
    QVERIFY2(result.ok, qPrintable(describe(result)));
    // Two chunks of 2 MB at 10^6 bytes per µs.
    QVERIFY(within(result.timeUs, 4.0, 1e-12));
    QCOMPARE(result.trace.events.size(), std::size_t(1));
    QCOMPARE(result.trace.events[0].bytes, std::int64_t(4'000'000));
  }

  void dependenciesOrderSteps()
  {
    // tb 1 on rank 0 waits for tb 0's send (hasdep) before copying.
    Program program = emptyProgram(2, 1);
    ThreadBlock& sender = addThreadblock(program, 0, 1, -1);
    addStep(sender, OpType::Send, 0).hasdep = true;
    ThreadBlock& waiter = addThreadblock(program, 0, -1, -1);
    Step& copy = addStep(waiter, OpType::Copy, 0);
    copy.depid = 0;
    copy.deps = 0;
    addStep(addThreadblock(program, 1, -1, 0), OpType::Recv, 0);
    SimOptions options = pureOptions(1'000'000);
    options.localGBps = 1000;
    const SimResult result = simulateProgram(program, preset("ring-2", 100, 2), options);
    QVERIFY2(result.ok, qPrintable(describe(result)));
    // The send ends when its last byte left; the receive when it arrived, α later.
    const double sendDone = 1e6 / 100e3;
    QVERIFY(within(result.timeUs, sendDone + 2, 1e-9));
    for (const TraceEvent& event : result.trace.events) {
      if (event.op == OpType::Copy)
        QVERIFY(within(event.start, sendDone, 1e-9));
    }
  }

  void deadlockIsReported()
  {
    // Both ranks receive first: nobody ever sends.
    Program program = emptyProgram(2, 1);
    for (int rank = 0; rank < 2; ++rank) {
      ThreadBlock& tb = addThreadblock(program, rank, 1 - rank, 1 - rank);
      addStep(tb, OpType::Recv, 0);
      addStep(tb, OpType::Send, 0);
    }
    const SimResult result = simulateProgram(program, preset("ring-2"), pureOptions(1 << 20));
    QVERIFY(!result.ok);
    QCOMPARE(result.diagnostics.size(), std::size_t(1));
    const Diagnostic& d = result.diagnostics.front();
    QCOMPARE(d.code, std::string("sim.deadlock"));
    QCOMPARE(d.related.size(), std::size_t(2));
    QCOMPARE(d.related[1].rank, 1);
    QCOMPARE(d.related[1].step, 0);
    QVERIFY(QString::fromStdString(d.message).contains("waits to receive from rank 0"));
  }

  void unpublishedDependencyDeadlocks()
  {
    Program program = emptyProgram(1, 1);
    addStep(addThreadblock(program, 0, -1, -1), OpType::Copy, 0); // hasdep = 0: never publishes
    Step& wait = addStep(addThreadblock(program, 0, -1, -1), OpType::Copy, 0);
    wait.depid = 0;
    wait.deps = 0;
    Topology single;
    single.name = "one";
    single.nodes.push_back({0, NodeKind::Gpu, "GPU0", 0, 0, 0});
    const SimResult result = simulateProgram(program, single, pureOptions(1 << 20));
    QVERIFY(!result.ok);
    QCOMPARE(result.diagnostics.front().code, std::string("sim.deadlock"));
    QVERIFY(QString::fromStdString(result.diagnostics.front().message)
                .contains("waits for tb 0 to publish step 0"));
  }

  void missingGpuAndRoute()
  {
    const Program eight = makeRingAllReduce({8, 1, Protocol::Simple});
    const SimResult noGpu = simulateProgram(eight, preset("ring-4"), pureOptions(1 << 20));
    QVERIFY(!noGpu.ok);
    QCOMPARE(noGpu.diagnostics.size(), std::size_t(4));
    QCOMPARE(noGpu.diagnostics.front().code, std::string("sim.no-gpu"));
    QCOMPARE(noGpu.diagnostics.front().location.rank, 4);

    Program across = emptyProgram(4, 1);
    addTransfer(across, 0, 2, 0);
    const SimResult noRoute = simulateProgram(across, preset("ring-4"), pureOptions(1 << 20));
    QVERIFY(!noRoute.ok);
    QCOMPARE(noRoute.diagnostics.front().code, std::string("sim.no-route"));
    QVERIFY(QString::fromStdString(noRoute.diagnostics.front().message)
                .contains("from rank 0 to rank 2"));
  }

  void malformedProgramsDoNotCrash()
  {
    Program badPeer = emptyProgram(2, 1);
    addStep(addThreadblock(badPeer, 0, 7, -1), OpType::Send, 0);
    QCOMPARE(simulateProgram(badPeer, preset("ring-2"), pureOptions(64)).diagnostics.front().code,
             std::string("sim.invalid-program"));
    Program badDep = emptyProgram(2, 1);
    Step& step = addStep(addThreadblock(badDep, 0, -1, -1), OpType::Nop, 0);
    step.depid = 5;
    step.deps = 0;
    QCOMPARE(simulateProgram(badDep, preset("ring-2"), pureOptions(64)).diagnostics.front().code,
             std::string("sim.invalid-program"));
    Program noPeer = emptyProgram(2, 1);
    addStep(addThreadblock(noPeer, 0, -1, -1), OpType::Recv, 0);
    QVERIFY(!simulateProgram(noPeer, preset("ring-2"), pureOptions(64)).ok);
    const Program ring = makeRingAllReduce({2, 1, Protocol::Simple});
    QCOMPARE(simulateProgram(ring, preset("ring-2"), pureOptions(0)).diagnostics.front().code,
             std::string("sim.bad-size"));
  }

  void switchTopologyTraffic()
  {
    // Ring all-reduce on a DGX H100: every message crosses two links (GPU→NVSwitch→GPU) and
    // every GPU port carries 2(N-1)/N · S in each direction.
    const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
    const std::int64_t bytes = 64 << 20;
    const SimResult result =
        simulateProgram(program, *makePresetTopology("dgx-h100"), pureOptions(bytes));
    QVERIFY2(result.ok, qPrintable(describe(result)));
    for (const TraceEvent& event : result.trace.events) {
      if (opTraits(event.op).sends)
        QCOMPARE(event.linkPath.size(), std::size_t(2));
    }
    for (const LinkUsage& usage : result.trace.links) {
      QCOMPARE(usage.bytesAtoB, bytes / 8 * 14);
      QCOMPARE(usage.bytesBtoA, bytes / 8 * 14);
      QVERIFY(!usage.utilisation.empty());
      for (const auto& [time, fraction] : usage.utilisation)
        QVERIFY(fraction >= 0 && fraction <= 1);
    }
    QVERIFY(result.nccl);
    // NCCL ring estimate: 2(N-1)·α + 2(N-1)/N · S/β with α = 0.7 µs, β = 450 GB/s.
    QVERIFY(within(result.nccl->ringUs, 14 * 0.7 + 14.0 / 8 * bytes / 450e3, 1e-9));
    QVERIFY(within(result.nccl->treeUs, 2 * 3 * 0.7 + 2.0 * bytes / 450e3, 1e-9));
  }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
