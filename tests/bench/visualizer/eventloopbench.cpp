// cs_eventloopbench: issue 14's goal "the event loop is never blocked more than 50 ms during a
// 64 MiB CPU run or a sweep". A 1 ms timer on the GUI thread records the longest gap between its
// ticks while
//   1. a RunJob runs the catalogue's 4-rank ring all-reduce at 64 MiB on the CPU,
//   2. the Run panel does the same run end to end (the run, then storing it with its trace and
//      opening the replay window, both on the GUI thread),
//   3. the Benchmark Sweep window sweeps 1 KiB..4 MiB on the simulator and the CPU (SweepJob,
//      the chart and table growing, every point stored);
// each against an idle event loop's longest gap over the same duration, measured in the same run.
//
//   cs_eventloopbench [--size BYTES] [--repeats N]

#include "catalogue/ringallreduce.h"
#include "document/document.h"
#include "io/bytesize.h"
#include "io/mscclxmlwriter.h"
#include "library.h"
#include "replaywindow.h"
#include "run/runjob.h"
#include "run/runpanel.h"
#include "sweep/sweepwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

using namespace cs;
using namespace cs::visualizer;

namespace {

constexpr double kGoalMs = 50.0;

/// How long something took and the longest the event loop waited meanwhile.
struct Stall {
  double durationMs = 0;
  double longestGapMs = 0;
};

/// Runs the event loop until `begin`'s callback says it is done, ticking a 1 ms timer.
Stall measure(const std::function<void(std::function<void()> done)>& begin)
{
  QEventLoop loop;
  QElapsedTimer clock;
  double last = 0;
  Stall stall;
  QTimer tick;
  tick.setTimerType(Qt::PreciseTimer);
  tick.setInterval(1);
  QObject::connect(&tick, &QTimer::timeout, [&] {
    const double now = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    stall.longestGapMs = std::max(stall.longestGapMs, now - last);
    last = now;
  });
  clock.start();
  tick.start();
  QTimer::singleShot(0, &loop, [&] { begin([&loop] { loop.quit(); }); });
  loop.exec();
  const double now = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  stall.longestGapMs = std::max(stall.longestGapMs, now - last);
  stall.durationMs = now;
  return stall;
}

/// The idle event loop over `durationMs`: the scheduler's own noise on this machine.
Stall idle(double durationMs)
{
  return measure([durationMs](std::function<void()> done) {
    QTimer::singleShot(static_cast<int>(durationMs), std::move(done));
  });
}

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

/// Measures `begin` `repeats` times, each followed by an idle loop of the same duration, and
/// prints the median and worst longest stall of both (the machine is shared: one run can be
/// unlucky).
void report(const QString& what, int repeats,
            const std::function<void(std::function<void()> done)>& begin)
{
  std::vector<double> busy;
  std::vector<double> baseline;
  double seconds = 0;
  for (int i = 0; i < repeats; ++i) {
    const Stall stall = measure(begin);
    busy.push_back(stall.longestGapMs);
    baseline.push_back(idle(stall.durationMs).longestGapMs);
    seconds += stall.durationMs / 1000 / repeats;
  }
  const double worst = *std::max_element(busy.begin(), busy.end());
  std::printf("event loop: longest stall %.1f ms (median of %d; worst %.1f ms) during %s "
              "(%.2f s each; goal <= %.0f ms: %s); idle baseline %.1f ms (worst %.1f ms) over "
              "the same time; ratio %.1fx\n",
              median(busy), repeats, worst, qPrintable(what), seconds, kGoalMs,
              median(busy) <= kGoalMs ? "met" : "MISSED", median(baseline),
              *std::max_element(baseline.begin(), baseline.end()),
              median(busy) / std::max(median(baseline), 1e-3));
  std::fflush(stdout);
}

/// What every measurement runs on: the 4-rank ring, saved in a temporary library so runs are
/// stored as from a library document.
struct Setup {
  QTemporaryDir dir;
  std::optional<storage::Library> library;
  editor::Document document;
  std::int64_t bytes = std::int64_t{64} << 20;
  int repeats = 5;
  QString size; ///< bytes for people
};

bool prepare(Setup& setup)
{
  const QStringList args = QCoreApplication::arguments();
  if (const qsizetype at = args.indexOf(QStringLiteral("--size")); at >= 0 && at + 1 < args.size())
    setup.bytes = parseByteSize(args[at + 1].toStdString()).value_or(setup.bytes);
  if (const qsizetype at = args.indexOf(QStringLiteral("--repeats"));
      at >= 0 && at + 1 < args.size())
    setup.repeats = std::max(1, args[at + 1].toInt());
  setup.size = QString::fromStdString(formatByteSize(setup.bytes));
  storage::OpenOptions options;
  options.seed = false;
  auto opened = storage::Library::open(setup.dir.filePath("library.sqlite").toStdString(), options);
  if (!opened.ok()) {
    std::fprintf(stderr, "cannot open a library: %s\n", opened.error().message.c_str());
    return false;
  }
  setup.library.emplace(std::move(opened.value()));
  setup.document.setProgram(makeRingAllReduce({4, 1, Protocol::Simple}));
  setup.document.waitForAnalysis();
  storage::SaveRequest save;
  save.name = "ring4";
  save.content.xml = writeMscclXml(*setup.document.shownProgram(), {}).text;
  if (!setup.library->save(save).ok())
    return false;
  setup.document.setOrigin({{}, QStringLiteral("ring4"), 1});
  return true;
}

void benchRunJob(Setup& setup)
{
  RunJob job;
  report(QStringLiteral("a %1 cpu run (RunJob)").arg(setup.size), setup.repeats,
         [&](std::function<void()> done) {
           QObject::disconnect(&job, &RunJob::finished, nullptr, nullptr);
           QObject::connect(&job, &RunJob::finished, &job, [done] { done(); });
           RunRequest request;
           request.backend = QStringLiteral("cpu");
           request.program = *setup.document.shownProgram();
           request.options.bytes = setup.bytes;
           job.start(std::move(request));
         });
}

void benchRunPanel(Setup& setup)
{
  RunPanel panel(&setup.document, [&setup] { return &*setup.library; });
  QElapsedTimer clock;
  clock.start();
  std::atomic<qint64> workerEnd{0};
  std::vector<double> endOfRunMs;
  panel.show();
  panel.selectBackend(QStringLiteral("cpu"));
  panel.sizeEdit()->setText(QString::number(setup.bytes));
  idle(200);
  report(QStringLiteral("a %1 cpu run from the Run panel (run, store, replay)").arg(setup.size),
         setup.repeats, [&](std::function<void()> done) {
           delete panel.replayWindow();
           QObject::disconnect(&panel, &RunPanel::runFinished, nullptr, nullptr);
           QObject::connect(&panel, &RunPanel::runFinished, &panel, [&, done] {
             endOfRunMs.push_back(static_cast<double>(clock.nsecsElapsed() - workerEnd) / 1e6);
             done();
           });
           if (!panel.run()) {
             std::fprintf(stderr, "the Run panel did not start: %s\n",
                          qPrintable(panel.verdictText()));
             done();
             return;
           }
           // From the worker's end to runFinished: the panel's work on the GUI thread.
           QObject::connect(
               panel.job()->thread(), &QThread::finished, panel.job()->thread(),
               [&] { workerEnd = clock.nsecsElapsed(); }, Qt::DirectConnection);
         });
  delete panel.replayWindow();
  if (!endOfRunMs.empty())
    std::printf("  the Run panel's end of a run (store it with its trace, open the replay "
                "window) on the GUI thread: median %.1f ms, worst %.1f ms\n",
                median(endOfRunMs), *std::max_element(endOfRunMs.begin(), endOfRunMs.end()));
}

void benchSweep(Setup& setup)
{
  SweepWindow sweep(&setup.document, [&setup] { return &*setup.library; });
  sweep.resize(1300, 820);
  sweep.show();
  sweep.setSizeRange(std::int64_t{1} << 10, std::int64_t{4} << 20);
  idle(200); // the window's first layout and paint are not part of the sweep
  report(QStringLiteral("a sweep 1 KiB..4 MiB, simulated and cpu (Sweep window, points stored)"),
         setup.repeats, [&](std::function<void()> done) {
           QObject::disconnect(&sweep, &SweepWindow::sweepFinished, nullptr, nullptr);
           QObject::connect(&sweep, &SweepWindow::sweepFinished, &sweep, [done] { done(); });
           if (!sweep.start()) {
             std::fprintf(stderr, "the sweep did not start: %s\n", qPrintable(sweep.statusText()));
             done();
           }
         });
  std::printf("  %s (each sweep)\n", qPrintable(sweep.storeText()));
}

} // namespace

int main(int argc, char** argv)
{
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  Setup setup;
  if (!prepare(setup))
    return 1;
  benchRunJob(setup);
  benchRunPanel(setup);
  benchSweep(setup);
  return 0;
}
