#include "simindex_p.h"

#include "model/routing.h"

#include <limits>
#include <map>
#include <memory>
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

namespace {

bool everyRankHasAGpu(const Program& program, const Topology& topology, Diagnostics& diagnostics)
{
  bool ok = true;
  for (int rank = 0; rank < static_cast<int>(program.gpus.size()); ++rank) {
    if (!topology.gpuNode(rank)) {
      Location location;
      location.rank = rank;
      diagnostics.error("sim.no-gpu",
                        "rank " + std::to_string(rank) + " has no GPU in topology \"" +
                            topology.name + "\", which hosts " +
                            std::to_string(topology.rankCount()) + " ranks",
                        location);
      ok = false;
    }
  }
  return ok;
}

/// Bytes per µs of each resource: both directions of every link (GB/s = 10^3 bytes/µs).
std::vector<double> linkCapacities(const Topology& topology)
{
  std::vector<double> capacities(2 * topology.links.size());
  for (std::size_t i = 0; i < topology.links.size(); ++i) {
    capacities[2 * i] = topology.links[i].bandwidthGBps * 1e3;
    capacities[2 * i + 1] = topology.links[i].bandwidthGBps * 1e3;
  }
  return capacities;
}

/// Global threadblock indices and connections, in rank and tb order; one sender and one receiver
/// per connection.
class ThreadblockIndexer
{
public:
  ThreadblockIndexer(SimIndex& index, Diagnostics& diagnostics)
      : m_index(index), m_diagnostics(diagnostics)
  {
  }

  bool add(const Program& program)
  {
    for (int rank = 0; rank < static_cast<int>(program.gpus.size()); ++rank) {
      for (const ThreadBlock& tb : program.gpus[rank].threadblocks)
        addThreadblock(rank, tb);
    }
    if (!m_ok)
      return false;
    m_index.steps.reserve(static_cast<std::size_t>(std::max(0, program.stepCount())));
    for (TbInfo& info : m_index.tbs) {
      info.firstStep = static_cast<int>(m_index.steps.size());
      info.stepCount = static_cast<int>(info.tb->steps.size());
      for (const Step& step : info.tb->steps) {
        const int target = step.depid >= 0 ? m_index.tbOf.at({info.rank, step.depid}) : -1;
        m_index.steps.push_back({step.cnt, step.deps, target, step.type, step.hasdep});
      }
    }
    return true;
  }

private:
  using Key = std::tuple<int, int, int>; ///< (from, to, channel)

  void addThreadblock(int rank, const ThreadBlock& tb)
  {
    m_index.tbOf[{rank, tb.id}] = static_cast<int>(m_index.tbs.size());
    TbInfo info;
    info.rank = rank;
    info.tb = &tb;
    m_index.maxSteps = std::max(m_index.maxSteps, static_cast<int>(tb.steps.size()));
    if (tb.send >= 0) {
      claim(m_senders, {rank, tb.send, tb.chan}, rank, tb, "send");
      info.sendConnection = connection({rank, tb.send, tb.chan});
    }
    if (tb.recv >= 0) {
      claim(m_receivers, {tb.recv, rank, tb.chan}, rank, tb, "receive");
      info.receiveConnection = connection({tb.recv, rank, tb.chan});
    }
    m_index.tbs.push_back(std::move(info));
  }

  void claim(std::map<Key, const ThreadBlock*>& ends, const Key& key, int rank,
             const ThreadBlock& tb, const char* side)
  {
    const auto [it, inserted] = ends.emplace(key, &tb);
    if (inserted)
      return;
    m_diagnostics.error("sim.invalid-program",
                        std::string("threadblocks ") + std::to_string(it->second->id) + " and " +
                            std::to_string(tb.id) + " both " + side +
                            " on the same connection (channel " + std::to_string(tb.chan) + ")",
                        tbLocation(rank, tb));
    m_ok = false;
  }

  int connection(const Key& key)
  {
    const auto found = m_connectionIds.find(key);
    if (found != m_connectionIds.end())
      return found->second;
    const int id = static_cast<int>(m_index.connections.size());
    const auto& [from, to, channel] = key;
    m_index.connections.push_back({from, to, channel, {}, {}, {}, 0});
    m_connectionIds[key] = id;
    return id;
  }

  SimIndex& m_index;
  Diagnostics& m_diagnostics;
  bool m_ok = true;
  std::map<Key, int> m_connectionIds;
  std::map<Key, const ThreadBlock*> m_senders;
  std::map<Key, const ThreadBlock*> m_receivers;
};

/// Every connection's route, one search per sending rank.
bool routeConnections(const Topology& topology, SimIndex& index, Diagnostics& diagnostics)
{
  std::unordered_map<int, int> linkIndex;
  for (std::size_t i = 0; i < topology.links.size(); ++i)
    linkIndex[topology.links[i].id] = static_cast<int>(i);
  std::unordered_map<int, int> gpuOfRank;
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      gpuOfRank.emplace(node.rank, node.id);
  }
  std::map<int, std::vector<int>> bySource;
  for (std::size_t c = 0; c < index.connections.size(); ++c)
    bySource[index.connections[c].from].push_back(static_cast<int>(c));
  bool ok = true;
  RouteFinder finder(topology);
  for (const auto& [from, ids] : bySource) {
    std::vector<int> targets;
    for (const int c : ids)
      targets.push_back(gpuOfRank.at(index.connections[c].to));
    const std::vector<std::optional<Route>> routes = finder.routes(gpuOfRank.at(from), targets);
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
      info.hopClass = hopClassOfPath(topology, info.linkPath);
    }
  }
  return ok;
}

/// The routes of the index's connections by (from rank, to rank), as routing.h gives them.
KnownRoute knownRoutes(const Topology& topology, const SimIndex& index)
{
  auto routes = std::make_shared<std::map<std::pair<int, int>, Route>>();
  for (const ConnectionInfo& connection : index.connections) {
    const auto [it, inserted] = routes->try_emplace({connection.from, connection.to});
    if (!inserted)
      continue; // every channel takes the same route
    Route& route = it->second;
    route.latencyUs = connection.latencyUs;
    route.bottleneckGBps = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < connection.hops.size(); ++i) {
      const auto [link, aToB] = connection.hops[i];
      route.hops.push_back({connection.linkPath[i], aToB});
      route.bottleneckGBps = std::min(route.bottleneckGBps, topology.links[link].bandwidthGBps);
    }
    if (route.hops.empty())
      route.bottleneckGBps = 0;
  }
  return [routes](int from, int to) -> std::optional<Route> {
    const auto found = routes->find({from, to});
    return found == routes->end() ? std::nullopt : std::optional(found->second);
  };
}

} // namespace

std::optional<NcclEstimate> estimateNccl(const Topology& topology, const SimIndex& index, int ranks,
                                         std::int64_t bytes, const ProtocolParams& protocol)
{
  return estimateNcclAllReduce(topology, ranks, bytes, protocol, knownRoutes(topology, index));
}

std::optional<SimIndex> buildSimIndex(const Program& program, const Topology& topology,
                                      Diagnostics& diagnostics)
{
  if (!checkThreadblocks(program, diagnostics) || !everyRankHasAGpu(program, topology, diagnostics))
    return std::nullopt;
  SimIndex index;
  index.capacities = linkCapacities(topology);
  if (!ThreadblockIndexer(index, diagnostics).add(program) ||
      !routeConnections(topology, index, diagnostics))
    return std::nullopt;
  return index;
}

} // namespace cs::sim
