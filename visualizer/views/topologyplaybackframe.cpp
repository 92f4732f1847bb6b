#include "topologyplaybackframe.h"

#include "session/replaysession.h"

#include <algorithm>

namespace cs::visualizer {

std::vector<int> messageRanks(const replay::ReplayIndex& index, const replay::BufferReplay& buffers,
                              std::size_t message)
{
  const TraceEvent& send = index.trace().events.at(index.messages().at(message).send);
  std::vector<int> ranks;
  for (const ValueId value : buffers.sentBy(send.rank, send.tb, send.step)) {
    for (const int rank : buffers.contributingRanks(value))
      ranks.push_back(rank);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

QString describeWait(const replay::Waiting& waiting)
{
  const QString who = QStringLiteral("tb %1 step %2").arg(waiting.tb).arg(waiting.step);
  switch (waiting.reason) {
  case replay::WaitReason::Message:
    return QStringLiteral("%1 waits for a message from rank %2 (channel %3)")
        .arg(who)
        .arg(waiting.peer)
        .arg(waiting.channel);
  case replay::WaitReason::Room:
    return QStringLiteral("%1 waits for room on its connection to rank %2 (channel %3)")
        .arg(who)
        .arg(waiting.peer)
        .arg(waiting.channel);
  case replay::WaitReason::Flag:
    return QStringLiteral("%1 waits for tb %2 to finish step %3")
        .arg(who)
        .arg(waiting.depTb)
        .arg(waiting.depStep);
  case replay::WaitReason::Start:
    break;
  }
  return {};
}

namespace {

std::vector<DrawnLane> drawnLanes(const Topology& topology, const replay::ReplayState& state)
{
  std::map<int, const replay::LinkState*> byLink;
  for (const replay::LinkState& link : state.links)
    byLink[link.link] = &link;
  std::vector<DrawnLane> lanes;
  lanes.reserve(topology.links.size() * 2);
  for (const TopologyLink& link : topology.links) {
    const auto it = byLink.find(link.id);
    for (const bool aToB : {true, false}) {
      double u = 0;
      if (it != byLink.end())
        u = aToB ? it->second->aToB.utilisation : it->second->bToA.utilisation;
      lanes.push_back({link.id, aToB, u, linkStroke(u, link.kind)});
    }
  }
  return lanes;
}

} // namespace

TopologyPlaybackFrame makePlaybackFrame(const ReplaySession& session,
                                        const TopologyPlaybackGeometry& geometry,
                                        std::vector<std::vector<int>>& ranksCache)
{
  TopologyPlaybackFrame frame;
  const replay::ReplayState& state = session.state();
  frame.lanes = drawnLanes(geometry.topology(), state);
  const auto& messages = session.index().messages();
  ranksCache.resize(messages.size());
  for (const replay::Token& token : state.tokens) {
    const replay::Message& message = messages.at(token.message);
    if (message.route.empty())
      continue;
    std::vector<int>& ranks = ranksCache[token.message];
    if (ranks.empty())
      ranks = messageRanks(session.index(), session.buffers(), token.message);
    frame.tokens.push_back(
        {token.message, token.progress, geometry.pointAlong(message.route, token.progress), ranks});
  }
  for (const replay::Waiting& waiting : state.waiting) {
    if (waiting.reason != replay::WaitReason::Start)
      frame.blocked[waiting.rank].push_back(describeWait(waiting));
  }
  return frame;
}

} // namespace cs::visualizer
