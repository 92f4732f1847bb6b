#include "topologyplaybackgeometry.h"

#include "style/rankpalette.h"
#include "topology/nodeitem.h"
#include "topology/topologylayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::visualizer {

namespace {

/// Distance from `from` (inside `box`) along unit direction `v` to the box's edge.
double edgeDistance(const QRectF& box, const QPointF& from, const QPointF& v)
{
  const auto along = [](double position, double low, double high, double step) {
    if (step > 1e-9)
      return (high - position) / step;
    if (step < -1e-9)
      return (low - position) / step;
    return std::numeric_limits<double>::max();
  };
  return std::min(along(from.x(), box.left(), box.right(), v.x()),
                  along(from.y(), box.top(), box.bottom(), v.y()));
}

/// Where a link leaves `box` towards `other`: the point of the box nearest the other node's
/// centre, kept off the corners, so the links of a wide switch fan out along its edge instead of
/// meeting at its centre.
QPointF anchorIn(const QRectF& box, const QPointF& other)
{
  const double mx = std::min(box.width() / 4, 14.0);
  const double my = std::min(box.height() / 4, 14.0);
  return {std::clamp(other.x(), box.left() + mx, box.right() - mx),
          std::clamp(other.y(), box.top() + my, box.bottom() - my)};
}

double distanceToSegment(const QPointF& p, const QLineF& line)
{
  const QPointF d = line.p2() - line.p1();
  const double lengthSquared = QPointF::dotProduct(d, d);
  double t = lengthSquared > 0 ? QPointF::dotProduct(p - line.p1(), d) / lengthSquared : 0;
  t = std::clamp(t, 0.0, 1.0);
  const QPointF nearest = line.p1() + t * d;
  return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

QColor blend(const QColor& from, const QColor& to, double t)
{
  return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * t),
                          float(from.greenF() + (to.greenF() - from.greenF()) * t),
                          float(from.blueF() + (to.blueF() - from.blueF()) * t));
}

} // namespace

LinkStroke linkStroke(double utilisation, LinkKind kind)
{
  const double u = std::clamp(utilisation, 0.0, 1.0);
  // The link kind's hue at full saturation, so a busy NVLink stays recognisably NVLink green.
  QColor full = editor::linkKindColor(kind).toHsv();
  full.setHsv(full.hue(), 255, std::min(full.value(), 210));
  const QColor idle(170, 170, 170);
  return {1.5 + 6.5 * u, blend(idle, full, u)};
}

QString playbackLinkName(const Topology& topology, int link)
{
  const TopologyLink* found = topology.link(link);
  if (!found)
    return QStringLiteral("link %1").arg(link);
  const auto name = [&](int id) {
    const TopologyNode* node = topology.node(id);
    return node ? QString::fromStdString(node->name) : QStringLiteral("node %1").arg(id);
  };
  return QStringLiteral("%1 \u2013 %2").arg(name(found->a), name(found->b));
}

std::map<int, QPointF> playbackNodePositions(const Topology& topology)
{
  const bool placed = std::any_of(topology.nodes.begin(), topology.nodes.end(),
                                  [](const TopologyNode& n) { return n.x != 0 || n.y != 0; });
  if (!placed)
    return editor::layoutTopology(topology, &editor::NodeItem::sizeFor);
  std::map<int, QPointF> positions;
  for (const TopologyNode& node : topology.nodes)
    positions[node.id] = QPointF(node.x, node.y);
  return positions;
}

TopologyPlaybackGeometry::TopologyPlaybackGeometry(const Topology& topology)
    : m_topology(&topology), m_scenePositions(playbackNodePositions(topology))
{
}

void TopologyPlaybackGeometry::fit(const QRectF& area)
{
  QRectF bounds;  // node boxes, scene units
  QRectF centres; // the span of node centres, scene units
  QSizeF largest; // the largest node box
  for (const TopologyNode& node : m_topology->nodes) {
    const QSizeF size = editor::NodeItem::sizeFor(node.kind);
    const QPointF centre = m_scenePositions[node.id];
    bounds |= QRectF(centre - QPointF(size.width() / 2, size.height() / 2), size);
    if (&node == &m_topology->nodes.front())
      centres = QRectF(centre, centre);
    centres.setCoords(std::min(centres.left(), centre.x()), std::min(centres.top(), centre.y()),
                      std::max(centres.right(), centre.x()),
                      std::max(centres.bottom(), centre.y()));
    largest = largest.expandedTo(size);
  }
  if (bounds.isEmpty() || area.isEmpty())
    return;
  m_scale = std::min({area.width() / bounds.width(), area.height() / bounds.height(), 1.3});
  // Spread the centres further along an axis with room to spare (a row of GPUs over a switch
  // would otherwise leave most of the height empty), at most twice the box scale.
  const auto spread = [&](double room, double span, double box) {
    return span > 0 ? std::clamp((room - box * m_scale) / span, m_scale * 0.5, m_scale * 2)
                    : m_scale;
  };
  const double sx = spread(area.width(), centres.width(), largest.width());
  const double sy = spread(area.height(), centres.height(), largest.height());
  m_rects.clear();
  for (const TopologyNode& node : m_topology->nodes) {
    const QSizeF size = editor::NodeItem::sizeFor(node.kind) * m_scale;
    const QPointF offset = m_scenePositions[node.id] - centres.center();
    const QPointF centre = area.center() + QPointF(offset.x() * sx, offset.y() * sy);
    m_rects[node.id] = QRectF(centre - QPointF(size.width() / 2, size.height() / 2), size);
  }
  m_laneGap = std::clamp(9 * m_scale, 3.0, 8.0);
  placeLanes();
}

void TopologyPlaybackGeometry::placeLanes()
{
  m_lanes.clear();
  for (const TopologyLink& link : m_topology->links) {
    const auto a = m_rects.find(link.a);
    const auto b = m_rects.find(link.b);
    if (a == m_rects.end() || b == m_rects.end())
      continue;
    const QPointF fromA = anchorIn(a->second, b->second.center());
    const QPointF fromB = anchorIn(b->second, a->second.center());
    const QPointF delta = fromB - fromA;
    const double length = std::hypot(delta.x(), delta.y());
    if (length <= 0)
      continue;
    const QPointF v = delta / length;
    // Right of travel on screen (y grows downwards): each direction keeps to its own side.
    const QPointF right(-v.y(), v.x());
    const QPointF half = right * (m_laneGap / 2);
    const QPointF exitA = fromA + v * edgeDistance(a->second, fromA, v);
    const QPointF exitB = fromB - v * edgeDistance(b->second, fromB, -v);
    m_lanes[link.id] = {QLineF(exitA + half, exitB + half), QLineF(exitB - half, exitA - half)};
  }
}

QRectF TopologyPlaybackGeometry::nodeRect(int node) const
{
  const auto it = m_rects.find(node);
  return it == m_rects.end() ? QRectF() : it->second;
}

QLineF TopologyPlaybackGeometry::lane(int link, bool aToB) const
{
  const auto it = m_lanes.find(link);
  if (it == m_lanes.end())
    return {};
  return aToB ? it->second.aToB : it->second.bToA;
}

RoutePoint TopologyPlaybackGeometry::pointAlong(std::span<const Hop> route, double progress) const
{
  std::vector<QPointF> points;
  for (const Hop& hop : route) {
    const QLineF line = lane(hop.link, hop.aToB);
    points.push_back(line.p1());
    points.push_back(line.p2());
  }
  if (points.empty())
    return {};
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    total += QLineF(points[i - 1], points[i]).length();
  const double target = std::clamp(progress, 0.0, 1.0) * total;
  double walked = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double length = QLineF(points[i - 1], points[i]).length();
    if (walked + length >= target && length > 0) {
      const double t = (target - walked) / length;
      return {points[i - 1] + (points[i] - points[i - 1]) * t, target};
    }
    walked += length;
  }
  return {points.back(), total};
}

int TopologyPlaybackGeometry::linkAt(const QPointF& point, double tolerance) const
{
  int best = -1;
  double bestDistance = tolerance;
  for (const auto& [id, lanes] : m_lanes) {
    const double d =
        std::min(distanceToSegment(point, lanes.aToB), distanceToSegment(point, lanes.bToA));
    if (d <= bestDistance) {
      bestDistance = d;
      best = id;
    }
  }
  return best;
}

int TopologyPlaybackGeometry::nodeAt(const QPointF& point) const
{
  for (const auto& [id, rect] : m_rects) {
    if (rect.contains(point))
      return id;
  }
  return -1;
}

} // namespace cs::visualizer
