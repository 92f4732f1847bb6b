#pragma once

// Small programs and topologies the simulator tests share.

#include "model/program.h"
#include "model/routing.h"
#include "model/topology.h"

#include <QStringList>

#include <vector>

namespace cs::test {

inline Step makeStep(int position, OpType type, int chunk, int cnt = 1)
{
  Step step;
  step.s = position;
  step.type = type;
  step.srcBuf = Buffer::Input;
  step.srcOff = chunk;
  step.dstBuf = Buffer::Output;
  step.dstOff = chunk;
  step.cnt = type == OpType::Nop ? 0 : cnt;
  return step;
}

/// A program of `ranks` ranks, `nchunks` chunks per loop and no threadblocks yet.
inline Program emptyProgram(int ranks, int nchunks, Collective collective = Collective::Custom)
{
  Program program = programOfRanks(ranks, {nchunks, nchunks, 0});
  program.name = "test";
  program.nchunksperloop = nchunks;
  program.collective = collective;
  program.collSpelling = "custom";
  return program;
}

/// Adds a threadblock to `rank` and returns it.
inline ThreadBlock& addThreadblock(Program& program, int rank, int send, int recv, int chan = 0)
{
  return appendThreadblock(program, rank, send, recv, chan);
}

/// Appends a step at the end of `tb`.
inline Step& addStep(ThreadBlock& tb, OpType type, int chunk, int cnt = 1)
{
  tb.steps.push_back(makeStep(static_cast<int>(tb.steps.size()), type, chunk, cnt));
  return tb.steps.back();
}

/// Ranks 0..gpus-1 on GPUs joined to one switch node, each by one link of `bandwidth` GB/s.
inline Topology starTopology(int gpus, double bandwidth, double latency, bool duplex = true)
{
  Topology topology;
  topology.name = "star";
  for (int r = 0; r < gpus; ++r)
    topology.nodes.push_back({r, NodeKind::Gpu, "GPU" + std::to_string(r), r, 0, 0});
  topology.nodes.push_back({gpus, NodeKind::NvSwitch, "switch", -1, 0, 0});
  for (int r = 0; r < gpus; ++r)
    topology.links.push_back({r, r, gpus, LinkKind::NvLink, bandwidth, latency, duplex});
  return topology;
}

/// The node names a route visits, starting at node `from`.
inline QStringList pathNames(const Topology& topology, const Route& route, int from)
{
  QStringList names{QString::fromStdString(topology.node(from)->name)};
  for (const Hop& hop : route.hops) {
    const TopologyLink* link = topology.link(hop.link);
    names << QString::fromStdString(topology.node(hop.aToB ? link->b : link->a)->name);
  }
  return names;
}

} // namespace cs::test
