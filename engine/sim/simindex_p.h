#pragma once

// What the simulator's event loop needs to know about a Program and a Topology before it starts,
// checked once: threadblocks by global index, the dependency target of every step, the
// connections with their routes and link resources. Anything the loop could trip over
// (peers out of range, missing GPUs or routes) becomes a sim.* diagnostic here instead.

#include "estimates.h"
#include "model/diagnostic.h"
#include "model/program.h"
#include "model/topology.h"
#include "protocolmodel.h"

#include <map>
#include <optional>
#include <vector>

namespace cs::sim {

/// What the event loop reads of a step, copied out of the Program into one array: the loop
/// visits millions of steps of thousands of threadblocks in turn, and the Program's own steps
/// and threadblocks (scattered over the heap, three times the size) missed the cache each time.
struct SimStep {
  int cnt = 0;
  int deps = -1;
  int depTarget = -1; ///< global index of the depid threadblock, or -1
  OpType type = OpType::Nop;
  bool hasdep = false;
};

/// One threadblock of the program.
struct TbInfo {
  int rank = 0;
  const ThreadBlock* tb = nullptr;
  int sendConnection = -1; ///< index into SimIndex::connections
  int receiveConnection = -1;
  int firstStep = 0; ///< its steps are SimIndex::steps[firstStep .. firstStep + stepCount)
  int stepCount = 0;
};

/// Messages from `from` to `to` on `channel`, and the path they take.
struct ConnectionInfo {
  int from = 0;
  int to = 0;
  int channel = 0;
  std::vector<int> resources;             ///< FlowNetwork resources crossed (one per hop)
  std::vector<int> linkPath;              ///< topology link ids crossed
  std::vector<std::pair<int, bool>> hops; ///< (link index, a→b) per hop, for byte counters
  double latencyUs = 0;
  HopClass hopClass = HopClass::NvLink; ///< which of the protocol's per-hop latencies it pays
};

struct SimIndex {
  std::vector<TbInfo> tbs;
  std::map<std::pair<int, int>, int> tbOf; ///< (rank, threadblock id) → index into tbs
  std::vector<SimStep> steps;              ///< every threadblock's steps, in tbs order
  std::vector<ConnectionInfo> connections;
  std::vector<double> capacities; ///< bytes/µs per resource: 2 per link (a→b, b→a)
  int maxSteps = 0;               ///< longest threadblock, for flag keys
};

/// Resource of link index `link` crossed in direction `aToB` (half-duplex links share one).
int linkResource(const Topology& topology, int link, bool aToB);

/// estimateNcclAllReduce given the routes of the index's connections: a 1,024-rank fabric need not
/// be searched again for the ring neighbours a ring program already connects.
std::optional<NcclEstimate> estimateNccl(const Topology& topology, const SimIndex& index, int ranks,
                                         std::int64_t bytes, const ProtocolParams& protocol);

/// Builds the index, or nullopt with errors appended to `diagnostics`.
std::optional<SimIndex> buildSimIndex(const Program& program, const Topology& topology,
                                      Diagnostics& diagnostics);

} // namespace cs::sim
