// The playback clock over a simulated ring all-reduce: stepping forward then back returns the
// identical cursor and state; a breakpoint on a step pauses playback where that step starts;
// playing moves the cursor by elapsed wall time × speed (time is fed in through advance(), not
// waited for); one step per second; the end stops playback or, with loop, wraps; event stepping
// follows the selected lane.

#include "playback/breakpoints.h"
#include "playback/playbackbar.h"
#include "playback/playbackclock.h"
#include "replayfixture.h"

#include <QSignalSpy>
#include <QTest>

using namespace cs;
using namespace cs::visualizer;

class Test_playback : public QObject
{
  Q_OBJECT

private slots:
  void init() { m_session = test::simulatedRing(4, "ring-4"); }
  void stepForwardThenBackIsIdentity_data();
  void stepForwardThenBackIsIdentity();
  void breakpointOnStepPauses();
  void breakpointOnLinkAndLane();
  void playAdvancesByElapsedTimesSpeed_data();
  void playAdvancesByElapsedTimesSpeed();
  void oneStepPerSecond();
  void endStopsOrLoops();
  void eventSteppingFollowsTheLane();
  void readoutNamesStepAndSlice();

private:
  std::unique_ptr<ReplaySession> m_session;
};

void Test_playback::stepForwardThenBackIsIdentity_data()
{
  QTest::addColumn<int>("steps");
  QTest::newRow("1") << 1;
  QTest::newRow("3") << 3;
  QTest::newRow("to the last step") << -1;
}

void Test_playback::stepForwardThenBackIsIdentity()
{
  QFETCH(int, steps);
  if (steps < 0) // from step boundary 1 to the last one
    steps = static_cast<int>(m_session->stepStarts().size()) - 2;
  QVERIFY(steps < static_cast<int>(m_session->stepStarts().size()) - 1);
  PlaybackClock clock(m_session.get());
  clock.stepForward(); // start on a step boundary other than 0
  const double before = m_session->cursorUs();
  const replay::ReplayState state = m_session->state();
  for (int i = 0; i < steps; ++i) {
    const double at = m_session->cursorUs();
    clock.stepForward();
    QVERIFY2(m_session->cursorUs() > at, "each step moves forward");
  }
  for (int i = 0; i < steps; ++i)
    clock.stepBack();
  QCOMPARE(m_session->cursorUs(), before);
  QCOMPARE(m_session->state().counts.done, state.counts.done);
  QCOMPARE(m_session->state().counts.running, state.counts.running);
  QCOMPARE(m_session->state().running, state.running);
  QCOMPARE(m_session->state().tokens.size(), state.tokens.size());
}

void Test_playback::breakpointOnStepPauses()
{
  PlaybackClock clock(m_session.get());
  clock.setSpeed(0.001);
  const Breakpoint onStep{Breakpoint::Kind::Step, 2, 0};
  const std::vector<double> times = breakpointTimes(*m_session, onStep);
  QVERIFY(!times.empty());
  clock.addBreakpoint(onStep);
  QSignalSpy hits(&clock, &PlaybackClock::breakpointHit);
  clock.play();
  QVERIFY(clock.playing());
  for (int i = 0; i < 100000 && clock.playing(); ++i)
    clock.advance(1); // 1 µs of run per call
  QVERIFY(!clock.playing());
  QCOMPARE(hits.size(), 1);
  QCOMPARE(m_session->cursorUs(), times.front());
  const auto started = std::find_if(
      m_session->trace().events.begin(), m_session->trace().events.end(),
      [&](const TraceEvent& e) { return e.step == 2 && e.start <= m_session->cursorUs(); });
  QVERIFY2(started != m_session->trace().events.end(), "step 2 starts where playback paused");
  // Playing on goes past it to the next slice's step 2, not stuck on the same time.
  clock.play();
  for (int i = 0; i < 100000 && clock.playing(); ++i)
    clock.advance(1);
  QVERIFY(m_session->cursorUs() > times.front());
}

void Test_playback::breakpointOnLinkAndLane()
{
  for (const Breakpoint breakpoint : {Breakpoint{Breakpoint::Kind::Threadblock, 1, 0},
                                      Breakpoint{Breakpoint::Kind::Rank, 3, 0}}) {
    const std::vector<double> times = breakpointTimes(*m_session, breakpoint);
    QVERIFY2(!times.empty(), qPrintable(breakpointText(breakpoint)));
    QVERIFY(std::is_sorted(times.begin(), times.end()));
  }
  const replay::Message& first = m_session->index().messages().front();
  QVERIFY(!first.route.empty());
  const Breakpoint onLink{Breakpoint::Kind::Link, first.route.front().link, 0};
  QVERIFY(!breakpointTimes(*m_session, onLink).empty());
  QCOMPARE(breakpointText({Breakpoint::Kind::Threadblock, 1, 2}), QStringLiteral("rank 1 · tb 2"));
  PlaybackClock clock(m_session.get());
  clock.addBreakpoint(onLink);
  clock.addBreakpoint(onLink); // once only
  QCOMPARE(clock.breakpoints().size(), std::size_t(1));
  QCOMPARE(clock.allBreakpointTimes(), breakpointTimes(*m_session, onLink));
  clock.removeBreakpoint(0);
  QVERIFY(clock.breakpoints().empty());
}

void Test_playback::playAdvancesByElapsedTimesSpeed_data()
{
  QTest::addColumn<double>("speed");
  QTest::addColumn<double>("wallMs");
  QTest::newRow("x0.001, 5 ms") << 0.001 << 5.0;
  QTest::newRow("x0.0001, 20 ms") << 0.0001 << 20.0;
  QTest::newRow("x0.00001, 100 ms") << 0.00001 << 100.0;
}

void Test_playback::playAdvancesByElapsedTimesSpeed()
{
  QFETCH(double, speed);
  QFETCH(double, wallMs);
  PlaybackClock clock(m_session.get());
  clock.setSpeed(speed);
  clock.play();
  const double expected = wallMs * 1000 * speed;
  QVERIFY(expected < m_session->endUs());
  // In ticks, as the timer would deliver them.
  for (int i = 0; i < 10; ++i)
    clock.advance(wallMs / 10);
  QVERIFY(std::abs(m_session->cursorUs() - expected) < 1e-6 * m_session->endUs());
  QVERIFY(clock.playing());
}

void Test_playback::oneStepPerSecond()
{
  PlaybackClock clock(m_session.get());
  clock.setSpeed(PlaybackClock::kStepPerSecond);
  clock.play();
  clock.advance(999);
  QCOMPARE(m_session->cursorUs(), 0.0);
  clock.advance(1);
  QCOMPARE(m_session->cursorUs(), m_session->stepStarts()[1]);
  clock.advance(1000);
  QCOMPARE(m_session->cursorUs(), m_session->stepStarts()[2]);
}

void Test_playback::endStopsOrLoops()
{
  PlaybackClock clock(m_session.get());
  clock.setSpeed(100);
  clock.play();
  clock.advance(1000);
  QCOMPARE(m_session->cursorUs(), m_session->endUs());
  QVERIFY(!clock.playing());
  clock.setLoop(true);
  clock.play(); // at the end, play starts over
  QCOMPARE(m_session->cursorUs(), 0.0);
  clock.advance(1000);
  QCOMPARE(m_session->cursorUs(), 0.0);
  QVERIFY(clock.playing());
  clock.goToEnd();
  QVERIFY(!clock.playing());
  QCOMPARE(m_session->cursorUs(), m_session->endUs());
  clock.goToStart();
  QCOMPARE(m_session->cursorUs(), 0.0);
}

void Test_playback::eventSteppingFollowsTheLane()
{
  PlaybackClock clock(m_session.get());
  m_session->setSelection({2, 0, -1, -1});
  std::vector<double> boundaries;
  for (const TraceEvent& e : m_session->trace().events) {
    if (e.rank == 2 && e.tb == 0) {
      boundaries.push_back(e.start);
      boundaries.push_back(e.end);
    }
  }
  std::sort(boundaries.begin(), boundaries.end());
  boundaries.erase(std::unique(boundaries.begin(), boundaries.end()), boundaries.end());
  const auto firstAfterZero = std::upper_bound(boundaries.begin(), boundaries.end(), 0.0);
  QVERIFY(firstAfterZero != boundaries.end());
  clock.eventForward();
  QCOMPARE(m_session->cursorUs(), *firstAfterZero);
  clock.eventForward();
  QCOMPARE(m_session->cursorUs(), *std::next(firstAfterZero));
  clock.eventBack();
  QCOMPARE(m_session->cursorUs(), *firstAfterZero);
}

void Test_playback::readoutNamesStepAndSlice()
{
  PlaybackClock clock(m_session.get());
  PlaybackBar bar(&clock);
  clock.stepForward();
  clock.stepForward();
  const auto [step, slice] = m_session->stepKeys()[2];
  QVERIFY2(bar.readoutText().endsWith(QStringLiteral("step %1 · slice %2").arg(step).arg(slice)),
           qPrintable(bar.readoutText()));
  QVERIFY(bar.readoutText().contains(QStringLiteral("µs")));
}

QTEST_MAIN(Test_playback)
#include "tst_playback.moc"
