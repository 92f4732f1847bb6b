// The editor's views following a replay of their document (issue 14 items 5 and 7): the timeline
// marks the cursor's step and each transfer as done, in flight or pending exactly as the run's
// events say; the program view marks each threadblock's running instruction as the replay index
// does; a run the watchdog stopped shows its blocked positions and the predicted wait-for cycle on
// the timeline and in the Problems panel; selections go both ways; closing the replay clears it.

#include "followfixture.h"

#include "follow/editorfollower.h"
#include "follow/followindex.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"
#include "program/programmodel.h"
#include "program/programtreeview.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "views/topologyplaybackview.h"

#include "replay/stopreport.h"

#include <QPainter>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <algorithm>
#include <climits>
#include <map>
#include <set>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

/// The events of each transfer, found by brute force over the whole trace.
std::map<int, std::vector<const TraceEvent*>> eventsByTransfer(const Document& document,
                                                               const Trace& trace)
{
  std::map<int, std::vector<const TraceEvent*>> events;
  for (const TraceEvent& event : trace.events) {
    const int transfer = document.analysis().transferAt(event.rank, event.tb, event.step);
    if (transfer >= 0)
      events[transfer].push_back(&event);
  }
  return events;
}

/// What a transfer is at t, straight from its events.
TransferProgress expectedState(const std::vector<const TraceEvent*>& events, double t)
{
  const bool allDone =
      std::all_of(events.begin(), events.end(), [t](const TraceEvent* e) { return e->end <= t; });
  const bool noneStarted =
      std::all_of(events.begin(), events.end(), [t](const TraceEvent* e) { return e->start > t; });
  return allDone       ? TransferProgress::Done
         : noneStarted ? TransferProgress::Pending
                       : TransferProgress::Running;
}

/// The first start and last end of the events of each Schedule step.
std::map<int, std::pair<double, double>> stepSpans(const Document& document, const Trace& trace)
{
  std::map<int, std::pair<double, double>> spans;
  for (const auto& [transfer, events] : eventsByTransfer(document, trace)) {
    const int step = document.shownSchedule()->transfer(transfer)->step;
    auto [it, added] = spans.try_emplace(step, 1e300, 0.0);
    for (const TraceEvent* e : events) {
      it->second.first = std::min(it->second.first, e->start);
      it->second.second = std::max(it->second.second, e->end);
    }
  }
  return spans;
}

/// `parts` one above the other, a separator line between them.
QImage stacked(const std::vector<QImage>& parts)
{
  int width = 0;
  int height = 0;
  for (const QImage& part : parts) {
    width = std::max(width, part.width());
    height += part.height() + 1;
  }
  QImage image(width, height - 1, QImage::Format_RGB32);
  image.fill(QColor(0xc8, 0xc8, 0xc8));
  QPainter painter(&image);
  int y = 0;
  for (const QImage& part : parts) {
    painter.drawImage(0, y, part);
    y += part.height() + 1;
  }
  return image;
}

/// The views of one document following one replay.
struct Following {
  explicit Following(Document& document, std::unique_ptr<ReplaySession> run)
      : session(std::move(run)), timeline(&document), program(&document), problems(&document),
        follower(std::make_unique<EditorFollower>(session.get(), &document,
                                                  FollowTargets{&timeline, &program, &problems}))
  {
  }
  std::unique_ptr<ReplaySession> session;
  TimelineView timeline;
  ProgramView program;
  ProblemsPanel problems;
  std::unique_ptr<EditorFollower> follower;
};

} // namespace

class Test_follow : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void timelineMarksTheCursorStep_data();
  void timelineMarksTheCursorStep();
  void everythingDoneAtTheEnd();
  void programMarksTheRunningInstructions_data();
  void programMarksTheRunningInstructions();
  void deadlockShowsBlockedPositionsAndCycle();
  void problemRowSelectsItsInstruction();
  void selectionGoesBothWays();
  void closingTheReplayClearsTheMarks();
  void topologyDrawsTheCycle();
  void pictures();

private:
  Document m_document;
};

void Test_follow::initTestCase()
{
  test::openRingDocument(m_document);
  QCOMPARE(m_document.shownSchedule()->stepCount(), 6);
}

void Test_follow::timelineMarksTheCursorStep_data()
{
  QTest::addColumn<int>("step");
  // The ring's last step copies locally in no time; the five before it move data.
  for (int k = 0; k < 5; ++k)
    QTest::addRow("step %d", k) << k;
}

void Test_follow::timelineMarksTheCursorStep()
{
  QFETCH(int, step);
  Following f(m_document, test::simulatedRun(m_document));
  const Trace& trace = f.session->trace();
  const auto span = stepSpans(m_document, trace).at(step);
  const double t = (span.first + span.second) / 2;
  f.session->setCursor(t);

  const PlaybackMarks& marks = f.timeline.playbackMarks();
  QVERIFY(marks.active);
  QCOMPARE(marks.step, std::optional<int>(step));
  const auto byTransfer = eventsByTransfer(m_document, trace);
  QCOMPARE(marks.transfers.size(), byTransfer.size());
  int running = 0;
  for (const TransferMark& mark : marks.transfers) {
    const int transferStep = m_document.shownSchedule()->transfer(mark.transfer)->step;
    const TransferProgress expected = expectedState(byTransfer.at(mark.transfer), t);
    QCOMPARE(static_cast<int>(mark.state), static_cast<int>(expected));
    if (transferStep < step)
      QCOMPARE(static_cast<int>(mark.state), static_cast<int>(TransferProgress::Done));
    else if (transferStep > step)
      QCOMPARE(static_cast<int>(mark.state), static_cast<int>(TransferProgress::Pending));
    else if (mark.state == TransferProgress::Running) {
      ++running;
      QVERIFY2(mark.fraction > 0 && mark.fraction < 1, qPrintable(QString::number(mark.fraction)));
    }
  }
  QVERIFY(running > 0);

  // The painted overlay: the step's column is the cursor's, and the cells the running transfers
  // write are not produced yet while those of earlier steps are.
  const std::optional<TimelinePlayback>& playback = f.timeline.playback();
  QVERIFY(playback);
  QCOMPARE(playback->step, std::optional<int>(step));
  for (const Transfer& transfer : m_document.shownSchedule()->transfers) {
    const int row = f.timeline.model().states().rowOf(transfer.dst);
    const TransferMark* mark = marks.transferMark(transfer.id);
    QVERIFY(mark);
    QCOMPARE(playback->open(row, transfer.step + 1), mark->state != TransferProgress::Done);
  }
}

void Test_follow::everythingDoneAtTheEnd()
{
  Following f(m_document, test::simulatedRun(m_document));
  f.session->setCursor(f.session->endUs());
  const PlaybackMarks& marks = f.timeline.playbackMarks();
  QCOMPARE(marks.transfers.size(), m_document.shownSchedule()->transfers.size());
  for (const TransferMark& mark : marks.transfers)
    QCOMPARE(static_cast<int>(mark.state), static_cast<int>(TransferProgress::Done));
  QCOMPARE(marks.step, std::nullopt);
  for (const LaneMark& lane : marks.lanes) {
    QVERIFY(lane.running.empty());
    QCOMPARE(
        lane.done,
        static_cast<int>(m_document.shownProgram()->threadblock(lane.rank, lane.tb)->steps.size()));
  }
  const std::vector<int>& open = f.timeline.playback()->firstOpen;
  QVERIFY(std::all_of(open.begin(), open.end(), [](int column) { return column == INT_MAX; }));
}

void Test_follow::programMarksTheRunningInstructions_data()
{
  QTest::addColumn<double>("fraction");
  for (const double fraction : {0.05, 0.2, 0.37, 0.5, 0.66, 0.9})
    QTest::addRow("%.2f of the run", fraction) << fraction;
}

void Test_follow::programMarksTheRunningInstructions()
{
  QFETCH(double, fraction);
  Following f(m_document, test::simulatedRun(m_document));
  f.session->setCursor(f.session->endUs() * fraction);
  const replay::ReplayState& state = f.session->state();
  std::map<std::pair<int, int>, std::set<int>> expected;
  for (const std::size_t event : state.running) {
    const TraceEvent& e = f.session->trace().events[event];
    expected[{e.rank, e.tb}].insert(e.step);
  }
  QVERIFY(!expected.empty());
  const PlaybackMarks& marks = f.follower->marks();
  ProgramModel* model = f.program.model();
  for (const LaneMark& lane : marks.lanes) {
    const std::set<int> running(lane.running.begin(), lane.running.end());
    const std::set<int>& want = expected[std::pair(lane.rank, lane.tb)];
    QCOMPARE(running, want);
    // The threadblock's row names its running instruction (or how far it got).
    const QString row = model->threadBlockIndex(lane.rank, lane.tb).data().toString();
    const QString where =
        want.empty() ? QString("done") : QString("running s %1").arg(*want.begin());
    QVERIFY2(row.contains(where), qPrintable(row));
    const int steps =
        static_cast<int>(m_document.shownProgram()->threadblock(lane.rank, lane.tb)->steps.size());
    for (int step = 0; step < steps; ++step) {
      const QModelIndex index = model->instructionIndex({lane.rank, lane.tb, step});
      const auto shown =
          static_cast<ProgramModel::Playback>(index.data(ProgramModel::PlaybackRole).toInt());
      const ProgramModel::Playback look = running.contains(step) ? ProgramModel::Playback::Running
                                          : step < lane.done     ? ProgramModel::Playback::Done
                                                                 : ProgramModel::Playback::Pending;
      QCOMPARE(static_cast<int>(shown), static_cast<int>(look));
    }
  }
}

void Test_follow::deadlockShowsBlockedPositionsAndCycle()
{
  Following f(m_document, test::deadlockedRun(m_document));
  const Trace& trace = f.session->trace();
  QVERIFY(trace.stoppedUs);
  QCOMPARE(trace.blocked.size(), std::size_t(4));
  f.session->setCursor(*trace.stoppedUs);
  const std::vector<Location> cycle = replay::predictedCycle(f.session->program(), trace);
  QVERIFY(cycle.size() >= 2);

  // The Problems panel: four blocked rows and one for the cycle, its steps as children.
  const std::vector<Problem>& run = f.problems.model()->runProblems();
  QCOMPARE(run.size(), std::size_t(5));
  for (std::size_t i = 0; i < 4; ++i) {
    QCOMPARE(run[i].diagnostic.code, std::string("run.blocked"));
    QCOMPARE(*run[i].rank, trace.blocked[i].rank);
    QCOMPARE(*run[i].tb, trace.blocked[i].tb);
    QCOMPARE(*run[i].step, trace.blocked[i].step);
    QVERIFY2(QString::fromStdString(run[i].diagnostic.message).contains(" waits for "),
             run[i].diagnostic.message.c_str());
  }
  QCOMPARE(run[4].diagnostic.code, std::string("run.wait-for-cycle"));
  QCOMPARE(run[4].diagnostic.related, cycle);
  const int rows = f.problems.model()->problemCount();
  QCOMPARE(rows, static_cast<int>(m_document.analysis().problems.size()) + 5);
  const QModelIndex cycleRow = f.problems.model()->index(rows - 1, 0);
  QVERIFY(f.problems.model()->isRunRow(cycleRow));
  QCOMPARE(f.problems.model()->rowCount(cycleRow), static_cast<int>(cycle.size()));
  QCOMPARE(f.problems.model()->index(rows - 1, ProblemsModel::StageColumn).data().toString(),
           QString("run"));
  QVERIFY(f.problems.summary().contains("5 run problems"));
  // The severity toggles filter the run's rows too, and count them.
  QCOMPARE(m_document.analysis().errors, 0);
  QCOMPARE(f.problems.findChild<QToolButton*>("showErrors")->text(), QString("5 errors"));

  // The timeline: the four blocked cells and the cycle's transfers in wait-for order.
  const std::optional<TimelinePlayback>& playback = f.timeline.playback();
  QVERIFY(playback);
  std::set<int> blocked;
  for (const BlockedPosition& position : trace.blocked)
    blocked.insert(f.timeline.model().indexOf(
        m_document.analysis().transferAt(position.rank, position.tb, position.step)));
  QCOMPARE(std::set<int>(playback->blocked.begin(), playback->blocked.end()), blocked);
  QCOMPARE(playback->blocked.size(), std::size_t(4));
  QCOMPARE(playback->cycle.size(), cycle.size());
  for (std::size_t i = 0; i < cycle.size(); ++i)
    QCOMPARE(m_document.shownSchedule()->transfers[static_cast<std::size_t>(playback->cycle[i])].id,
             m_document.analysis().transferAt(cycle[i].rank, cycle[i].tb, cycle[i].step));

  // The program view: each blocked instruction.
  for (const BlockedPosition& position : trace.blocked)
    QCOMPARE(f.program.model()
                 ->instructionIndex({position.rank, position.tb, position.step})
                 .data(ProgramModel::PlaybackRole)
                 .toInt(),
             static_cast<int>(ProgramModel::Playback::Blocked));
}

void Test_follow::problemRowSelectsItsInstruction()
{
  Following f(m_document, test::deadlockedRun(m_document));
  const BlockedPosition& second = f.session->trace().blocked.at(1);
  // The run's rows follow the design's (a group of repeated design faults is one row).
  const int first =
      f.problems.problemCount() - static_cast<int>(f.problems.model()->runProblems().size());
  QVERIFY(f.problems.activateRow(first + 1));
  const Selection& selection = m_document.selection();
  QVERIFY(selection.instruction);
  QCOMPARE(*selection.instruction, (InstructionRef{second.rank, second.tb, second.step}));
  QCOMPARE(selection.transfers,
           std::set<int>{m_document.analysis().transferAt(second.rank, second.tb, second.step)});
  // ... and the replay selects that threadblock too.
  QCOMPARE(f.session->selection().rank, second.rank);
  QCOMPARE(f.session->selection().tb, second.tb);
}

void Test_follow::selectionGoesBothWays()
{
  Following f(m_document, test::simulatedRun(m_document));
  const Trace& trace = f.session->trace();
  // The editor selects a transfer: the replay selects the event of its first instruction.
  const Transfer& transfer = m_document.shownSchedule()->transfers.at(5);
  m_document.selectTransfer(transfer.id);
  const long event = f.session->selection().event;
  QVERIFY(event >= 0);
  const TraceEvent& e = trace.events[static_cast<std::size_t>(event)];
  QCOMPARE(m_document.analysis().transferAt(e.rank, e.tb, e.step), transfer.id);
  // The replay selects another event: the editor selects its instruction and transfer.
  const std::size_t other = trace.events.size() - 3;
  const TraceEvent& o = trace.events[other];
  f.session->setSelection({.rank = o.rank, .tb = o.tb, .event = static_cast<long>(other)});
  QCOMPARE(m_document.selection().instruction, std::optional(InstructionRef{o.rank, o.tb, o.step}));
  QCOMPARE(m_document.selection().transfers,
           std::set<int>{m_document.analysis().transferAt(o.rank, o.tb, o.step)});
}

void Test_follow::closingTheReplayClearsTheMarks()
{
  Following f(m_document, test::deadlockedRun(m_document));
  QVERIFY(f.timeline.playback());
  QVERIFY(f.program.model()->hasPlaybackMarks());
  QCOMPARE(f.problems.model()->runProblems().size(), std::size_t(5));
  f.follower.reset();
  QVERIFY(!f.timeline.playback());
  QVERIFY(!f.timeline.playbackMarks().active);
  QVERIFY(!f.program.model()->hasPlaybackMarks());
  QVERIFY(f.problems.model()->runProblems().empty());
  QCOMPARE(f.problems.model()->problemCount(),
           static_cast<int>(m_document.analysis().problems.size()));
}

void Test_follow::topologyDrawsTheCycle()
{
  auto session = test::deadlockedRun(m_document);
  std::vector<int> expected;
  for (const Location& at : replay::predictedCycle(session->program(), session->trace()))
    if (expected.empty() || expected.back() != at.rank)
      expected.push_back(at.rank);
  QVERIFY(expected.size() >= 2);
  TopologyPlaybackView view(session.get());
  QCOMPARE(view.cycleRanks(), expected);
  auto ended = test::simulatedRun(m_document);
  QVERIFY(TopologyPlaybackView(ended.get()).cycleRanks().empty());
}

void Test_follow::pictures()
{
  // Offscreen pictures of the overlay; CSTUDIO_FOLLOW_PICTURES names a folder to keep them in.
  const QString folder = qEnvironmentVariable("CSTUDIO_FOLLOW_PICTURES");
  Following mid(m_document, test::simulatedRun(m_document));
  const auto span = stepSpans(m_document, mid.session->trace()).at(2);
  mid.session->setCursor(span.first + (span.second - span.first) * 0.4);
  mid.program.treeView()->expandAll();
  m_document.selectTransfer(m_document.shownSchedule()->transfers.at(9).id);
  mid.timeline.resize(1000, 420);
  mid.program.resize(1000, 330);
  const QImage timeline = mid.timeline.grab().toImage();
  // The cursor's step header is painted in the accent.
  const QRect header = mid.timeline.headerRect(3);
  QCOMPARE(timeline.pixelColor(header.center().x(), header.top() + 6).rgb(),
           mid.timeline.palette().color(QPalette::Highlight).rgb());

  Following stopped(m_document, test::deadlockedRun(m_document));
  stopped.session->setCursor(*stopped.session->trace().stoppedUs);
  m_document.setSelection({});
  stopped.timeline.resize(1000, 420);
  stopped.problems.resize(1000, 300);
  const int cycleRow = stopped.problems.model()->problemCount() - 1;
  stopped.problems.treeView()->setCurrentIndex(stopped.problems.model()->index(cycleRow, 0));
  TopologyPlaybackView topology(stopped.session.get());
  topology.resize(720, 480);
  if (folder.isEmpty())
    return;
  QVERIFY(stacked({timeline, mid.program.grab().toImage()}).save(folder + "/follow.png"));
  QVERIFY(stacked({stopped.timeline.grab().toImage(), stopped.problems.grab().toImage()})
              .save(folder + "/deadlock.png"));
  QVERIFY(topology.grab().save(folder + "/deadlock-topology.png"));
}

QTEST_MAIN(Test_follow)
#include "tst_follow.moc"
