#include "connections.h"

namespace cs {

std::map<ConnectionKey, ConnectionEnds> buildConnections(const Program& program)
{
  std::map<ConnectionKey, ConnectionEnds> connections;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      if (tb.send >= 0)
        connections[{gpu.id, tb.send, tb.chan}].senders.push_back(tb.id);
      if (tb.recv >= 0)
        connections[{tb.recv, gpu.id, tb.chan}].receivers.push_back(tb.id);
    }
  }
  return connections;
}

namespace {

template <typename Predicate>
std::vector<int> positionsWhere(const ThreadBlock& tb, Predicate predicate)
{
  std::vector<int> positions;
  for (std::size_t i = 0; i < tb.steps.size(); ++i) {
    if (predicate(opTraits(tb.steps[i].type)))
      positions.push_back(static_cast<int>(i));
  }
  return positions;
}

} // namespace

std::vector<int> sendPositions(const ThreadBlock& tb)
{
  return positionsWhere(tb, [](const OpTraits& t) { return t.sends; });
}

std::vector<int> receivePositions(const ThreadBlock& tb)
{
  return positionsWhere(tb, [](const OpTraits& t) { return t.receives; });
}

} // namespace cs
