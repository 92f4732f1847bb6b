// Cancelling the simulator: a simulation of tens of millions of step executions (about 20 s of
// work) cancelled from another thread stops at its next look at the flag (within
// kSimPollEvents events of the cancel, counted, not timed), flagged cancelled, not ok,
// with a sim.cancelled error and a trace marked stopped (Trace::stoppedUs), never one that
// looks complete; a flag set before the start stops it within kSimPollEvents events; the
// event counter a progress display polls moves during a run and ends at the events processed.

#include "catalogue/ringallreduce.h"
#include "model/fifodepth.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"
#include "support/cancelling.h"

#include <QTest>

using namespace cs;

namespace {

/// 8 ranks, 120 steps, 2 MiB slices of 5 TiB / 8 chunks: about 3.9e7 step executions.
SimOptions hugeRun(const std::atomic<bool>* cancel, std::atomic<std::int64_t>* events)
{
  SimOptions options;
  options.bytes = std::int64_t{5} << 40;
  options.recordEvents = false;
  options.recordUtilisation = false;
  options.cancel = cancel;
  options.eventsDone = events;
  return options;
}

bool hasCode(const SimResult& result, const std::string& code)
{
  for (const Diagnostic& diagnostic : result.diagnostics) {
    if (diagnostic.code == code)
      return true;
  }
  return false;
}

} // namespace

class TestSimCancel : public QObject
{
  Q_OBJECT

private slots:
  void cancelStopsAHugeSimulation()
  {
    const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
    const Topology topology = *makePresetTopology("ring-8");
    std::atomic<bool> cancel{false};
    std::atomic<std::int64_t> events{0};
    const SimOptions options = hugeRun(&cancel, &events);
    std::int64_t atCancel = 0;
    const auto cancelled =
        test::cancelWhileRunning([&] { return simulateProgram(program, topology, options); },
                                 [&] {
                                   atCancel = events.load();
                                   return atCancel >= 10 * kSimPollEvents;
                                 },
                                 cancel, std::chrono::seconds(30), std::chrono::seconds(10));
    QVERIFY(cancelled);
    const SimResult& result = cancelled->result;
    // The counter moves at each look at the flag: one more look after the cancel at most (two
    // when the cancel lands between a look and its count).
    QVERIFY2(events.load() <= atCancel + 2 * kSimPollEvents,
             qPrintable(QString("%1 events, cancelled at %2").arg(events.load()).arg(atCancel)));
    QVERIFY(result.cancelled);
    QVERIFY(!result.ok);
    QVERIFY(hasCode(result, "sim.cancelled"));
    QVERIFY(!hasCode(result, "sim.deadlock"));
    QVERIFY(result.trace.stoppedUs.has_value());
    QVERIFY(*result.trace.stoppedUs > 0);
  }

  void aCancelBeforeTheStartStopsAtTheFirstLook()
  {
    const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
    std::atomic<bool> cancel{true};
    std::atomic<std::int64_t> events{0};
    const SimResult result =
        simulateProgram(program, *makePresetTopology("ring-8"), hugeRun(&cancel, &events));
    QVERIFY(result.cancelled);
    QCOMPARE(events.load(), kSimPollEvents);
  }

  void anUncancelledRunCountsItsEvents()
  {
    const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
    std::atomic<bool> cancel{false};
    std::atomic<std::int64_t> events{0};
    SimOptions options = hugeRun(&cancel, &events);
    options.bytes = 1 << 30; // 256 MiB chunks in 2 MiB slices: thousands of events
    options.recordEvents = true;
    const SimResult result = simulateProgram(program, *makePresetTopology("ring-4"), options);
    QVERIFY(result.ok);
    QVERIFY(!result.cancelled);
    QVERIFY(!result.trace.stoppedUs.has_value());
    // Published every kSimPollEvents: at least every completed step's share of them.
    QVERIFY(events.load() >= kSimPollEvents);
    QVERIFY(events.load() % kSimPollEvents == 0);
    // Two events (left, arrived) per piece of every message.
    QVERIFY(static_cast<std::size_t>(events.load()) <=
            2 * piecesPerMessage(Protocol::Simple) * result.trace.events.size());
  }
};

QTEST_MAIN(TestSimCancel)
#include "tst_simcancel.moc"
