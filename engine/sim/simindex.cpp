#include "simindex.h"

#include "model/routing.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace cs::sim {

namespace {

Location stepLocation(int rank, const ThreadBlock& tb, int position)
{
  Location location;
  location.rank = rank;
  location.tb = tb.id;
  location.step = position;
  location.line = tb.steps[position].line;
  return location;
}

Location tbLocation(int rank, const ThreadBlock& tb)
{
  Location location;
  location.rank = rank;
  location.tb = tb.id;
  location.line = tb.line;
  return location;
}

/// Peers, step types and dependencies the loop relies on.
bool checkThreadblocks(const Program& program, Diagnostics& diagnostics)
{
  const int ranks = static_cast<int>(program.gpus.size());
  bool ok = true;
  const auto invalid = [&](std::string message, Location location) {
    diagnostics.error("sim.invalid-program", std::move(message), std::move(location));
    ok = false;
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const Gpu& gpu = program.gpus[rank];
    if (gpu.id != rank) {
      invalid("gpu ids must be 0.." + std::to_string(ranks - 1) + " in order; found id " +
                  std::to_string(gpu.id) + " at position " + std::to_string(rank),
              {});
      continue;
    }
    std::set<int> ids;
    for (const ThreadBlock& tb : gpu.threadblocks) {
      if (!ids.insert(tb.id).second)
        invalid("threadblock id " + std::to_string(tb.id) + " appears twice", tbLocation(rank, tb));
      for (const int peer : {tb.send, tb.recv}) {
        if (peer < -1 || peer >= ranks || peer == rank)
          invalid("peer " + std::to_string(peer) + " is not another rank in 0.." +
                      std::to_string(ranks - 1),
                  tbLocation(rank, tb));
      }
    }
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
        const Step& step = tb.steps[s];
        const OpTraits traits = opTraits(step.type);
        if (traits.sends && tb.send < 0)
          invalid(std::string(opTypeName(step.type)) + " needs a send peer",
                  stepLocation(rank, tb, s));
        if (traits.receives && tb.recv < 0)
          invalid(std::string(opTypeName(step.type)) + " needs a receive peer",
                  stepLocation(rank, tb, s));
        if (step.depid < 0)
          continue;
        const ThreadBlock* target = program.threadblock(rank, step.depid);
        if (!target || step.deps < 0 || step.deps >= static_cast<int>(target->steps.size()))
          invalid("depends on tb " + std::to_string(step.depid) + " step " +
                      std::to_string(step.deps) + ", which does not exist",
                  stepLocation(rank, tb, s));
      }
    }
  }
  return ok;
}

} // namespace

int linkResource(const Topology& topology, int link, bool aToB)
{
  return 2 * link + (aToB || !topology.links[link].duplex ? 0 : 1);
}

std::optional<SimIndex> buildSimIndex(const Program& program, const Topology& topology,
                                      Diagnostics& diagnostics)
{
  if (!checkThreadblocks(program, diagnostics))
    return std::nullopt;
  const int ranks = static_cast<int>(program.gpus.size());
  SimIndex index;

  bool gpusOk = true;
  for (int rank = 0; rank < ranks; ++rank) {
    if (!topology.gpuNode(rank)) {
      Location location;
      location.rank = rank;
      diagnostics.error("sim.no-gpu",
                        "rank " + std::to_string(rank) + " has no GPU in topology \"" +
                            topology.name + "\", which hosts " +
                            std::to_string(topology.rankCount()) + " ranks",
                        location);
      gpusOk = false;
    }
  }
  if (!gpusOk)
    return std::nullopt;

  std::unordered_map<int, int> linkIndex;
  for (std::size_t i = 0; i < topology.links.size(); ++i)
    linkIndex[topology.links[i].id] = static_cast<int>(i);
  index.capacities.resize(2 * topology.links.size());
  for (std::size_t i = 0; i < topology.links.size(); ++i) {
    // GB/s = 10^9 bytes/s = 10^3 bytes/µs.
    index.capacities[2 * i] = topology.links[i].bandwidthGBps * 1e3;
    index.capacities[2 * i + 1] = topology.links[i].bandwidthGBps * 1e3;
  }

  // Global threadblock indices and connections, in rank and tb order.
  std::map<std::pair<int, int>, int> globalTb;
  std::map<std::tuple<int, int, int>, int> connectionIds;
  std::map<std::tuple<int, int, int>, const ThreadBlock*> senders;
  std::map<std::tuple<int, int, int>, const ThreadBlock*> receivers;
  const auto connection = [&](int from, int to, int channel) {
    const auto key = std::make_tuple(from, to, channel);
    const auto found = connectionIds.find(key);
    if (found != connectionIds.end())
      return found->second;
    const int id = static_cast<int>(index.connections.size());
    index.connections.push_back({from, to, channel, {}, {}, {}, 0});
    connectionIds[key] = id;
    return id;
  };
  bool ok = true;
  for (int rank = 0; rank < ranks; ++rank) {
    for (const ThreadBlock& tb : program.gpus[rank].threadblocks) {
      globalTb[{rank, tb.id}] = static_cast<int>(index.tbs.size());
      TbInfo info;
      info.rank = rank;
      info.tb = &tb;
      index.maxSteps = std::max(index.maxSteps, static_cast<int>(tb.steps.size()));
      const auto claim = [&](auto& ends, std::tuple<int, int, int> key, const char* side) {
        const auto [it, inserted] = ends.emplace(key, &tb);
        if (!inserted) {
          diagnostics.error("sim.invalid-program",
                            std::string("threadblocks ") + std::to_string(it->second->id) +
                                " and " + std::to_string(tb.id) + " both " + side +
                                " on the same connection (channel " + std::to_string(tb.chan) + ")",
                            tbLocation(rank, tb));
          ok = false;
        }
      };
      if (tb.send >= 0) {
        claim(senders, std::make_tuple(rank, tb.send, tb.chan), "send");
        info.sendConnection = connection(rank, tb.send, tb.chan);
      }
      if (tb.recv >= 0) {
        claim(receivers, std::make_tuple(tb.recv, rank, tb.chan), "receive");
        info.receiveConnection = connection(tb.recv, rank, tb.chan);
      }
      index.tbs.push_back(std::move(info));
    }
  }
  if (!ok)
    return std::nullopt;
  for (TbInfo& info : index.tbs) {
    for (const Step& step : info.tb->steps)
      info.depTarget.push_back(step.depid >= 0 ? globalTb.at({info.rank, step.depid}) : -1);
  }

  // Routes, one search per sending rank.
  std::map<int, std::vector<int>> bySource;
  for (std::size_t c = 0; c < index.connections.size(); ++c)
    bySource[index.connections[c].from].push_back(static_cast<int>(c));
  for (const auto& [from, ids] : bySource) {
    std::vector<int> targets;
    for (const int c : ids)
      targets.push_back(topology.gpuNode(index.connections[c].to)->id);
    const std::vector<std::optional<Route>> routes =
        findRoutes(topology, topology.gpuNode(from)->id, targets);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ConnectionInfo& info = index.connections[ids[i]];
      if (!routes[i]) {
        Location location;
        location.rank = from;
        diagnostics.error("sim.no-route",
                          "no route from rank " + std::to_string(from) + " to rank " +
                              std::to_string(info.to) + " in topology \"" + topology.name +
                              "\" (GPUs do not forward; add a link or a switch)",
                          location);
        ok = false;
        continue;
      }
      info.latencyUs = routes[i]->latencyUs;
      for (const Hop& hop : routes[i]->hops) {
        const int link = linkIndex.at(hop.link);
        info.linkPath.push_back(hop.link);
        info.hops.emplace_back(link, hop.aToB);
        info.resources.push_back(linkResource(topology, link, hop.aToB));
      }
    }
  }
  if (!ok)
    return std::nullopt;
  return index;
}

} // namespace cs::sim
