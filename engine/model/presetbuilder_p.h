#pragma once

// What the topology presets (topologypresets.cpp, fabricpresets.cpp) build with.

#include "topology.h"

#include <string>
#include <utility>

namespace cs {

/// Appends nodes and links with consecutive ids.
class PresetBuilder
{
public:
  PresetBuilder(std::string name, std::string description)
  {
    m_topology.name = std::move(name);
    m_topology.description = std::move(description);
  }

  int node(NodeKind kind, std::string name, double x, double y, int rank = -1)
  {
    const int id = static_cast<int>(m_topology.nodes.size());
    m_topology.nodes.push_back({id, kind, std::move(name), rank, x, y});
    return id;
  }

  int gpu(int rank, double x, double y)
  {
    return node(NodeKind::Gpu, "GPU" + std::to_string(rank), x, y, rank);
  }

  void link(int a, int b, LinkKind kind, double bandwidthGBps, double latencyUs)
  {
    const int id = static_cast<int>(m_topology.links.size());
    m_topology.links.push_back({id, a, b, kind, bandwidthGBps, latencyUs, true});
  }

  int nextNode() const { return static_cast<int>(m_topology.nodes.size()); }
  Topology take() { return std::move(m_topology); }

private:
  Topology m_topology;
};

} // namespace cs
