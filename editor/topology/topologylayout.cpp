#include "topologylayout.h"

#include <QRectF>

#include <cmath>

namespace cs::editor {

#ifndef CSTUDIO_EDITOR_HAVE_GRAPHVIZ
std::unique_ptr<TopologyLayout> makeGraphvizLayout()
{
  return nullptr;
}

QString graphvizVersion()
{
  return {};
}
#endif

std::unique_ptr<TopologyLayout> makePreferredLayout()
{
  std::unique_ptr<TopologyLayout> graphviz = makeGraphvizLayout();
  return graphviz ? std::move(graphviz) : makeBuiltinLayout();
}

bool layoutHasOverlap(const Topology& topology, const NodePositions& positions,
                      const NodeSizeFunction& size, double gap)
{
  std::vector<QRectF> rects;
  for (const TopologyNode& node : topology.nodes) {
    const auto found = positions.find(node.id);
    const QPointF centre = found == positions.end() ? QPointF(node.x, node.y) : found->second;
    const QSizeF box = size(node.kind) + QSizeF(gap, gap);
    rects.emplace_back(centre.x() - box.width() / 2, centre.y() - box.height() / 2, box.width(),
                       box.height());
  }
  for (std::size_t i = 0; i < rects.size(); ++i) {
    for (std::size_t j = i + 1; j < rects.size(); ++j) {
      if (rects[i].intersects(rects[j]))
        return true;
    }
  }
  return false;
}

Topology withPositions(Topology topology, const NodePositions& positions)
{
  for (TopologyNode& node : topology.nodes) {
    if (const auto found = positions.find(node.id); found != positions.end()) {
      node.x = std::round(found->second.x());
      node.y = std::round(found->second.y());
    }
  }
  return topology;
}

NodePositions layoutTopology(const Topology& topology, const NodeSizeFunction& size,
                             QString* usedName)
{
  // Rounding to whole units may shift a node by half a unit: ask for a small clearance.
  constexpr double kClearance = 2;
  // neato needs tens of seconds for thousands of nodes; large meshes get the built-in grid.
  constexpr std::size_t kMaxGraphvizNodes = 400;
  std::unique_ptr<TopologyLayout> graphviz =
      topology.nodes.size() <= kMaxGraphvizNodes ? makeGraphvizLayout() : nullptr;
  if (graphviz) {
    const std::optional<NodePositions> positions = graphviz->layout(topology, size);
    if (positions && !layoutHasOverlap(topology, *positions, size, kClearance)) {
      if (usedName)
        *usedName = graphviz->name();
      return *positions;
    }
  }
  const std::unique_ptr<TopologyLayout> builtin = makeBuiltinLayout();
  if (usedName)
    *usedName = builtin->name();
  return builtin->layout(topology, size).value_or(NodePositions{});
}

} // namespace cs::editor
