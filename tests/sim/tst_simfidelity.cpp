// The simulator moves data at the runtime's granularity (docs/simulator.md): closed forms of the
// catalogue ring all-reduce, pieces forwarded as they arrive, FIFO back-pressure, switches that
// relay without storing.

#include "simtestutil.h"

#include "catalogue/ringallreduce.h"
#include "model/fifodepth.h"
#include "model/routing.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <QTest>

#include <cmath>
#include <optional>

using namespace cs;
using namespace cs::test;

namespace {

constexpr double kLinkGBps = 100; ///< ring-N's default links
constexpr double kLinkUs = 2;

QString describe(const SimResult& result)
{
  QString text;
  for (const Diagnostic& d : result.diagnostics)
    text += QString::fromStdString(d.code + ": " + d.message + "\n");
  return text;
}

double relativeError(double value, double expected)
{
  return std::abs(value - expected) / std::abs(expected);
}

/// Protocol latency and efficiency off; `sliceBytes` per chunk and loop iteration.
SimOptions pureOptions(std::int64_t bytes, std::int64_t sliceBytes = 0)
{
  SimOptions options;
  options.bytes = bytes;
  options.protocol = ProtocolParams{1.0, 0.0, sliceBytes, {}, {}};
  return options;
}

/// rank 0 → rank 1 → rank 2: a send, a fused receive-copy-send, a receive, one chunk.
Program twoHopChain(Protocol protocol)
{
  Program program = emptyProgram(3, 1);
  program.proto = protocol;
  addStep(addThreadblock(program, 0, 1, -1), OpType::Send, 0);
  addStep(addThreadblock(program, 1, 2, 0), OpType::RecvCopySend, 0);
  addStep(addThreadblock(program, 2, -1, 1), OpType::Recv, 0);
  return program;
}

/// Rank 0 sends `messages` 1 MiB messages to rank 1, which copies for a long time before it
/// receives them: how many sends end before the copy does, i.e. fit in the connection.
int sendsBeforeTheReceiver(int messages, std::optional<int> fifoSlots)
{
  Program program = emptyProgram(2, messages);
  ThreadBlock& sender = addThreadblock(program, 0, 1, -1);
  ThreadBlock& receiver = addThreadblock(program, 1, -1, 0);
  addStep(receiver, OpType::Copy, 0, messages);
  for (int m = 0; m < messages; ++m) {
    addStep(sender, OpType::Send, m);
    addStep(receiver, OpType::Recv, m);
  }
  SimOptions options = pureOptions(std::int64_t{messages} << 20);
  options.localGBps = 0.1; // the copy: at 100 bytes/µs, far longer than the sends
  options.fifoSlots = fifoSlots;
  const SimResult result =
      simulateProgram(program, *makePresetTopology("ring-2", {kLinkGBps, kLinkUs}), options);
  if (!result.ok)
    return -1;
  double copyEnd = 0;
  for (const TraceEvent& event : result.trace.events)
    copyEnd = event.op == OpType::Copy ? event.end : copyEnd;
  int early = 0;
  for (const TraceEvent& event : result.trace.events)
    early += event.op == OpType::Send && event.end < copyEnd ? 1 : 0;
  return early;
}

} // namespace

class TestSimFidelity : public QObject
{
  Q_OBJECT

private slots:
  void ringOnRingN_data()
  {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<bool>("latencyNegligible");
    for (const int n : {4, 8, 16, 64}) {
      for (const qint64 mib : {64, 256, 1024, 4096}) {
        // Where 2(N-1)·α is a few percent of the run or more, the runtime hides it behind the
        // pieces still streaming and the store-and-forward closed form overstates the time.
        const bool negligible = mib >= 1024 || (mib == 256 && n <= 16) || (mib == 64 && n <= 8);
        QTest::addRow("ring-%d %lld MiB", n, mib) << n << mib * (1 << 20) << negligible;
      }
    }
  }

  void ringOnRingN()
  {
    // The catalogue ring with the default Simple model (3.4 µs a hop, 2 MiB slices).
    QFETCH(int, ranks);
    QFETCH(qint64, bytes);
    QFETCH(bool, latencyNegligible);
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    const Topology ring = *makePresetTopology("ring-" + std::to_string(ranks));
    SimOptions options;
    options.bytes = bytes;
    const SimResult result = simulateProgram(program, ring, options);
    QVERIFY2(result.ok, qPrintable(describe(result)));
    const double n = ranks;
    const double beta = kLinkGBps * 1e3; // bytes per µs
    const double linkTime = 2 * (n - 1) * static_cast<double>(bytes) / (n * beta);
    const double storeAndForward = 2 * (n - 1) * (kLinkUs + bytes / (n * beta));
    // A message of one slice-step piece (1 MiB) is forwarded whole: store and forward is exact.
    // With more pieces, the runtime's pipelining: every link busy for its 2(N-1) messages, and
    // one α per slice, while a rank's last receive of a slice arrives before it sends the next.
    const double pieceBytes = 1 << 20;
    const bool onePiece = static_cast<double>(bytes) / ranks <= pieceBytes;
    const double exact = onePiece ? storeAndForward : linkTime + result.slices * kLinkUs;
    QVERIFY2(relativeError(result.timeUs, exact) < 1e-3,
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(exact)));
    if (latencyNegligible || onePiece) {
      QVERIFY2(relativeError(result.timeUs, storeAndForward) < 0.02,
               qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(storeAndForward)));
    }
  }

  void ringOnDgxH100_data()
  {
    QTest::addColumn<qint64>("bytes");
    for (const qint64 mib : {256, 512, 1024, 4096})
      QTest::addRow("%lld MiB", mib) << mib * (1 << 20);
  }

  void ringOnDgxH100()
  {
    // Through the NVSwitch the ring runs at the GPU port's bandwidth, as NCCL's ring does.
    QFETCH(qint64, bytes);
    const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
    SimOptions options;
    options.bytes = bytes;
    const SimResult result = simulateProgram(program, *makePresetTopology("dgx-h100"), options);
    QVERIFY2(result.ok, qPrintable(describe(result)));
    QVERIFY(result.nccl.has_value());
    QVERIFY2(relativeError(result.timeUs, result.nccl->ringUs) < 0.05,
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(result.nccl->ringUs)));
  }

  void piecesPipelineOnTwoHops_data()
  {
    QTest::addColumn<int>("protocol");
    QTest::newRow("Simple") << static_cast<int>(Protocol::Simple);
    QTest::newRow("LL") << static_cast<int>(Protocol::LL);
  }

  void piecesPipelineOnTwoHops()
  {
    // The middle rank forwards each piece once it arrived: the second hop trails the first by
    // one piece and one α, instead of by the whole message (store and forward).
    QFETCH(int, protocol);
    const auto proto = static_cast<Protocol>(protocol);
    const std::int64_t bytes = 8 << 20;
    const SimResult result =
        simulateProgram(twoHopChain(proto), *makePresetTopology("ring-3", {kLinkGBps, kLinkUs}),
                        pureOptions(bytes));
    QVERIFY2(result.ok, qPrintable(describe(result)));
    const int pieces = piecesPerMessage(proto);
    const double piece = static_cast<double>(bytes) / pieces / (kLinkGBps * 1e3);
    const double expected = (pieces + 1) * piece + 2 * kLinkUs;
    QVERIFY2(relativeError(result.timeUs, expected) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(expected)));
    if (pieces > 1)
      QVERIFY(result.timeUs < 2 * (pieces * piece + kLinkUs));
  }

  void fifoBackPressure_data()
  {
    QTest::addColumn<int>("depth");
    QTest::addColumn<int>("sendsBeforeReceiver");
    // The receiver is busy for a while first: the sender gets as many messages out as fit.
    QTest::newRow("1 slot") << 1 << 1;
    QTest::newRow("2 slots") << 2 << 2;
    QTest::newRow("4 slots") << 4 << 4;
  }

  void fifoBackPressure()
  {
    QFETCH(int, depth);
    QFETCH(int, sendsBeforeReceiver);
    QCOMPARE(sendsBeforeTheReceiver(6, depth), sendsBeforeReceiver);
  }

  void switchRelaysWithoutStoring()
  {
    // One message through the NVSwitch: its bytes cross both links at once, so it costs the
    // route's latency on top of one transfer time, not a second transfer time.
    Program program = emptyProgram(2, 1);
    program.proto = Protocol::LL; // one piece: a store-and-forward switch would double it
    addStep(addThreadblock(program, 0, 1, -1), OpType::Send, 0);
    addStep(addThreadblock(program, 1, -1, 0), OpType::Recv, 0);
    const Topology dgx = *makePresetTopology("dgx-h100");
    const RouteTable routes(dgx);
    const Route* route = routes.route(0, 1);
    QVERIFY(route && route->hops.size() == 2);
    const std::int64_t bytes = 64 << 20;
    const SimResult result = simulateProgram(program, dgx, pureOptions(bytes));
    QVERIFY2(result.ok, qPrintable(describe(result)));
    const double expected = bytes / (route->bottleneckGBps * 1e3) + route->latencyUs;
    QVERIFY2(relativeError(result.timeUs, expected) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(result.timeUs).arg(expected)));
  }

  void defaultDepthIsTheRuntimes()
  {
    QCOMPARE(connectionSlots(Protocol::Simple), 2);
    QCOMPARE(connectionSlots(Protocol::LL), 8);
    QCOMPARE(connectionSlots(Protocol::LL128), 8);
    // Without fifoSlots the simulator uses it: two Simple messages out before the receiver.
    QCOMPARE(sendsBeforeTheReceiver(3, std::nullopt), connectionSlots(Protocol::Simple));
  }
};

QTEST_GUILESS_MAIN(TestSimFidelity)
#include "tst_simfidelity.moc"
