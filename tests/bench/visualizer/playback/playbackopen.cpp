// cs_playbackbench, opening: a large trace file is opened in a process of its own, so its resident
// memory is what opening costs and not what simulating the trace cost the parent.

#include "playbackbench.h"

#include "catalogue/ringallreduce.h"
#include "io/chrometrace.h"
#include "model/topologypresets.h"
#include "session/replaysession.h"
#include "sim/largetrace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <cstdio>
#include <fstream>
#include <string>

namespace cs::bench {

namespace {

/// A field of /proc/self/status in KiB (VmRSS, VmHWM), or -1 where there is none.
long long procStatusKiB(const char* field)
{
  std::ifstream status("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(status, line)) {
    if (line.rfind(prefix, 0) == 0)
      return std::stoll(line.substr(prefix.size()));
  }
  return -1;
}

double elapsedMs(const QElapsedTimer& timer)
{
  return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

bool writeRingTraceFile(int ranks, long long events, const QString& path)
{
  const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
  const std::optional<Topology> topology = makePresetTopology("ring-" + std::to_string(ranks));
  if (!topology)
    return false;
  const std::optional<Trace> trace = simulateTraceOfAtLeast(program, *topology, events);
  if (!trace)
    return false;
  std::ofstream file(path.toStdString(), std::ios::binary);
  writeChromeTrace(*trace, &*topology, file);
  return static_cast<bool>(file);
}

int openTraceAndReport(int ranks, const QString& path)
{
  const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
  std::optional<Topology> topology = makePresetTopology("ring-" + std::to_string(ranks));
  QElapsedTimer timer;
  timer.start();
  {
    // In pieces, so the baseline does not raise the process's peak memory by the file's size.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      return 2;
    QByteArray piece(1 << 20, Qt::Uninitialized);
    while (file.read(piece.data(), piece.size()) > 0) {
    }
  }
  const double readMs = elapsedMs(timer);
  const long long before = procStatusKiB("VmRSS");
  timer.restart();
  visualizer::ReplayOpen opened =
      visualizer::ReplaySession::openFile(program, path, std::move(topology), CallMode::InPlace);
  const double openMs = elapsedMs(timer);
  if (!opened.session) {
    std::fprintf(stderr, "cs_playbackbench: %s\n",
                 opened.diagnostics.empty() ? "cannot open"
                                            : opened.diagnostics.front().message.c_str());
    return 1;
  }
  std::printf("open %.1f read %.1f rss-before %lld rss-after %lld peak %lld events %zu\n", openMs,
              readMs, before, procStatusKiB("VmRSS"), procStatusKiB("VmHWM"),
              opened.session->trace().events.size());
  return 0;
}

std::optional<OpenFigures> measureOpenInChild(int ranks, const QString& path)
{
  QProcess child;
  child.start(QCoreApplication::applicationFilePath(),
              {QStringLiteral("--open"), path, QStringLiteral("--ranks"), QString::number(ranks)});
  if (!child.waitForFinished(600000) || child.exitCode() != 0)
    return std::nullopt;
  static const QRegularExpression line(QStringLiteral(
      R"(open ([\d.]+) read ([\d.]+) rss-before (\d+) rss-after (\d+) peak (\d+) events (\d+))"));
  const QRegularExpressionMatch match =
      line.match(QString::fromUtf8(child.readAllStandardOutput()));
  if (!match.hasMatch())
    return std::nullopt;
  OpenFigures figures;
  figures.openMs = match.captured(1).toDouble();
  figures.readMs = match.captured(2).toDouble();
  figures.rssKiB = match.captured(4).toLongLong() - match.captured(3).toLongLong();
  figures.peakKiB = match.captured(5).toLongLong();
  figures.events = match.captured(6).toLongLong();
  return figures;
}

} // namespace cs::bench
