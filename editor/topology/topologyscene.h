#pragma once

// The scene of the topology canvas (STYLE.md 6): one NodeItem per node and one LinkItem per
// link, found by their stable ids. sync() makes the items match a Topology (create, update,
// delete by id) and is the only way items change; the view calls it whenever the document's
// topology changes, so the document stays the one truth.
//
// On a topology of several machines the scene also draws each machine (MachineItem) and can fold
// one into a box whose outside links are bundled (BundleItem); topologyscenemachines.cpp.
//
// Start here when adding something every item needs (a new decoration, a per-node marker).

#include "model/topology.h"

#include <QGraphicsScene>
#include <QPainterPath>

#include <set>
#include <unordered_map>
#include <vector>

class QGraphicsRectItem;

namespace cs::editor {

class BundleItem;
class LinkItem;
class MachineItem;
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

  // Machines (issue 18, item 4): on a topology with a network and two or more machines that hold
  // GPUs (editor/document/nodegroups.h), each machine has a frame; a folded machine hides its
  // devices and the links among them and shows one box, its other links drawn as one bundle per
  // node (or folded machine) at their other end. Folding is a view setting, not a document edit.

  /// Automatic folds every machine of a topology with more than kAutoFoldGpus GPUs.
  enum class MachineFolding { Automatic, On, Off };
  static constexpr int kAutoFoldGpus = 64;
  /// Folds every machine (On, or Automatic above kAutoFoldGpus GPUs) or none; sync() applies it
  /// again whenever the machines change.
  void setMachineFolding(MachineFolding folding);
  MachineFolding machineFolding() const { return m_folding; }
  int machineCount() const { return static_cast<int>(m_machines.size()); }
  /// Machine `machine` ("node 3" is machine 3), or nullptr.
  MachineItem* machineItem(int machine) const;
  /// The machine holding node `id`; -1 for network switches or when no machines are drawn.
  int machineOfNode(int id) const;
  /// The machine whose title or folded box is under `scenePos`, or nullptr.
  MachineItem* machineAt(const QPointF& scenePos) const;
  bool machineFolded(int machine) const { return m_folded.contains(machine); }
  void setMachineFolded(int machine, bool folded);
  int foldedMachineCount() const { return static_cast<int>(m_folded.size()); }
  const std::vector<BundleItem*>& bundles() const { return m_bundles; }

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

  /// Rebuilds the machine frames for `topology`, keeping which are folded while the machines
  /// stay the same.
  void syncMachines(const Topology* topology);
  /// Shows and hides nodes and links for the folded machines and rebuilds the bundles.
  void applyFolding();
  /// Folds every machine or none, as m_folding says for the machines' GPUs.
  void resetFolding();
  void clearBundles();
  /// An opaque rectangle under each unfolded machine while bundles are drawn.
  void addBackdrops();

  std::unordered_map<int, NodeItem*> m_nodes;
  std::unordered_map<int, LinkItem*> m_links;
  double m_viewScale = 1;
  bool m_labelsShown = false;
  bool m_exporting = false;
  std::vector<MachineItem*> m_machines;
  std::unordered_map<int, int> m_machineOfNode;
  std::vector<BundleItem*> m_bundles;
  std::vector<QGraphicsRectItem*> m_backdrops;
  std::set<int> m_folded;
  MachineFolding m_folding = MachineFolding::Automatic;
  /// GPUs per machine, as of the last sync.
  std::vector<int> m_machineShape;
};

} // namespace cs::editor
