#pragma once

// Whether an algorithm can run on the topology it is drawn for: every rank on a GPU, and every
// pair of ranks that exchange data joined by a route (data only passes through switches, NICs
// and CPUs, never a third GPU: routing.h) whose links all carry something. An algorithm without
// a topology is not checked against one.

#include "model/diagnostic.h"
#include "model/program.h"
#include "model/schedule.h"
#include "model/topology.h"

#include <vector>

namespace cs {

/// A sender and a receiver that exchange data, and where the exchange is written: a transfer
/// of the timeline (location.transfer) or a threadblock of a Program (location.rank and tb).
struct RankExchange {
  int from = 0;
  int to = 0;
  Location location;
};

/// The timeline's transfers between two ranks, in transfer order.
std::vector<RankExchange> scheduleExchanges(const Schedule& schedule);
/// Each threadblock that sends (rank -> its send peer), in rank and threadblock order.
std::vector<RankExchange> programExchanges(const Program& program);

/// topology.rank-unmapped (a rank on no GPU: error), topology.idle-gpus (GPUs hosting ranks the
/// algorithm does not have: warning), topology.no-route and topology.zero-bandwidth (an
/// exchange that cannot happen: error at the exchange).
void checkTopologyFit(const Topology& topology, int ranks,
                      const std::vector<RankExchange>& exchanges, Diagnostics& out);

} // namespace cs
