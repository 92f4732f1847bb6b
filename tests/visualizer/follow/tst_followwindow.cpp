// The main window's views follow the replay it opens (Replay → Open Trace): the timeline and the
// program view get the replay's marks and move with its cursor, a second replay takes over from
// the first, and closing the replay clears the marks.

#include "window/mainwindow.h"

#include "support/files.h"
#include "support/isolatedwindow.h"

#include "document/document.h"
#include "io/chrometrace.h"
#include "model/topologypresets.h"
#include "program/programmodel.h"
#include "program/programview.h"
#include "replaywindow.h"
#include "session/replaysession.h"
#include "sim/simulator.h"
#include "timeline/timelineview.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

class Test_followwindow : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void viewsFollowTheOpenReplay();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
  QString m_trace;
};

void Test_followwindow::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = test::openIsolatedRingWindow(m_dir, "tst_followwindow");
  QVERIFY(m_window);
  const Topology topology = *makePresetTopology("ring-4");
  const SimResult result =
      simulateProgram(*m_window->document()->shownProgram(), topology, SimOptions{});
  m_trace = m_dir.filePath("ring4.json");
  QVERIFY(cs::test::writeFile(
      m_trace, QByteArray::fromStdString(writeChromeTrace(result.trace, &topology))));
}

void Test_followwindow::viewsFollowTheOpenReplay()
{
  TimelineView* timeline = m_window->timelineView();
  QVERIFY(!timeline->playbackMarks().active);
  QCOMPARE(m_window->openTrace(m_trace), QString());
  auto* first = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(first);
  QVERIFY(timeline->playbackMarks().active);
  QVERIFY(m_window->programView()->model()->hasPlaybackMarks());
  // At the start every transfer is still to come; at the end every one has run.
  first->session()->setCursor(0);
  QCOMPARE(timeline->playbackMarks().step, std::optional<int>(0));
  first->session()->setCursor(first->session()->endUs());
  QCOMPARE(timeline->playbackMarks().step, std::nullopt);
  QCOMPARE(timeline->playbackMarks().timeUs, first->session()->endUs());

  // A second replay drives the views; the first one's cursor no longer does.
  QCOMPARE(m_window->openTrace(m_trace), QString());
  auto* second = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(second && second != first);
  first->session()->setCursor(first->session()->endUs() / 2);
  QCOMPARE(timeline->playbackMarks().timeUs, second->session()->cursorUs());
  second->session()->setCursor(second->session()->endUs() / 3);
  QCOMPARE(timeline->playbackMarks().timeUs, second->session()->endUs() / 3);

  second->close();
  QTRY_VERIFY(!m_window->replayWindow());
  QVERIFY(!timeline->playbackMarks().active);
  QVERIFY(!timeline->playback());
  QVERIFY(!m_window->programView()->model()->hasPlaybackMarks());
  first->close();
}

QTEST_MAIN(Test_followwindow)
#include "tst_followwindow.moc"
