#pragma once

// The two halves of cs_playbackbench: playback frames (playbackbench.cpp) and opening a large
// trace file in a process of its own (playbackopen.cpp).

#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"

#include <QString>

#include <optional>

namespace cs::bench {

/// Writes the ring's trace of at least `events` events to `path`; false when it cannot.
bool writeRingTraceFile(int ranks, long long events, const QString& path);

/// Child mode: reads `path` and opens a replay session on it, printing one line
/// "open <ms> read <ms> rss-before <KiB> rss-after <KiB> peak <KiB> events <n>"; 0 on success.
int openTraceAndReport(int ranks, const QString& path);

/// The open figures as the child process printed them.
struct OpenFigures {
  double openMs = 0;    ///< read + parse + validate + index + buffer replay: what File > Open pays
  double readMs = 0;    ///< the baseline: reading the file's bytes
  long long rssKiB = 0; ///< resident memory the open added
  long long peakKiB = 0;
  long long events = 0;
};
/// Runs this program again in `--open` mode on `path` and parses its line.
std::optional<OpenFigures> measureOpenInChild(int ranks, const QString& path);

} // namespace cs::bench
