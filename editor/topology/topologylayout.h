#pragma once

// Automatic placement of a topology's nodes (STYLE.md 7): one interface, a Graphviz
// implementation (libgvc, when the build found it) and a built-in fallback, so "Auto layout"
// works on every build. No Graphviz header appears here: graphvizlayout.cpp is the only file that
// includes gvc.h.
//
// Contract of every implementation: a centre for every node of the topology, and no two node
// rectangles (centre ± size / 2, sizes from the request) overlap. The view applies the result as
// one ChangeTopologyCommand.

#include "model/topology.h"

#include <QPointF>
#include <QSizeF>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace cs::editor {

/// The size of a node's glyph in scene units (NodeItem::sizeFor on the canvas).
using NodeSizeFunction = std::function<QSizeF(NodeKind)>;

/// Node centres by node id.
using NodePositions = std::map<int, QPointF>;

class TopologyLayout
{
public:
  virtual ~TopologyLayout() = default;
  /// For menus and status messages: "Graphviz", "built-in".
  virtual QString name() const = 0;
  /// Centres for every node of `topology`, or nullopt with the reason in `error`.
  virtual std::optional<NodePositions> layout(const Topology& topology,
                                              const NodeSizeFunction& size,
                                              QString* error = nullptr) const = 0;
};

/// Switches in rows below (or, for NICs, beside) the GPUs they serve, GPUs in rank order; a
/// topology of GPUs only becomes a circle (up to 16) or a grid. Never fails.
std::unique_ptr<TopologyLayout> makeBuiltinLayout();
/// Graphviz's dot (hierarchical, for topologies with switches, NICs or CPUs) or neato (GPU-only
/// meshes), or nullptr when this build has no Graphviz.
std::unique_ptr<TopologyLayout> makeGraphvizLayout();
/// The version of the Graphviz library this process lays out with ("2.42.2"), or an empty string
/// when this build has no Graphviz (for the About dialog).
QString graphvizVersion();
/// Graphviz when available, else the built-in layout.
std::unique_ptr<TopologyLayout> makePreferredLayout();

/// Whether two node rectangles of `positions` overlap (the contract above, for checks and
/// tests); `gap` is the clearance required between rectangles.
bool layoutHasOverlap(const Topology& topology, const NodePositions& positions,
                      const NodeSizeFunction& size, double gap = 0);

/// `topology` with the nodes moved to `positions` (rounded to whole units; nodes without a
/// position keep theirs).
Topology withPositions(Topology topology, const NodePositions& positions);

/// Auto layout as the canvas does it: the preferred layout, falling back to the built-in one
/// when Graphviz fails or its result overlaps, and for topologies of more than 400 nodes (where
/// neato would take many seconds). `usedName` receives the layout that was used.
NodePositions layoutTopology(const Topology& topology, const NodeSizeFunction& size,
                             QString* usedName = nullptr);

} // namespace cs::editor
