#include "topologyscene.h"

#include "linkitem.h"
#include "machineitems.h"
#include "nodeitem.h"

#include <QLineF>
#include <QPainterPathStroker>

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace cs::editor {

namespace {

/// Beyond this many links, permanent labels are clutter whatever the zoom.
constexpr int kMaxPermanentLabels = 40;
/// Node-times-link checks allowed for bowing links around nodes (see updateLinkGeometry).
constexpr std::size_t kMaxBendChecks = 250000;
/// A bowed link's control point is at least this far from the straight line.
constexpr double kMinBend = 90;
constexpr int kBendAttempts = 6;

} // namespace

TopologyScene::TopologyScene(QObject* parent) : QGraphicsScene(parent)
{
  // Items move on every drag step; a BSP index would be rebuilt constantly for a few hundred
  // items at most, so a linear search is cheaper. Large tori still paint only what is visible.
  setItemIndexMethod(NoIndex);
}

void TopologyScene::sync(const Topology* topology)
{
  std::unordered_set<int> nodeIds;
  if (topology) {
    for (const TopologyNode& node : topology->nodes) {
      nodeIds.insert(node.id);
      auto found = m_nodes.find(node.id);
      if (found == m_nodes.end()) {
        auto* item = new NodeItem(node);
        addItem(item);
        m_nodes.emplace(node.id, item);
      } else {
        found->second->setNode(node);
      }
    }
  }
  for (auto it = m_nodes.begin(); it != m_nodes.end();) {
    if (nodeIds.contains(it->first)) {
      ++it;
    } else {
      delete it->second;
      it = m_nodes.erase(it);
    }
  }

  std::unordered_set<int> linkIds;
  if (topology) {
    for (const TopologyLink& link : topology->links) {
      const NodeItem* a = nodeItem(link.a);
      const NodeItem* b = nodeItem(link.b);
      if (!a || !b)
        continue;
      linkIds.insert(link.id);
      LinkItem* item = linkItem(link.id);
      if (!item) {
        item = new LinkItem(link);
        addItem(item);
        addItem(item->label());
        m_links.emplace(link.id, item);
      } else {
        item->setLink(link);
      }
    }
  }
  for (auto it = m_links.begin(); it != m_links.end();) {
    if (linkIds.contains(it->first)) {
      ++it;
    } else {
      delete it->second->label();
      delete it->second;
      it = m_links.erase(it);
    }
  }
  syncMachines(topology);
  applyFolding(); // lays the links out for the nodes it leaves visible
}

void TopologyScene::updateLinkGeometry()
{
  // Checking every link against every node is quadratic: beyond a few hundred nodes (large
  // tori, whose presets are grids anyway) links stay straight.
  const bool check = m_nodes.size() * m_links.size() <= kMaxBendChecks;
  QPointF centre;
  for (const auto& [id, node] : m_nodes)
    centre += node->pos();
  if (!m_nodes.empty())
    centre /= static_cast<double>(m_nodes.size());
  for (const auto& [id, item] : m_links) {
    const NodeItem* a = nodeItem(item->link().a);
    const NodeItem* b = nodeItem(item->link().b);
    const QLineF line(a->pos(), b->pos());
    double bend = 0;
    if (check && line.length() > 0 &&
        crossesOtherNode(LinkItem::pathFor(line.p1(), line.p2(), 0), a, b)) {
      // Bow by the least amount that clears every node the line passes, trying both sides at
      // each size and preferring the side away from the middle of the drawing.
      const QPointF normal = QPointF(-line.dy(), line.dx()) / line.length();
      const QPointF outward = line.center() - centre;
      const double side = outward.x() * normal.x() + outward.y() * normal.y() < 0 ? -1 : 1;
      double size = std::max(kMinBend, 0.25 * line.length());
      bend = side * size;
      for (int attempt = 0; attempt < kBendAttempts; ++attempt, size *= 1.35) {
        if (!crossesOtherNode(LinkItem::pathFor(line.p1(), line.p2(), side * size), a, b)) {
          bend = side * size;
          break;
        }
        if (!crossesOtherNode(LinkItem::pathFor(line.p1(), line.p2(), -side * size), a, b)) {
          bend = -side * size;
          break;
        }
      }
    }
    item->setGeometry(a->pos(), b->pos(), bend);
  }
}

bool TopologyScene::crossesOtherNode(const QPainterPath& path, const NodeItem* a,
                                     const NodeItem* b) const
{
  // A bare line has no area (and a flat bounding box), so test a thin band around it.
  QPainterPathStroker stroker;
  stroker.setWidth(2);
  const QPainterPath band = stroker.createStroke(path);
  const QRectF extent = band.controlPointRect();
  for (const auto& [id, node] : m_nodes) {
    if (node == a || node == b || !node->isVisible())
      continue;
    // The glyph itself: a line that only grazes a corner reads fine and stays straight.
    const QRectF rect = NodeItem::rectFor(node->node());
    if (rect.intersects(extent) && band.intersects(rect))
      return true;
  }
  return false;
}

NodeItem* TopologyScene::nodeItem(int id) const
{
  const auto found = m_nodes.find(id);
  return found == m_nodes.end() ? nullptr : found->second;
}

LinkItem* TopologyScene::linkItem(int id) const
{
  const auto found = m_links.find(id);
  return found == m_links.end() ? nullptr : found->second;
}

NodeItem* TopologyScene::nodeAt(const QPointF& scenePos) const
{
  for (QGraphicsItem* item : items(scenePos)) {
    if (auto* node = qgraphicsitem_cast<NodeItem*>(item); node && node->isVisible())
      return node;
  }
  return nullptr;
}

std::set<int> TopologyScene::selectedNodeIds() const
{
  std::set<int> ids;
  for (QGraphicsItem* item : selectedItems()) {
    if (const auto* node = qgraphicsitem_cast<NodeItem*>(item))
      ids.insert(node->nodeId());
  }
  return ids;
}

std::set<int> TopologyScene::selectedLinkIds() const
{
  std::set<int> ids;
  for (QGraphicsItem* item : selectedItems()) {
    if (const auto* link = qgraphicsitem_cast<LinkItem*>(item))
      ids.insert(link->linkId());
  }
  return ids;
}

void TopologyScene::selectIds(const std::set<int>& nodes, const std::set<int>& links)
{
  for (const auto& [id, item] : m_nodes)
    item->setSelected(nodes.contains(id) && item->isVisible());
  for (const auto& [id, item] : m_links)
    item->setSelected(links.contains(id) && item->isVisible());
}

QRectF TopologyScene::contentRect() const
{
  // What is drawn: a folded machine's devices and links (bowed ones may reach far) are not.
  QRectF rect;
  for (const auto& [id, item] : m_nodes) {
    if (item->isVisible())
      rect |= item->sceneBoundingRect();
  }
  for (const auto& [id, item] : m_links) {
    if (item->isVisible())
      rect |= item->sceneBoundingRect();
  }
  for (const BundleItem* bundle : m_bundles)
    rect |= bundle->sceneBoundingRect();
  // The frames, not their titles: a title keeps its pixel size, so at a small zoom it is large
  // in scene units, and fitting it would shrink the zoom further.
  for (const MachineItem* machine : m_machines)
    rect |= machine->frameRect();
  return rect;
}

QRectF TopologyScene::exportRect(double margin) const
{
  QRectF rect = contentRect();
  if (rect.isNull())
    return rect;
  for (const auto& [id, item] : m_links) {
    if (item->label()->isVisible())
      rect |= item->label()->sceneBoundingRect();
  }
  for (const BundleItem* bundle : m_bundles) {
    if (bundle->label()->isVisible())
      rect |= bundle->label()->sceneBoundingRect();
  }
  for (const MachineItem* machine : m_machines)
    rect |= machine->sceneBoundingRect();
  return rect.adjusted(-margin, -margin, margin, margin);
}

void TopologyScene::setViewScale(double scale)
{
  if (scale <= 0 || scale == m_viewScale)
    return;
  m_viewScale = scale;
  for (MachineItem* machine : m_machines)
    machine->setViewScale(scale);
  updateLabels();
}

void TopologyScene::setExporting(bool exporting)
{
  m_exporting = exporting;
  for (const auto& [id, item] : m_links)
    item->setLabelAlwaysShown(m_labelsShown && item->isVisible());
  for (BundleItem* bundle : m_bundles)
    bundle->setLabelAlwaysShown(m_labelsShown);
  update();
}

void TopologyScene::updateLabels()
{
  const double inverse = 1 / m_viewScale;
  // Every shown line's label, where it would sit: visible links and the bundles of folded
  // machines.
  std::vector<std::pair<LinkLabelItem*, QPointF>> labels;
  for (const auto& [id, item] : m_links) {
    if (item->isVisible())
      labels.emplace_back(item->label(), item->midpoint());
  }
  for (const BundleItem* bundle : m_bundles)
    labels.emplace_back(bundle->label(), bundle->midpoint());
  std::vector<QRectF> placed;
  bool fit = static_cast<int>(labels.size()) <= kMaxPermanentLabels;
  for (const auto& [label, centre] : labels) {
    label->setScale(inverse);
    if (!fit)
      continue;
    const QSizeF size = label->boxSize() * inverse;
    const QRectF rect(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(),
                      size.height());
    for (const QRectF& other : placed)
      fit = fit && !rect.intersects(other);
    for (const auto& [nodeId, node] : m_nodes)
      fit = fit && !(node->isVisible() &&
                     rect.intersects(NodeItem::rectFor(node->node()).adjusted(-3, -3, 3, 3)));
    for (const MachineItem* machine : m_machines)
      fit = fit && !(machine->folded() && rect.intersects(machine->boxRect()));
    placed.push_back(rect);
  }
  m_labelsShown = fit && !labels.empty();
  for (const auto& [id, item] : m_links)
    item->setLabelAlwaysShown(m_labelsShown && item->isVisible());
  for (BundleItem* bundle : m_bundles)
    bundle->setLabelAlwaysShown(m_labelsShown);
}

} // namespace cs::editor
