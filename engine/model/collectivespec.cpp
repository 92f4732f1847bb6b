#include "collectivespec.h"

#include <algorithm>

namespace cs {

std::string contributionName(const Contribution& contribution)
{
  return "r" + std::to_string(contribution.rank) + "\u00b7c" + std::to_string(contribution.chunk);
}

std::string contributionsText(const std::vector<Contribution>& contributions)
{
  if (contributions.empty())
    return "nothing";
  if (contributions.size() == 1)
    return contributionName(contributions.front());
  return "\u03a3{" + contributionName(contributions.front()) +
         (contributions.size() == 2 ? ", " : " \u2026 ") + contributionName(contributions.back()) +
         "}";
}

bool hasPostcondition(Collective collective)
{
  switch (collective) {
  case Collective::AllReduce:
  case Collective::AllGather:
  case Collective::ReduceScatter:
  case Collective::AllToAll:
  case Collective::Broadcast:
  case Collective::Reduce:
    return true;
  default:
    return false;
  }
}

bool isRooted(Collective collective)
{
  return collective == Collective::Broadcast || collective == Collective::Reduce;
}

CollectiveSpec::CollectiveSpec(Collective collective, int ranks, int chunksPerLoop, int root)
    : m_collective(collective), m_ranks(std::max(0, ranks)), m_whole(std::max(0, chunksPerLoop)),
      m_share(m_ranks > 0 ? m_whole / m_ranks : 0), m_root(root)
{
}

ResultChunks CollectiveSpec::result(int rank) const
{
  ResultChunks chunks;
  switch (m_collective) {
  case Collective::AllReduce:
  case Collective::Broadcast:
    chunks.count = m_whole;
    break;
  case Collective::AllGather:
  case Collective::AllToAll:
    chunks.count = m_ranks * m_share;
    break;
  case Collective::ReduceScatter:
    chunks.count = m_share;
    break;
  case Collective::Reduce:
    chunks.count = rank == m_root ? m_whole : 0;
    break;
  default:
    break;
  }
  return chunks;
}

bool CollectiveSpec::reduces() const
{
  return m_collective == Collective::AllReduce || m_collective == Collective::ReduceScatter ||
         m_collective == Collective::Reduce;
}

void CollectiveSpec::contributions(int rank, int index, std::vector<Contribution>& out) const
{
  out.clear();
  const int k = std::max(1, m_share); // all-gather and all-to-all have no chunks when K is 0
  switch (m_collective) {
  case Collective::AllReduce:
  case Collective::Reduce:
    for (int p = 0; p < m_ranks; ++p)
      out.push_back({p, index});
    break;
  case Collective::ReduceScatter:
    for (int p = 0; p < m_ranks; ++p)
      out.push_back({p, rank * m_share + index});
    break;
  case Collective::AllGather:
    out.push_back({index / k, index % k});
    break;
  case Collective::AllToAll:
    out.push_back({index / k, rank * m_share + index % k});
    break;
  case Collective::Broadcast:
    out.push_back({m_root, index});
    break;
  default:
    break;
  }
}

std::vector<int> rootCandidates(const Program& program)
{
  std::vector<int> candidates;
  for (const Gpu& gpu : program.gpus) {
    bool sends = false;
    bool receives = false;
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (const Step& step : tb.steps) {
        const OpTraits traits = opTraits(step.type);
        sends = sends || traits.sends;
        receives = receives || traits.receives;
      }
    }
    const bool candidate =
        program.collective == Collective::Broadcast ? sends && !receives : receives && !sends;
    if (candidate)
      candidates.push_back(gpu.id);
  }
  return candidates;
}

} // namespace cs
