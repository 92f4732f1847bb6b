#pragma once

// The scene of the topology canvas (STYLE.md 6): one NodeItem per node and one LinkItem per
// link, found by their stable ids. sync() makes the items match a Topology (create, update,
// delete by id) and is the only way items change; the view calls it whenever the document's
// topology changes, so the document stays the one truth.
//
// Start here when adding something every item needs (a new decoration, a per-node marker).

#include "model/topology.h"

#include <QGraphicsScene>
#include <QPainterPath>

#include <set>
#include <unordered_map>

namespace cs::editor {

class LinkItem;
class NodeItem;

class TopologyScene : public QGraphicsScene
{
  Q_OBJECT

public:
  explicit TopologyScene(QObject* parent = nullptr);

  /// Makes the items match `topology` (nullptr: no topology, no items). Links whose nodes are
  /// missing are not drawn. Cost: linear in nodes + links.
  void sync(const Topology* topology);

  NodeItem* nodeItem(int id) const;
  LinkItem* linkItem(int id) const;
  int nodeCount() const { return static_cast<int>(m_nodes.size()); }
  int linkCount() const { return static_cast<int>(m_links.size()); }
  /// The node under `scenePos`, or nullptr (links and labels are ignored).
  NodeItem* nodeAt(const QPointF& scenePos) const;

  std::set<int> selectedNodeIds() const;
  std::set<int> selectedLinkIds() const;
  /// Selects exactly these nodes and links (unknown ids are ignored).
  void selectIds(const std::set<int>& nodes, const std::set<int>& links);

  /// The rectangle holding every node and link (empty without nodes).
  QRectF contentRect() const;
  /// contentRect() plus the visible labels and a margin: what an export shows.
  QRectF exportRect(double margin) const;

  /// Tells the scene the view's zoom, so link labels keep their pixel size and the scene can
  /// decide whether they all fit without covering each other or a node (then they stay on;
  /// otherwise each shows only while its link is hovered or selected).
  void setViewScale(double scale);
  double viewScale() const { return m_viewScale; }
  /// Whether every link label is currently shown.
  bool labelsShown() const { return m_labelsShown; }

  /// While exporting, items leave out selection and hover decorations.
  void setExporting(bool exporting);
  bool exporting() const { return m_exporting; }

private:
  void updateLabels();
  /// Lays out every link: straight, or bowed away from the middle of the drawing when a straight
  /// line would run under a node it does not join (a torus's wrap-around links).
  void updateLinkGeometry();
  /// Whether `path` runs through a node other than `a` and `b`.
  bool crossesOtherNode(const QPainterPath& path, const NodeItem* a, const NodeItem* b) const;

  std::unordered_map<int, NodeItem*> m_nodes;
  std::unordered_map<int, LinkItem*> m_links;
  double m_viewScale = 1;
  bool m_labelsShown = false;
  bool m_exporting = false;
};

} // namespace cs::editor
