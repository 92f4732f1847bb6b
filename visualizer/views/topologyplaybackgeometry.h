#pragma once

// Where the topology playback view draws things (issue 14 item 4): node boxes fitted into the
// widget, two lanes per link (one per direction, each offset to the right of its direction of
// travel so both stay visible), and points along a message's route for its token. Pure geometry:
// no session, no painting, so tests can check it directly.

#include "model/routing.h"
#include "model/topology.h"

#include <QColor>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <map>
#include <span>
#include <vector>

namespace cs::visualizer {

/// How a link direction is drawn at a utilisation: thin grey when idle, thick and saturated full.
struct LinkStroke {
  double width = 1;
  QColor color;
};

/// The stroke of a link direction of `kind` at `utilisation` (0..1, clamped).
LinkStroke linkStroke(double utilisation, LinkKind kind);

/// "GPU0 – NVSwitch0": a link named by its end nodes, for legends and tooltips.
QString playbackLinkName(const Topology& topology, int link);

/// Node centres in scene units: the topology's own x/y when any node has one, else the editor's
/// automatic layout.
std::map<int, QPointF> playbackNodePositions(const Topology& topology);

/// A point on a route and how far along it lies (pixels from the route's start).
struct RoutePoint {
  QPointF point;
  double distance = 0;
};

class TopologyPlaybackGeometry
{
public:
  explicit TopologyPlaybackGeometry(const Topology& topology);

  /// Fits the topology into `area` (widget pixels), keeping its aspect ratio.
  void fit(const QRectF& area);

  const Topology& topology() const { return *m_topology; }
  /// A node's box in widget pixels (empty for unknown ids).
  QRectF nodeRect(int node) const;
  /// The lane of one direction of a link, from the sending node's edge to the receiving one's.
  QLineF lane(int link, bool aToB) const;
  /// The point `progress` (0..1) of the way along `route`, through the switches on it.
  RoutePoint pointAlong(std::span<const Hop> route, double progress) const;
  /// The link whose lane passes within `tolerance` pixels of `point`, or -1.
  int linkAt(const QPointF& point, double tolerance = 6) const;
  /// The node whose box holds `point`, or -1.
  int nodeAt(const QPointF& point) const;
  /// Pixels between a link's two lanes' centre lines.
  double laneGap() const { return m_laneGap; }
  /// Scene units to pixels.
  double scale() const { return m_scale; }

private:
  struct Lanes {
    QLineF aToB;
    QLineF bToA;
  };
  void placeLanes();

  const Topology* m_topology;
  std::map<int, QPointF> m_scenePositions;
  std::map<int, QRectF> m_rects;
  std::map<int, Lanes> m_lanes;
  double m_scale = 1;
  double m_laneGap = 5;
};

} // namespace cs::visualizer
