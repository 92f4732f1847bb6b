#include "timelinemodel.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>

namespace cs::editor {

namespace {

qreal distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
  const QPointF ab = b - a;
  const qreal length2 = QPointF::dotProduct(ab, ab);
  const qreal t =
      length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, qreal(0), qreal(1)) : 0;
  const QPointF closest = a + t * ab;
  return std::hypot(p.x() - closest.x(), p.y() - closest.y());
}

} // namespace

QPainterPath ArrowRoute::path(qreal radius) const
{
  QPainterPath path(from);
  if (std::abs(to.y() - from.y()) < 0.5) {
    path.lineTo(to);
    return path;
  }
  const qreal r =
      std::min({radius, std::abs(to.y() - from.y()) / 2, laneX - from.x(), to.x() - laneX});
  const qreal down = to.y() > from.y() ? 1 : -1;
  path.lineTo(laneX - r, from.y());
  path.quadTo(laneX, from.y(), laneX, from.y() + down * r);
  path.lineTo(laneX, to.y() - down * r);
  path.quadTo(laneX, to.y(), laneX + r, to.y());
  path.lineTo(to);
  return path;
}

qreal ArrowRoute::distanceTo(const QPointF& p) const
{
  const QPointF a(laneX, from.y());
  const QPointF b(laneX, to.y());
  return std::min(
      {distanceToSegment(p, from, a), distanceToSegment(p, a, b), distanceToSegment(p, b, to)});
}

QPointF ArrowRoute::handle() const
{
  if (std::abs(to.y() - from.y()) < 0.5)
    return {(from.x() + to.x()) / 2, from.y()};
  return {laneX, (from.y() + to.y()) / 2};
}

QRectF ArrowRoute::bounds() const
{
  const qreal top = std::min(srcTop, dstTop);
  const qreal bottom = std::max(srcBottom, dstBottom);
  return QRectF(QPointF(from.x() - 4, top), QPointF(to.x() + 4, bottom));
}

ArrowRoute ArrowRoute::shifted(qreal dx) const
{
  ArrowRoute moved = *this;
  moved.from.rx() += dx;
  moved.to.rx() += dx;
  moved.laneX += dx;
  return moved;
}

void TimelineModel::rebuild(const std::optional<Schedule>& schedule, const Analysis& analysis,
                            const CollapseState& collapse)
{
  // A background analysis finishing reports the same Schedule again: only the marks change.
  const bool sameSchedule = m_generation > 0 && schedule == m_schedule;
  if (!sameSchedule) {
    ++m_generation;
    m_schedule = schedule;
    m_states =
        schedule && analysis.states ? analysis.states : std::make_shared<const ChunkStates>();
    indexTransfers();
  }

  m_severity.clear();
  m_stepError.assign(m_byStep.size(), false);
  for (const auto& [id, problems] : analysis.problemsByTransfer) {
    ArrowSeverity worst = ArrowSeverity::None;
    for (const int p : problems) {
      const Severity severity = analysis.problems[static_cast<std::size_t>(p)].diagnostic.severity;
      if (severity == Severity::Error)
        worst = ArrowSeverity::Error;
      else if (severity == Severity::Warning && worst == ArrowSeverity::None)
        worst = ArrowSeverity::Warning;
    }
    m_severity.emplace_back(id, worst);
    const int index = indexOf(id);
    if (worst == ArrowSeverity::Error && index >= 0) {
      const int step = m_schedule->transfers[static_cast<std::size_t>(index)].step;
      if (step >= 0 && step < static_cast<int>(m_stepError.size()))
        m_stepError[static_cast<std::size_t>(step)] = true;
    }
  }
  if (!sameSchedule || collapse != m_collapse)
    relayout(collapse);
}

void TimelineModel::indexTransfers()
{
  m_byStep.assign(static_cast<std::size_t>(m_states->stepCount()), {});
  m_indexById.clear();
  if (m_schedule) {
    const std::vector<Transfer>& transfers = m_schedule->transfers;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const int step = transfers[i].step;
      if (step >= 0 && step < m_states->stepCount())
        m_byStep[static_cast<std::size_t>(step)].push_back(static_cast<int>(i));
      m_indexById.emplace_back(transfers[i].id, static_cast<int>(i));
    }
  }
  std::sort(m_indexById.begin(), m_indexById.end());
}

void TimelineModel::relayout(const CollapseState& collapse)
{
  m_collapse = collapse;
  m_layout.rebuild(*m_states, collapse, columnCount());
  assignLanes();
}

void TimelineModel::assignLanes()
{
  m_lane.assign(m_schedule ? m_schedule->transfers.size() : 0, 0);
  m_folded.assign(m_lane.size(), false);
  m_laneCount.assign(m_byStep.size(), 0);
  struct Interval {
    qreal top, bottom;
    int index;
  };
  std::vector<Interval> intervals;
  for (std::size_t step = 0; step < m_byStep.size(); ++step) {
    intervals.clear();
    for (const int index : m_byStep[step]) {
      const Transfer& t = m_schedule->transfers[static_cast<std::size_t>(index)];
      if (insideFoldedNode(t)) {
        // Remembered: painting looks it up for every transfer of every visible step.
        m_folded[static_cast<std::size_t>(index)] = true;
        continue;
      }
      const auto src = extentOf(t.src, t.count);
      const auto dst = extentOf(t.dst, t.count);
      if (!src || !dst)
        continue;
      const qreal a = (src->first + src->second) / 2;
      const qreal b = (dst->first + dst->second) / 2;
      intervals.push_back({std::min(a, b), std::max(a, b), index});
    }
    std::sort(intervals.begin(), intervals.end(), [](const Interval& x, const Interval& y) {
      return x.top != y.top ? x.top < y.top : x.bottom < y.bottom;
    });
    // Greedy colouring: reuse the lane that freed up first, else open a new one.
    using Busy = std::pair<qreal, int>; // (bottom, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<int, std::vector<int>, std::greater<>> free;
    int lanes = 0;
    for (const Interval& interval : intervals) {
      while (!busy.empty() && busy.top().first + 3 < interval.top) {
        free.push(busy.top().second);
        busy.pop();
      }
      int lane;
      if (!free.empty()) {
        lane = free.top();
        free.pop();
      } else {
        lane = lanes++;
      }
      m_lane[static_cast<std::size_t>(interval.index)] = lane;
      busy.push({interval.bottom, lane});
    }
    m_laneCount[step] = lanes;
  }
}

const std::vector<int>& TimelineModel::transfersOfStep(int step) const
{
  static const std::vector<int> none;
  if (step < 0 || step >= static_cast<int>(m_byStep.size()))
    return none;
  return m_byStep[static_cast<std::size_t>(step)];
}

int TimelineModel::indexOf(int transferId) const
{
  const auto it =
      std::lower_bound(m_indexById.begin(), m_indexById.end(), std::pair(transferId, -1));
  return it != m_indexById.end() && it->first == transferId ? it->second : -1;
}

std::optional<std::pair<qreal, qreal>> TimelineModel::extentOf(const ChunkRef& ref, int count) const
{
  const int first = m_states->rowOf(ref);
  if (first < 0)
    return std::nullopt;
  const int last = m_states->rowOf({ref.rank, ref.buffer, ref.index + std::max(1, count) - 1});
  const auto a = m_layout.spanOf(first, 1);
  const auto b = last >= 0 ? m_layout.spanOf(last, 1) : a;
  return std::pair<qreal, qreal>(std::min(a.first, b.first), std::max(a.second, b.second));
}

std::optional<ArrowRoute> TimelineModel::route(int index) const
{
  if (!m_schedule || index < 0 || index >= static_cast<int>(m_schedule->transfers.size()))
    return std::nullopt;
  const Transfer& t = m_schedule->transfers[static_cast<std::size_t>(index)];
  if (m_folded[static_cast<std::size_t>(index)])
    return std::nullopt; // the node's cells stand for it
  const auto src = extentOf(t.src, t.count);
  const auto dst = extentOf(t.dst, t.count);
  if (!src || !dst || t.step < 0)
    return std::nullopt;
  ArrowRoute route;
  const qreal x0 = m_layout.columnLeft(t.step) + m_layout.cellWidth();
  const qreal x1 = m_layout.columnLeft(t.step + 1);
  route.from = {x0, (src->first + src->second) / 2};
  route.to = {x1, (dst->first + dst->second) / 2};
  route.srcTop = src->first;
  route.srcBottom = src->second;
  route.dstTop = dst->first;
  route.dstBottom = dst->second;
  // Lanes share the gap; beyond its capacity (about one per 4 px) they wrap around.
  const qreal gap = x1 - x0;
  const int capacity = std::max(1, static_cast<int>((gap - 8) / 4));
  const int lanes = t.step < static_cast<int>(m_laneCount.size())
                        ? std::clamp(m_laneCount[static_cast<std::size_t>(t.step)], 1, capacity)
                        : 1;
  const int lane = m_lane[static_cast<std::size_t>(index)] % capacity;
  route.laneX = x0 + gap * (lane + 1) / (lanes + 1);
  return route;
}

int TimelineModel::transferAt(const QPointF& p, qreal tolerance) const
{
  bool inCell = false;
  const int column = m_layout.columnAt(static_cast<int>(std::floor(p.x())), &inCell);
  if (inCell)
    return -1;
  int best = -1;
  qreal bestDistance = tolerance;
  for (const int index : transfersOfStep(column)) {
    const std::optional<ArrowRoute> r = route(index);
    if (!r)
      continue;
    const qreal d = r->distanceTo(p);
    if (d <= bestDistance) {
      bestDistance = d;
      best = m_schedule->transfers[static_cast<std::size_t>(index)].id;
    }
  }
  return best;
}

bool TimelineModel::insideFoldedNode(const Transfer& t) const
{
  if (m_collapse.nodeOfRank.empty())
    return false;
  const int src = m_layout.visualRowOf(m_states->rowOf(t.src));
  if (src < 0 || src != m_layout.visualRowOf(m_states->rowOf(t.dst)))
    return false;
  return m_layout.rows()[static_cast<std::size_t>(src)].kind == TimelineLayout::Row::Kind::Node;
}

ArrowSeverity TimelineModel::severity(int transferId) const
{
  const auto it = std::lower_bound(m_severity.begin(), m_severity.end(),
                                   std::pair(transferId, ArrowSeverity::None));
  return it != m_severity.end() && it->first == transferId ? it->second : ArrowSeverity::None;
}

bool TimelineModel::stepHasError(int step) const
{
  return step >= 0 && step < static_cast<int>(m_stepError.size()) &&
         m_stepError[static_cast<std::size_t>(step)];
}

} // namespace cs::editor
