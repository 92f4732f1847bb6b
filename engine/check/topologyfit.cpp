#include "topologyfit.h"

#include "model/diagnosticgroups.h"
#include "model/routing.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace cs {

namespace {

std::string pairText(int from, int to)
{
  return "rank " + std::to_string(from) + " \u2192 rank " + std::to_string(to);
}

std::string linkText(const Topology& topology, const TopologyLink& link)
{
  const TopologyNode* a = topology.node(link.a);
  const TopologyNode* b = topology.node(link.b);
  return "link " + std::to_string(link.id) + " (" + (a ? a->name : "?") + " \u2013 " +
         (b ? b->name : "?") + ")";
}

/// Ranks the algorithm has that no GPU hosts, and GPUs hosting ranks it does not have.
void checkRankMapping(const Topology& topology, int ranks, Diagnostics& out)
{
  std::set<int> hosted;
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      hosted.insert(node.rank);
  }
  for (int rank = 0; rank < ranks; ++rank) {
    if (hosted.contains(rank))
      continue;
    Location location;
    location.rank = rank;
    out.error("topology.rank-unmapped",
              "rank " + std::to_string(rank) + " is on no GPU of topology \"" + topology.name +
                  "\" (" + std::to_string(hosted.size()) +
                  " GPUs host ranks); give a GPU that rank or change the rank count",
              location);
  }
  std::vector<int> idle;
  for (const int rank : hosted) {
    if (rank >= ranks)
      idle.push_back(rank);
  }
  if (!idle.empty())
    out.warning("topology.idle-gpus", "topology \"" + topology.name + "\" has GPUs for ranks " +
                                          describeRanges(idle) + " but the algorithm has " +
                                          std::to_string(ranks) + " ranks: those GPUs stay idle");
}

/// Why data cannot go from one rank to another: a diagnostic code and its reason.
struct Blocked {
  const char* code = nullptr;
  std::string reason;
  int link = -1; ///< the link at fault, when one is
};

/// Why data cannot take `route` (absent: there is none), or nullopt when it can.
std::optional<Blocked> blockedBecause(const Topology& topology, const std::optional<Route>& route)
{
  if (!route)
    return Blocked{"topology.no-route", "no path in the topology (GPUs do not forward: link the "
                                        "GPUs, or both to a switch)"};
  for (const Hop& hop : route->hops) {
    const TopologyLink* link = topology.link(hop.link);
    if (link && !(link->bandwidthGBps > 0))
      return Blocked{"topology.zero-bandwidth",
                     "the route crosses " + linkText(topology, *link) + ", which has no bandwidth",
                     link->id};
  }
  return std::nullopt;
}

} // namespace

std::vector<RankExchange> scheduleExchanges(const Schedule& schedule)
{
  std::vector<RankExchange> exchanges;
  for (const Transfer& transfer : schedule.transfers) {
    if (transfer.isLocal())
      continue;
    RankExchange exchange{transfer.src.rank, transfer.dst.rank, {}};
    exchange.location.transfer = transfer.id;
    exchange.location.step = transfer.step;
    exchanges.push_back(exchange);
  }
  return exchanges;
}

std::vector<RankExchange> programExchanges(const Program& program)
{
  std::vector<RankExchange> exchanges;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      if (tb.send < 0 || tb.send == gpu.id)
        continue;
      RankExchange exchange{gpu.id, tb.send, {}};
      exchange.location.rank = gpu.id;
      exchange.location.tb = tb.id;
      exchange.location.line = tb.line;
      exchanges.push_back(exchange);
    }
  }
  return exchanges;
}

void checkTopologyFit(const Topology& topology, int ranks,
                      const std::vector<RankExchange>& exchanges, Diagnostics& out)
{
  checkRankMapping(topology, ranks, out);
  std::unordered_map<int, int> gpuOfRank;
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      gpuOfRank.emplace(node.rank, node.id);
  }
  // One route search per sending rank, for the ranks it sends to.
  std::map<int, std::set<int>> receiversOf;
  for (const RankExchange& e : exchanges) {
    if (gpuOfRank.contains(e.from) && gpuOfRank.contains(e.to))
      receiversOf[e.from].insert(e.to);
  }
  std::map<std::pair<int, int>, Blocked> blocked;
  for (const auto& [from, receivers] : receiversOf) {
    std::vector<int> targets;
    for (const int to : receivers)
      targets.push_back(gpuOfRank.at(to));
    const std::vector<std::optional<Route>> routes =
        findRoutes(topology, gpuOfRank.at(from), targets);
    std::size_t i = 0;
    for (const int to : receivers) {
      if (std::optional<Blocked> why = blockedBecause(topology, routes[i++]))
        blocked.emplace(std::pair(from, to), std::move(*why));
    }
  }
  for (const RankExchange& e : exchanges) {
    const auto found = blocked.find({e.from, e.to});
    if (found == blocked.end())
      continue;
    // A link at fault is where to fix it; the exchange that needs it follows.
    Location where = e.location;
    where.link = found->second.link;
    Diagnostic& diagnostic =
        out.error(found->second.code, pairText(e.from, e.to) + ": " + found->second.reason, where);
    if (where.link >= 0)
      diagnostic.related.push_back(e.location);
  }
}

} // namespace cs
