// Designed vs measured: the simulated and the CPU-measured run of one ring all-reduce compared
// step by step and link by link (the measured one routed over the same topology), and a run
// compared with itself, which must show no difference anywhere; and the designed side calibrated,
// where a calibration of half the bandwidth doubles every step.

#include "catalogue/ringallreduce.h"
#include "exec/executor.h"
#include "model/topologypresets.h"
#include "replay/comparison.h"
#include "replay/designedrun.h"
#include "sim/simulator.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace cs;
using namespace cs::replay;

namespace {

constexpr int kRanks = 4;
constexpr std::int64_t kBytes = 1 << 20;
/// The ring's one threadblock per rank: a send, ranks − 2 rrs, an rrcs, ranks − 2 rcs, a recv.
constexpr std::size_t kPositions = 2 * kRanks - 1;

Program ring()
{
  return makeRingAllReduce({kRanks, 1, Protocol::Simple});
}

Topology topology()
{
  return *makePresetTopology("ring-4");
}

Trace simulated()
{
  SimOptions options;
  options.bytes = kBytes;
  return simulateProgram(ring(), topology(), options).trace;
}

Trace measured()
{
  ExecOptions options;
  options.bytes = kBytes;
  options.trace = true;
  return makeExecutor("cpu")->run(ring(), options).trace;
}

ReplayIndex indexOf(const Trace& trace)
{
  const Topology routes = topology();
  ReplayBuild built = ReplayIndex::build(ring(), trace, &routes);
  if (!built.index)
    qFatal("replay refused a trace: %s", built.diagnostics.front().message.c_str());
  return std::move(*built.index);
}

double normalisedSum(const Comparison& comparison, std::size_t run)
{
  return std::accumulate(
      comparison.steps.begin(), comparison.steps.end(), 0.0,
      [run](double sum, const StepComparison& step) { return sum + step.time.normalised[run]; });
}

/// The fraction of the run during which at least one event ran.
double coveredFraction(const Trace& trace)
{
  std::vector<std::pair<double, double>> spans;
  for (const TraceEvent& event : trace.events)
    spans.emplace_back(event.start, event.end);
  std::sort(spans.begin(), spans.end());
  double covered = 0;
  double reached = 0;
  for (const auto& [start, end] : spans) {
    covered += std::max(0.0, end - std::max(start, reached));
    reached = std::max(reached, end);
  }
  return covered / trace.totalUs;
}

} // namespace

class TestComparison : public QObject
{
  Q_OBJECT

private slots:
  void simulatedAgainstMeasured()
  {
    const ReplayIndex designed = indexOf(simulated());
    const ReplayIndex ran = indexOf(measured());
    const Comparison comparison = compareRuns(designed, ran);
    QCOMPARE(comparison.steps.size(), kPositions);
    for (const StepComparison& step : comparison.steps) {
      // The simulator charges a message to its send, so the final plain receive (position
      // kPositions − 1), which copies nothing in place, takes no time there; every other step
      // moves data in both runs, and the measured receive takes time too.
      const bool designedMovesData = step.position != int(kPositions) - 1;
      QVERIFY2(step.time.us[1] > 0, qPrintable(QString::number(step.position)));
      QVERIFY2(designedMovesData ? step.time.us[0] > 0 : step.time.us[0] >= 0,
               qPrintable(QString::number(step.position)));
      QVERIFY(step.time.normalised[0] <= 1.0 + 1e-9);
      QVERIFY(step.time.normalised[1] <= 1.0 + 1e-9);
    }
    // The simulated steps follow one another without gaps or overlap, so their shares add up to
    // the whole run; the measured ones overlap where ranks drift apart, but together they still
    // cover every moment some event ran.
    QVERIFY2(std::abs(normalisedSum(comparison, 0) - 1.0) < 1e-6,
             qPrintable(QString::number(normalisedSum(comparison, 0))));
    const double covered = coveredFraction(ran.trace());
    QVERIFY2(covered > 0, qPrintable(QString::number(covered)));
    QVERIFY2(normalisedSum(comparison, 1) >= covered - 1e-9,
             qPrintable(QString::number(normalisedSum(comparison, 1))));
    for (std::size_t i = 1; i < comparison.steps.size(); ++i)
      QVERIFY(comparison.steps[i - 1].time.deltaUs >= comparison.steps[i].time.deltaUs);
    // Both runs' messages cross the ring's links (the measured ones routed over the topology).
    QVERIFY(!comparison.links.empty());
    for (std::size_t i = 1; i < comparison.links.size(); ++i)
      QVERIFY(comparison.links[i - 1].busy.deltaUs >= comparison.links[i].busy.deltaUs);
    for (const LinkComparison& link : comparison.links) {
      QVERIFY(link.bytes[0] > 0);
      QCOMPARE(link.bytes[1], link.bytes[0]);
      QVERIFY(link.busy.us[0] > 0 && link.busy.us[1] > 0);
    }
  }

  void aRunAgainstItselfLosesNothing()
  {
    const ReplayIndex run = indexOf(simulated());
    const Comparison comparison = compareRuns(run, run);
    QCOMPARE(comparison.steps.size(), kPositions);
    for (const StepComparison& step : comparison.steps) {
      QCOMPARE(step.time.deltaUs, 0.0);
      QCOMPARE(step.time.deltaNormalised, 0.0);
    }
    for (const LinkComparison& link : comparison.links) {
      QCOMPARE(link.busy.deltaUs, 0.0);
      QCOMPARE(link.bytes[1] - link.bytes[0], std::int64_t(0));
    }
    // Equal deltas keep the program's order.
    for (std::size_t i = 0; i < comparison.steps.size(); ++i)
      QCOMPARE(comparison.steps[i].position, int(i));
  }

  void aCalibrationScalesTheDesignedRun()
  {
    Calibration fast;
    fast.backend = "test";
    fast.links = {{LinkKind::NvLink, 0, 20, 1}}; // no latency: every time is bytes over β
    Calibration slow = fast;
    slow.links[0].betaGBps = 10;
    const std::int64_t bytes = std::int64_t{64} << 20;
    const DesignedRun a = simulateDesigned(ring(), topology(), &fast, bytes);
    const DesignedRun b = simulateDesigned(ring(), topology(), &slow, bytes);
    QVERIFY2(a.trace && b.trace, (a.error + b.error).c_str());
    const Comparison comparison = compareRuns(indexOf(*a.trace), indexOf(*b.trace));
    QVERIFY(qFuzzyCompare(comparison.totalUs[1], 2 * comparison.totalUs[0]));
    std::size_t doubled = 0;
    for (const StepComparison& step : comparison.steps) {
      QVERIFY(step.time.us[0] > 0);
      doubled += qFuzzyCompare(step.time.us[1], 2 * step.time.us[0]) ? 1 : 0;
    }
    QCOMPARE(doubled, kPositions);
    // Uncalibrated, the designed run keeps the preset's figures: another total.
    const DesignedRun nominal = simulateDesigned(ring(), topology(), nullptr, bytes);
    QVERIFY(nominal.trace);
    QVERIFY(!qFuzzyCompare(nominal.trace->totalUs, a.trace->totalUs));
    // A calibration that lacks the topology's link kind is refused with the reason.
    Calibration other = fast;
    other.links = {{LinkKind::Network, 0, 20, 1}};
    const DesignedRun refused = simulateDesigned(ring(), topology(), &other, bytes);
    QVERIFY(!refused.trace);
    QVERIFY(refused.error.find("lacks") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "tst_comparison.moc"
