// cs_playbackbench: the visual debugger's goals, printed with baselines measured in the same run.
//
//   frame: the replay window of a simulated ring all-reduce (64 ranks, >= 100,000 events) moved to
//          a new time: the session's state at t, then the topology playback, the Gantt chart and
//          the buffer view repainted (synchronously, offscreen). Goal <= 16 ms. Baseline: the same
//          three repaints without moving the cursor (what painting alone costs).
//   seek:  the session's state at a new t (ReplayIndex::at plus the views' slots). Goal <= 5 ms.
//   open:  a trace file of >= 1,000,000 events read, validated and indexed by
//          ReplaySession::openFile in a fresh process: time (goal <= 2 s) and the resident memory
//          it added (goal <= 250 MB); with --open-events 10000000, goal <= 20 s. Baseline:
//          reading the file's bytes.
//
//   cs_playbackbench [--ranks N] [--events N] [--frames N] [--open-events N] [--no-open]
//                    [--keep FILE]   (write the large trace to FILE and keep it)
//   cs_playbackbench --open FILE [--ranks N]   (only open FILE, a trace of the N-rank ring)

#include "playbackbench.h"

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "replaywindow.h"
#include "session/replaysession.h"
#include "sim/largetrace.h"
#include "views/bufferview.h"
#include "views/ganttview.h"
#include "views/topologyplaybackview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Options {
  int ranks = 64;
  long long events = 100000;
  int frames = 60;
  long long openEvents = 1000000;
  bool open = true;
  QString childOpen; ///< --open FILE: the child mode
  QString keep;      ///< --keep FILE: where to write the large trace (kept for profiling)
};

Options parse(const QStringList& arguments)
{
  Options options;
  for (int i = 0; i < arguments.size(); ++i) {
    const QString& argument = arguments[i];
    const bool hasValue = i + 1 < arguments.size();
    if (argument == QLatin1String("--ranks") && hasValue)
      options.ranks = std::max(2, arguments[++i].toInt());
    else if (argument == QLatin1String("--events") && hasValue)
      options.events = std::max(1LL, arguments[++i].toLongLong());
    else if (argument == QLatin1String("--frames") && hasValue)
      options.frames = std::max(1, arguments[++i].toInt());
    else if (argument == QLatin1String("--open-events") && hasValue)
      options.openEvents = std::max(1LL, arguments[++i].toLongLong());
    else if (argument == QLatin1String("--no-open"))
      options.open = false;
    else if (argument == QLatin1String("--open") && hasValue)
      options.childOpen = arguments[++i];
    else if (argument == QLatin1String("--keep") && hasValue)
      options.keep = arguments[++i];
  }
  return options;
}

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

double elapsedMs(const QElapsedTimer& timer)
{
  return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

/// Frames of the replay window; returns 0, or 2 when the trace cannot be made.
int benchFrames(const Options& options)
{
  using namespace cs;
  const Program program = makeRingAllReduce({options.ranks, 1, Protocol::Simple});
  std::optional<Topology> topology = makePresetTopology("ring-" + std::to_string(options.ranks));
  if (!topology)
    return 2;
  const std::optional<Trace> trace = simulateTraceOfAtLeast(program, *topology, options.events);
  if (!trace)
    return 2;
  visualizer::ReplayOpen opened =
      visualizer::ReplaySession::open(program, *trace, std::move(topology), CallMode::InPlace);
  if (!opened.session)
    return 2;
  visualizer::ReplaySession* session = opened.session.get();
  visualizer::ReplayWindow window(std::move(opened.session));
  window.resize(1300, 860);
  window.show();
  QCoreApplication::processEvents();
  QWidget* views[] = {window.topologyView(), window.gantt(), window.bufferView()};
  for (QWidget* view : views) {
    if (!view->isVisible())
      std::printf("  (note: %s is not visible: its paint is not measured)\n",
                  view->metaObject()->className());
  }

  std::mt19937 random(11);
  std::uniform_real_distribution<double> anyTime(0, session->endUs());
  std::vector<double> frame, paint, seek;
  for (int i = 0; i < options.frames; ++i) {
    QElapsedTimer timer;
    timer.start();
    session->setCursor(anyTime(random));
    seek.push_back(elapsedMs(timer));
    // One repaint() paints every dirty widget of the window (one backing store), so the views
    // are timed together.
    for (QWidget* view : views)
      view->repaint();
    frame.push_back(elapsedMs(timer));
    timer.restart();
    for (QWidget* view : views)
      view->repaint();
    paint.push_back(elapsedMs(timer));
  }
  const double frameMs = median(frame);
  const double paintMs = median(paint);
  std::printf("cs_playbackbench: ring all-reduce, %d ranks on ring-%d, %zu events, %d frames "
              "(median), window 1300x860 offscreen\n",
              options.ranks, options.ranks, session->trace().events.size(), options.frames);
  std::printf("  %-52s %8.2f ms\n", "baseline: repaint the three views, same t", paintMs);
  std::printf("  %-52s %8.2f ms   goal <= 16 ms: %s   ratio %.2fx baseline\n",
              "frame: move to a new t + repaint the three views", frameMs,
              frameMs <= 16 ? "met" : "MISSED", paintMs > 0 ? frameMs / paintMs : 0.0);
  std::printf("  %-52s %8.3f ms   goal <= 5 ms: %s\n", "seek: the session's state at a new t",
              median(seek), median(seek) <= 5 ? "met" : "MISSED");
  return 0;
}

int benchOpen(const Options& options)
{
  QTemporaryDir dir;
  const QString path =
      options.keep.isEmpty() ? dir.filePath(QStringLiteral("large-trace.json")) : options.keep;
  if (!cs::bench::writeRingTraceFile(options.ranks, options.openEvents, path))
    return 2;
  const std::optional<cs::bench::OpenFigures> figures =
      cs::bench::measureOpenInChild(options.ranks, path);
  if (!figures)
    return 1;
  const double mb = static_cast<double>(figures->rssKiB) / 1024.0;
  std::printf("  open a %lld-event trace file (%.0f MB) in a fresh process:\n", figures->events,
              static_cast<double>(QFileInfo(path).size()) / 1e6);
  std::printf("  %-52s %8.1f ms\n", "baseline: read the file's bytes", figures->readMs);
  // The goals: 1,000,000 events in 2 s and 250 MB, 10,000,000 in 20 s.
  const bool tenMillion = figures->events >= 10000000;
  const double goalMs = tenMillion ? 20000 : 2000;
  std::printf("  %-52s %8.1f ms   goal <= %.0f ms: %s   ratio %.1fx baseline\n",
              "open: parse + validate + index + buffer replay", figures->openMs, goalMs,
              figures->openMs <= goalMs ? "met" : "MISSED",
              figures->readMs > 0 ? figures->openMs / figures->readMs : 0.0);
  if (tenMillion)
    std::printf("  %-52s %8.1f MB   (peak of the process %.1f MB)\n",
                "resident memory the open added", mb,
                static_cast<double>(figures->peakKiB) / 1024.0);
  else
    std::printf("  %-52s %8.1f MB   goal <= 250 MB: %s (peak of the process %.1f MB)\n",
                "resident memory the open added", mb, mb <= 250 ? "met" : "MISSED",
                static_cast<double>(figures->peakKiB) / 1024.0);
  return 0;
}

} // namespace

int main(int argc, char** argv)
{
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const Options options = parse(QCoreApplication::arguments().mid(1));
  if (!options.childOpen.isEmpty())
    return cs::bench::openTraceAndReport(options.ranks, options.childOpen);
  if (const int status = benchFrames(options); status != 0) {
    std::fprintf(stderr, "cs_playbackbench: could not make the trace\n");
    return status;
  }
  if (options.open) {
    if (const int status = benchOpen(options); status != 0) {
      std::fprintf(stderr, "cs_playbackbench: opening the large trace failed\n");
      return status;
    }
  }
  return 0;
}
