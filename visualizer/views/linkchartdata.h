#pragma once

// The numbers behind the link chart (issue 14 item 5): which links to show first and each link's
// utilisation over the run, from the simulator's samples or, for measured runs (no samples), from
// the replay index's link loads, which are constant between message starts and ends.

#include "replay/replayindex.h"

#include <QList>
#include <QPointF>

#include <cstddef>
#include <vector>

namespace cs::visualizer {

/// Up to `count` link ids, busiest first: by the bytes the trace's LinkUsage counts in both
/// directions, else by the bytes the index's messages route over each link.
std::vector<int> busiestLinks(const replay::ReplayIndex& index, std::size_t count);

/// `link`'s utilisation in percent over the run as a step series (time µs, 0..100): each sample
/// of the trace's LinkUsage, else the index's load after each message start or end.
QList<QPointF> linkUtilisationSeries(const replay::ReplayIndex& index, int link);

/// Turns (time, fraction 0..1) samples into a step series in percent: the value holds until the
/// next sample's time.
QList<QPointF> stepSeries(const std::vector<std::pair<double, double>>& samples);

} // namespace cs::visualizer
