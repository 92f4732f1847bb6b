// The replay core against the simulator's own counters: over a whole trace, what the link loads
// carry adds up to each link's LinkUsage bytes in each direction; counts, tokens and waiting
// threadblocks agree with the events; seeking is a pure function of t (forward then back gives
// the identical state); measured traces without link paths get the topology's routes and say so;
// traces that do not fit the program are refused with a message that names the event.

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "replay/replayindex.h"
#include "sim/simulator.h"

#include <QTest>

#include <cmath>
#include <map>

using namespace cs;
using namespace cs::replay;

namespace {

struct Simulated {
  Program program;
  Topology topology;
  Trace trace;
};

Simulated simulateRing(int ranks, const char* preset, std::int64_t bytes)
{
  Simulated run;
  run.program = makeRingAllReduce({ranks, 1, Protocol::Simple});
  run.topology = *makePresetTopology(preset);
  SimOptions options;
  options.bytes = bytes;
  const SimResult result = simulateProgram(run.program, run.topology, options);
  run.trace = result.trace;
  return run;
}

ReplayIndex indexOf(const Simulated& run, const Topology* topology)
{
  ReplayBuild built = ReplayIndex::build(run.program, run.trace, topology);
  if (!built.index)
    qFatal("replay refused a simulated trace: %s", built.diagnostics.front().message.c_str());
  return std::move(*built.index);
}

/// Every time at which some link load changes: the loads are constant in between.
std::vector<double> breakpoints(const ReplayIndex& index)
{
  std::vector<double> times{0};
  for (const Message& message : index.messages()) {
    times.push_back(message.start);
    times.push_back(message.end);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

bool sameState(const ReplayState& a, const ReplayState& b)
{
  if (a.counts.done != b.counts.done || a.counts.running != b.counts.running ||
      a.running != b.running || a.tokens.size() != b.tokens.size() ||
      a.links.size() != b.links.size() || a.waiting.size() != b.waiting.size())
    return false;
  for (std::size_t i = 0; i < a.tokens.size(); ++i) {
    if (a.tokens[i].message != b.tokens[i].message || a.tokens[i].progress != b.tokens[i].progress)
      return false;
  }
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    if (a.links[i].aToB.bytesInFlight != b.links[i].aToB.bytesInFlight ||
        a.links[i].bToA.bytesPerUs != b.links[i].bToA.bytesPerUs ||
        a.links[i].utilisation != b.links[i].utilisation)
      return false;
  }
  return true;
}

} // namespace

class TestReplay : public QObject
{
  Q_OBJECT

private slots:
  void linkLoadsAddUpToTheSimulatorsBytes_data()
  {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QString>("preset");
    QTest::newRow("ring-4") << 4 << "ring-4";
    QTest::newRow("dgx-h100 (through a switch)") << 8 << "dgx-h100";
  }
  void linkLoadsAddUpToTheSimulatorsBytes()
  {
    QFETCH(int, ranks);
    QFETCH(QString, preset);
    const Simulated run = simulateRing(ranks, qPrintable(preset), 4 << 20);
    QVERIFY(!run.trace.events.empty());
    const ReplayIndex index = indexOf(run, &run.topology);
    QVERIFY(!index.linksInferred()); // the simulator records link paths
    // The rate is constant between breakpoints: integrate it exactly, per link direction.
    std::map<int, std::pair<double, double>> carried;
    const std::vector<double> times = breakpoints(index);
    for (std::size_t k = 0; k + 1 < times.size(); ++k) {
      const double mid = (times[k] + times[k + 1]) / 2;
      for (const LinkState& link : index.links(mid)) {
        carried[link.link].first += link.aToB.bytesPerUs * (times[k + 1] - times[k]);
        carried[link.link].second += link.bToA.bytesPerUs * (times[k + 1] - times[k]);
      }
    }
    int busy = 0;
    for (const LinkUsage& usage : run.trace.links) {
      const auto& [aToB, bToA] = carried[usage.link];
      QVERIFY2(
          std::abs(aToB - static_cast<double>(usage.bytesAtoB)) <= 1e-6 * (aToB + 1),
          qPrintable(
              QString("link %1 a→b: %2 vs %3").arg(usage.link).arg(aToB).arg(usage.bytesAtoB)));
      QVERIFY2(
          std::abs(bToA - static_cast<double>(usage.bytesBtoA)) <= 1e-6 * (bToA + 1),
          qPrintable(
              QString("link %1 b→a: %2 vs %3").arg(usage.link).arg(bToA).arg(usage.bytesBtoA)));
      busy += usage.bytesAtoB + usage.bytesBtoA > 0 ? 1 : 0;
    }
    QVERIFY(busy > 0);
    // Nothing is in flight after the end, and everything is done.
    const ReplayState end = index.at(index.endUs() + 1);
    QCOMPARE(end.counts.done, run.trace.events.size());
    QVERIFY(end.tokens.empty());
    for (const LinkState& link : end.links)
      QCOMPARE(link.aToB.bytesInFlight + link.bToA.bytesInFlight, 0.0);
  }

  void countsTokensAndRunningAgreeWithTheEvents()
  {
    const Simulated run = simulateRing(4, "ring-4", 1 << 20);
    const ReplayIndex index = indexOf(run, &run.topology);
    for (const double fraction : {0.0, 0.1, 0.37, 0.5, 0.81, 1.0}) {
      const double t = fraction * index.endUs();
      std::size_t done = 0;
      std::size_t running = 0;
      for (const TraceEvent& event : run.trace.events) {
        done += event.end <= t ? 1 : 0;
        running += event.start <= t && t < event.end ? 1 : 0;
      }
      const ReplayState state = index.at(t);
      QCOMPARE(state.counts.done, done);
      QCOMPARE(state.counts.running, running);
      QCOMPARE(state.counts.done + state.counts.running + state.counts.pending,
               run.trace.events.size());
      QCOMPARE(state.running.size(), running);
      for (const Token& token : state.tokens) {
        const Message& message = index.messages()[token.message];
        QVERIFY(message.start <= t && t < message.end);
        QVERIFY(token.progress >= 0 && token.progress <= 1);
        QVERIFY(!message.route.empty());
      }
      // A threadblock is running, waiting or finished, never two of these.
      for (const Waiting& idle : state.waiting) {
        for (const std::size_t event : state.running) {
          const TraceEvent& busy = run.trace.events[event];
          QVERIFY(!(busy.rank == idle.rank && busy.tb == idle.tb));
        }
      }
    }
  }

  void seekingForwardThenBackGivesTheSameState()
  {
    const Simulated run = simulateRing(8, "dgx-h100", 1 << 20);
    const ReplayIndex index = indexOf(run, &run.topology);
    const std::vector<std::pair<double, double>> spans = index.stepSpans();
    QVERIFY(spans.size() >= 2);
    std::vector<ReplayState> forward;
    for (const auto& [start, end] : spans)
      forward.push_back(index.at((start + end) / 2));
    for (std::size_t k = spans.size(); k-- > 0;)
      QVERIFY(sameState(index.at((spans[k].first + spans[k].second) / 2), forward[k]));
  }

  void measuredTracesAreRoutedOverTheTopology()
  {
    Simulated run = simulateRing(4, "ring-4", 1 << 20);
    for (TraceEvent& event : run.trace.events)
      event.linkPath.clear(); // as the executors record them
    run.trace.links.clear();
    const ReplayIndex index = indexOf(run, &run.topology);
    QVERIFY(index.linksInferred());
    for (const Message& message : index.messages())
      QCOMPARE(message.route.size(), std::size_t(1)); // neighbours on a ring: one link
    bool loaded = false;
    for (const LinkState& link : index.links(index.endUs() / 2))
      loaded = loaded || link.utilisation > 0;
    QVERIFY(loaded);
    // Without a topology there are no links to show, and the rest still works.
    const ReplayIndex bare = indexOf(run, nullptr);
    QVERIFY(bare.links(index.endUs() / 2).empty());
    QCOMPARE(bare.counts(index.endUs()).done, run.trace.events.size());
  }

  void aStoppedRunShowsWhatItsThreadblocksWaitFor()
  {
    Simulated run = simulateRing(4, "ring-4", 1 << 20);
    // As if the run had stopped early: rank 0 never ran, rank 1 ran only its first send. Rank 1
    // then waits for the message rank 0 never sent, at its next step (an rrs of slice 0).
    std::erase_if(run.trace.events, [](const TraceEvent& e) {
      return e.rank == 0 || (e.rank == 1 && (e.step > 0 || e.slice > 0));
    });
    const ReplayIndex index = indexOf(run, &run.topology);
    double sentAt = 0;
    for (const TraceEvent& e : run.trace.events) {
      if (e.rank == 1)
        sentAt = e.end;
    }
    bool found = false;
    for (const Waiting& idle : index.waiting(sentAt + 1)) {
      if (idle.rank != 1)
        continue;
      QCOMPARE(idle.step, 1);
      QCOMPARE(idle.slice, 0);
      QVERIFY(idle.reason == WaitReason::Message);
      QCOMPARE(idle.peer, 0);
      found = true;
    }
    QVERIFY(found);
  }

  void tracesOfAnotherProgramAreRefused_data()
  {
    QTest::addColumn<int>("mutation");
    QTest::addColumn<QString>("expected");
    QTest::newRow("other rank count") << 0 << "ranks";
    QTest::newRow("unknown threadblock") << 1 << "threadblock 9";
    QTest::newRow("step out of range") << 2 << "names step 99";
    QTest::newRow("other instruction") << 3 << "but the program's step is";
    QTest::newRow("time not a number") << 4 << "not a number";
    QTest::newRow("ends before it starts") << 5 << "before it starts";
    QTest::newRow("duplicate event") << 6 << "appears twice";
    QTest::newRow("unknown link") << 7 << "crosses link 999";
  }
  void tracesOfAnotherProgramAreRefused()
  {
    QFETCH(int, mutation);
    QFETCH(QString, expected);
    Simulated run = simulateRing(4, "ring-4", 1 << 20);
    TraceEvent& event = run.trace.events[3];
    switch (mutation) {
    case 0:
      run.trace.ranks = 5;
      break;
    case 1:
      event.tb = 9;
      break;
    case 2:
      event.step = 99;
      break;
    case 3:
      event.op = event.op == OpType::Send ? OpType::Recv : OpType::Send;
      break;
    case 4:
      event.start = std::nan("");
      break;
    case 5:
      event.end = event.start - 1;
      break;
    case 6:
      run.trace.events.push_back(event);
      break;
    case 7:
      event.linkPath = {999};
      break;
    }
    const ReplayBuild built = ReplayIndex::build(run.program, run.trace, &run.topology);
    QVERIFY(!built.index);
    QVERIFY(!built.diagnostics.empty());
    QVERIFY2(QString::fromStdString(built.diagnostics.front().message).contains(expected),
             built.diagnostics.front().message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestReplay)
#include "tst_replay.moc"
