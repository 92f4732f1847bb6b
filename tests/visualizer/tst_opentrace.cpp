// Replay → Open Trace… in the main window: a simulated trace of the document's own program opens
// a replay window of it; a trace of another program is refused with a message naming the file,
// and no window opens. The action sits in the Replay menu with Ctrl+Shift+O.

#include "window/mainwindow.h"

#include "support/isolatedwindow.h"

#include "catalogue/ringallreduce.h"
#include "document/document.h"
#include "io/chrometrace.h"
#include "model/topologypresets.h"
#include "replaywindow.h"
#include "session/replaysession.h"
#include "sim/simulator.h"
#include "support/files.h"

#include <QAction>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

/// Simulates `program` on the ring-4 preset and writes its Chrome trace to `path`, recorded as
/// called in `mode` when given (as an executor's trace is).
bool writeSimulatedTrace(const Program& program, const QString& path,
                         std::optional<CallMode> mode = std::nullopt)
{
  const Topology topology = *makePresetTopology("ring-4");
  SimResult result = simulateProgram(program, topology, SimOptions{});
  result.trace.mode = mode;
  return cs::test::writeFile(path,
                             QByteArray::fromStdString(writeChromeTrace(result.trace, &topology)));
}

} // namespace

class Test_opentrace : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void opensAReplayOfTheDocumentsProgram();
  void refusesATraceOfAnotherProgram();
  void buffersShowTheRunAsItWasCalled();
  void actionInTheReplayMenu();

private:
  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void Test_opentrace::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = test::openIsolatedRingWindow(m_dir, "tst_opentrace");
  QVERIFY(m_window);
  QVERIFY(m_window->document()->shownProgram().has_value());
}

void Test_opentrace::opensAReplayOfTheDocumentsProgram()
{
  const QString path = m_dir.filePath("ring4.json");
  QVERIFY(writeSimulatedTrace(*m_window->document()->shownProgram(), path));
  QCOMPARE(m_window->openTrace(path), QString());
  auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(replay);
  QVERIFY(replay->isVisible());
  QVERIFY(replay->isWindow());
  QCOMPARE(replay->session()->program().ngpus, 4);
  QCOMPARE(replay->session()->trace().events.size(),
           replay->session()->index().trace().events.size());
  QVERIFY(replay->windowTitle().contains("ring4.json"));
  replay->close(); // deletes itself
  QTRY_VERIFY(!m_window->replayWindow());
}

void Test_opentrace::buffersShowTheRunAsItWasCalled()
{
  // The program's first declared mode where the trace says nothing; the recorded one otherwise.
  const Program& program = *m_window->document()->shownProgram();
  const CallMode declared = declaredModes(program).front();
  const CallMode other = declared == CallMode::InPlace ? CallMode::OutOfPlace : CallMode::InPlace;
  for (const std::optional<CallMode> recorded : {std::optional<CallMode>(), std::optional(other)}) {
    const QString path = m_dir.filePath("moded.json");
    QVERIFY(writeSimulatedTrace(program, path, recorded));
    QCOMPARE(m_window->openTrace(path), QString());
    auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
    QVERIFY(replay);
    QCOMPARE(replay->session()->buffers().mode(), recorded.value_or(declared));
    replay->close();
    QTRY_VERIFY(!m_window->replayWindow());
  }
}

void Test_opentrace::refusesATraceOfAnotherProgram()
{
  const QString path = m_dir.filePath("ring2.json");
  QVERIFY(writeSimulatedTrace(makeRingAllReduce({2, 1, Protocol::Simple}), path));
  const QString error = m_window->openTrace(path);
  QVERIFY2(error.contains("ring2.json"), qPrintable(error));
  QVERIFY(!m_window->replayWindow());
  const QString missing = m_window->openTrace(m_dir.filePath("absent.json"));
  QVERIFY2(missing.contains("absent.json"), qPrintable(missing));
}

void Test_opentrace::actionInTheReplayMenu()
{
  QAction* found = nullptr;
  for (QAction* menu : m_window->menuBar()->actions()) {
    if (menu->text().remove('&') != "Replay" || !menu->menu())
      continue;
    for (QAction* action : menu->menu()->actions()) {
      if (action->text().remove('&').startsWith("Open Trace"))
        found = action;
    }
  }
  QVERIFY(found);
  QCOMPARE(found->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  QVERIFY(found->isEnabled());
}

QTEST_MAIN(Test_opentrace)
#include "tst_opentrace.moc"
