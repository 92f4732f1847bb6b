#pragma once

// Everything the timeline derives from the document, rebuilt after each change and never edited:
// the chunk states, the row and column layout, the transfers grouped by step, each arrow's route
// and how bad its problems are. The view paints and hit-tests through it; edits go through the
// document's commands and come back here by rebuild().
//
// Arrows are routed orthogonally in the gap between a step's two columns: out of the source cell,
// along a vertical lane, into the destination cell. Transfers of one step whose vertical runs
// overlap get different lanes (greedy interval colouring), so a ring's wrap-around arrow does not
// hide the others and every arrow stays clickable.

#include "timelinelayout.h"

#include "document/analysis.h"

#include <QPainterPath>
#include <QPointF>
#include <QRectF>

#include <memory>
#include <optional>
#include <vector>

namespace cs::editor {

/// One arrow in content coordinates.
struct ArrowRoute {
  QPointF from;                    ///< on the source cell's right edge
  QPointF to;                      ///< on the destination cell's left edge
  qreal laneX = 0;                 ///< x of the vertical run
  qreal srcTop = 0, srcBottom = 0; ///< the source chunks' extent (count > 1 draws a bracket)
  qreal dstTop = 0, dstBottom = 0;

  /// The route with rounded corners of `radius`.
  QPainterPath path(qreal radius) const;
  /// Distance from `p` to the route.
  qreal distanceTo(const QPointF& p) const;
  /// A point on the route that identifies it: the middle of its vertical run.
  QPointF handle() const;
  QRectF bounds() const;
  /// The same route `columns` columns to the right (dragging to another step).
  ArrowRoute shifted(qreal dx) const;
};

/// How bad the worst problem of a transfer is.
enum class ArrowSeverity : std::uint8_t { None, Warning, Error };

class TimelineModel
{
public:
  /// Rebuilds everything from the shown Schedule (nullopt: an empty model) and the analysis
  /// (whose chunk states are the Schedule's);
  /// when the Schedule is the one already shown (a background analysis finished), only the
  /// problem marks are refreshed and generation() stays.
  void rebuild(const std::optional<Schedule>& schedule, const Analysis& analysis,
               const CollapseState& collapse);
  /// Re-lays out after a zoom or collapse change (the states stay).
  void relayout(const CollapseState& collapse);

  bool hasSchedule() const { return m_schedule.has_value(); }
  /// Incremented by every rebuild(): value ids and labels of an older generation are stale.
  int generation() const { return m_generation; }
  const Schedule& schedule() const { return *m_schedule; }
  const ChunkStates& states() const { return *m_states; }
  TimelineLayout& layout() { return m_layout; }
  const TimelineLayout& layout() const { return m_layout; }
  /// Columns shown: the states' columns plus the empty column where a new step starts.
  int columnCount() const { return m_states->columnCount() + 1; }

  /// Indices into schedule().transfers of the transfers of `step` (empty outside 0..steps).
  const std::vector<int>& transfersOfStep(int step) const;
  /// The index of the transfer with `id` in schedule().transfers, or -1.
  int indexOf(int transferId) const;
  /// The arrow of transfer index `index`, or nullopt when an end has no row (bad rank).
  std::optional<ArrowRoute> route(int index) const;
  /// The transfer id whose arrow passes within `tolerance` of content point `p`, or -1.
  int transferAt(const QPointF& p, qreal tolerance) const;
  ArrowSeverity severity(int transferId) const;
  /// Whether both ends of `t` are folded into one node row (no arrow is drawn for it then).
  bool insideFoldedNode(const Transfer& t) const;
  /// Steps with at least one transfer that has an error.
  bool stepHasError(int step) const;

  /// The data row of `ref` (ChunkStates::rowOf) and the vertical extent of `count` chunks from it.
  std::optional<std::pair<qreal, qreal>> extentOf(const ChunkRef& ref, int count) const;

private:
  void assignLanes();
  void indexTransfers();

  int m_generation = 0;
  CollapseState m_collapse; ///< the one the layout was built with
  std::optional<Schedule> m_schedule;
  std::shared_ptr<const ChunkStates> m_states = std::make_shared<const ChunkStates>();
  TimelineLayout m_layout;
  std::vector<std::vector<int>> m_byStep;
  std::vector<int> m_lane;                      ///< per transfer index
  std::vector<int> m_laneCount;                 ///< per step
  std::vector<bool> m_folded;                   ///< per transfer index: insideFoldedNode (no arrow)
  std::vector<std::pair<int, int>> m_indexById; ///< (id, index), sorted by id
  std::vector<std::pair<int, ArrowSeverity>> m_severity; ///< (id, severity), sorted by id
  std::vector<bool> m_stepError;
};

} // namespace cs::editor
