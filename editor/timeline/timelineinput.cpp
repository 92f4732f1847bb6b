// TimelineView's mouse handling: the gestures listed in timelineview.h. A press only
// records what is under the mouse; the gesture is decided once the mouse has moved past the
// platform's drag distance, so a click never edits by accident.

#include "timelineview.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"

#include <QApplication>
#include <QMouseEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::editor {

namespace {

/// Whether an axis-aligned segment from `a` to `b` touches `rect`.
bool segmentTouches(const QPointF& a, const QPointF& b, const QRectF& rect)
{
  return std::max(a.x(), b.x()) >= rect.left() && std::min(a.x(), b.x()) <= rect.right() &&
         std::max(a.y(), b.y()) >= rect.top() && std::min(a.y(), b.y()) <= rect.bottom();
}

bool routeTouches(const ArrowRoute& route, const QRectF& rect)
{
  const QPointF a(route.laneX, route.from.y());
  const QPointF b(route.laneX, route.to.y());
  return segmentTouches(route.from, a, rect) || segmentTouches(a, b, rect) ||
         segmentTouches(b, route.to, rect);
}

} // namespace

TimelineView::Hit TimelineView::hitTest(const QPoint& pos) const
{
  Hit hit;
  if (!m_model.hasSchedule())
    return hit;
  hit.content = pos - contentOrigin();
  const TimelineLayout& layout = m_model.layout();
  const bool inTop = pos.y() < m_header.top;
  const bool inLeft = pos.x() < m_header.left();
  hit.area = inTop && inLeft ? Hit::Area::Corner
             : inTop         ? Hit::Area::StepHeader
             : inLeft        ? Hit::Area::RowHeader
                             : Hit::Area::Grid;
  if (!inLeft)
    hit.column = layout.columnAt(hit.content.x(), &hit.inCell);
  if (!inTop)
    hit.visualRow = layout.rowAt(hit.content.y());
  if (hit.area == Hit::Area::Grid)
    hit.transfer = m_model.transferAt(QPointF(hit.content), 5.0);
  return hit;
}

TransferOp TimelineView::effectiveOperation(Qt::KeyboardModifiers modifiers) const
{
  if (!(modifiers & Qt::ShiftModifier))
    return m_operation;
  return m_operation == TransferOp::Copy ? TransferOp::Reduce : TransferOp::Copy;
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
  if (!m_model.hasSchedule()) {
    event->accept(); // nothing to hit: the message is all there is
    return;
  }
  if (event->button() != Qt::LeftButton) {
    QAbstractScrollArea::mousePressEvent(event);
    return;
  }
  setFocus(Qt::MouseFocusReason);
  m_pressPos = event->position().toPoint();
  m_press = hitTest(m_pressPos);
  m_pressModifiers = event->modifiers();
  m_gesture = Gesture::None;
  const int goalColumn = m_model.columnCount() - 1;
  switch (m_press.area) {
  case Hit::Area::Corner:
    return;
  case Hit::Area::RowHeader:
    toggleHeaderAt(m_press);
    return;
  case Hit::Area::StepHeader:
    m_gesture = Gesture::PendingBand;
    return;
  case Hit::Area::Grid:
  case Hit::Area::None:
    break;
  }
  if (concealedRowAt(m_press) >= 0) {
    // Teaching's predict exercise: the cell is a question, whatever the tool.
    m_gesture = Gesture::PendingConcealed;
    return;
  }
  if (m_tool == Tool::Select) {
    m_gesture = Gesture::PendingBand;
    return;
  }
  if (m_press.transfer >= 0) {
    m_gesture = Gesture::PendingArrow;
    // Pressing an unselected arrow selects it at once, so dragging it moves just that one.
    const std::set<int>& selected = m_document->selection().transfers;
    if (!selected.contains(m_press.transfer) && !(m_pressModifiers & Qt::ControlModifier))
      selectTransfers({m_press.transfer});
    return;
  }
  const bool onChunk = m_press.visualRow >= 0 && m_press.inCell && m_press.column >= 0 &&
                       m_press.column < goalColumn &&
                       m_model.layout().rows()[static_cast<std::size_t>(m_press.visualRow)].kind ==
                           TimelineLayout::Row::Kind::Chunk;
  m_gesture = onChunk ? Gesture::PendingCell : Gesture::PendingBand;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
  const QPoint pos = event->position().toPoint();
  m_pointer = pos; // where paste() goes (timelineclipboard.cpp)
  const bool farEnough = (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
  switch (m_gesture) {
  case Gesture::None:
    setHover(hitTest(pos).transfer);
    return;
  case Gesture::PendingConcealed:
    return; // a hidden cell never starts a drag
  case Gesture::PendingCell:
    if (!farEnough)
      return;
    m_gesture = Gesture::CreateTransfer;
    setHover(-1);
    [[fallthrough]];
  case Gesture::CreateTransfer:
    updateCreatePreview(pos, event->modifiers());
    return;
  case Gesture::PendingArrow:
    if (!farEnough)
      return;
    m_gesture = Gesture::MoveArrows;
    [[fallthrough]];
  case Gesture::MoveArrows:
    updateMovePreview(pos);
    return;
  case Gesture::PendingBand:
    if (!farEnough)
      return;
    m_gesture = Gesture::RubberBand;
    [[fallthrough]];
  case Gesture::RubberBand:
    updateBand(pos);
    return;
  }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
  if (event->button() != Qt::LeftButton) {
    QAbstractScrollArea::mouseReleaseEvent(event);
    return;
  }
  const Gesture gesture = m_gesture;
  m_gesture = Gesture::None;
  const bool ctrl = m_pressModifiers & Qt::ControlModifier;
  switch (gesture) {
  case Gesture::None:
    break;
  case Gesture::PendingCell:
    clickCell(m_press, m_pressModifiers);
    break;
  case Gesture::PendingConcealed: {
    // Released elsewhere (a drag): not a click on the cell.
    const int row = concealedRowAt(m_press);
    if (row >= 0 && concealedRowAt(hitTest(event->position().toPoint())) == row)
      emit concealedCellClicked(m_model.states().rows()[static_cast<std::size_t>(row)].ref,
                                event->globalPosition().toPoint());
    break;
  }
  case Gesture::CreateTransfer:
    updateCreatePreview(event->position().toPoint(), event->modifiers());
    finishCreate(event->modifiers());
    break;
  case Gesture::PendingArrow: {
    std::set<int> selected = m_document->selection().transfers;
    if (ctrl) {
      if (!selected.erase(m_press.transfer))
        selected.insert(m_press.transfer);
      selectTransfers(selected);
    } else {
      selectTransfers({m_press.transfer});
    }
    break;
  }
  case Gesture::MoveArrows:
    finishMove();
    break;
  case Gesture::PendingBand: {
    // A click: on a step header selects that step's transfers, elsewhere clears.
    std::set<int> ids = ctrl ? m_document->selection().transfers : std::set<int>();
    if (m_press.area == Hit::Area::StepHeader && m_press.column > 0)
      for (const int index : m_model.transfersOfStep(m_press.column - 1))
        ids.insert(m_model.schedule().transfers[static_cast<std::size_t>(index)].id);
    else if (m_press.transfer >= 0)
      ids.insert(m_press.transfer);
    selectTransfers(ids);
    break;
  }
  case Gesture::RubberBand: {
    std::set<int> ids = ctrl ? m_document->selection().transfers : std::set<int>();
    ids.insert(m_bandSelection.begin(), m_bandSelection.end());
    m_bandSelection.clear();
    selectTransfers(ids);
    break;
  }
  }
  m_create.reset();
  viewport()->update();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
  // A double click is two clicks here; Qt would otherwise swallow the second press.
  mousePressEvent(event);
}

void TimelineView::toggleHeaderAt(const Hit& hit)
{
  if (hit.visualRow < 0)
    return;
  const TimelineLayout::Row& row = m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
  const int x = m_pressPos.x();
  if (row.kind == TimelineLayout::Row::Kind::Node) {
    // The node's name spans the whole header: anywhere on it folds or unfolds the node.
    setNodeExpanded(row.node, !row.expanded);
  } else if (x < m_header.rankWidth) {
    // The rank label sits on the group's first visible row; any row of the group toggles it.
    setRankCollapsed(row.rank, !isRankCollapsed(row.rank));
  } else if (row.firstOfBuffer && row.kind != TimelineLayout::Row::Kind::Rank) {
    setBufferCollapsed(row.rank, row.buffer, row.kind == TimelineLayout::Row::Kind::Chunk);
  }
}

void TimelineView::updateCreatePreview(const QPoint& pos, Qt::KeyboardModifiers modifiers)
{
  const TimelineLayout& layout = m_model.layout();
  const QRect src = layout.cellRect(m_press.visualRow, m_press.column);
  CreatePreview preview;
  preview.op = effectiveOperation(modifiers);
  preview.targetColumn = m_press.column + 1;
  const QPoint content = pos - contentOrigin();
  const int row = layout.rowAt(content.y());
  const bool valid =
      row >= 0 && pos.x() >= m_header.left() && pos.y() >= m_header.top &&
      layout.rows()[static_cast<std::size_t>(row)].kind == TimelineLayout::Row::Kind::Chunk;
  preview.targetRow = valid ? row : -1;
  ArrowRoute& route = preview.route;
  route.from = QPointF(src.right() + 1, src.center().y() + 0.5);
  route.srcTop = src.top();
  route.srcBottom = src.bottom();
  const qreal targetX = layout.columnLeft(preview.targetColumn);
  if (valid) {
    const QRect dst = layout.cellRect(row, preview.targetColumn);
    route.to = QPointF(targetX, dst.center().y() + 0.5);
  } else {
    route.to = QPointF(std::max<qreal>(content.x(), route.from.x() + 4), content.y());
  }
  route.laneX = std::min(route.to.x(), (route.from.x() + targetX) / 2);
  route.dstTop = route.to.y() - 1;
  route.dstBottom = route.to.y() + 1;
  m_create = preview;
  // Follow the drag to the edges of the grid.
  ensureContentVisible(QRect(content, QSize(1, 1)));
  viewport()->update();
}

void TimelineView::finishCreate(Qt::KeyboardModifiers modifiers)
{
  if (!m_create || m_create->targetRow < 0)
    return;
  const TimelineLayout& layout = m_model.layout();
  const ChunkStates& states = m_model.states();
  const int srcRow = layout.rows()[static_cast<std::size_t>(m_press.visualRow)].firstRow;
  const int dstRow = layout.rows()[static_cast<std::size_t>(m_create->targetRow)].firstRow;
  if (dstRow == srcRow)
    return; // dropped back on its own row: nothing to move
  Transfer transfer;
  transfer.id = -1;
  transfer.step = m_press.column;
  transfer.src = states.rows()[static_cast<std::size_t>(srcRow)].ref;
  transfer.dst = states.rows()[static_cast<std::size_t>(dstRow)].ref;
  transfer.count = 1;
  transfer.op = effectiveOperation(modifiers);
  auto* command = new AddTransfersCommand(m_document, {transfer});
  const int id = command->ids().front();
  m_document->undoStack()->push(command);
  selectTransfers({id});
}

void TimelineView::updateMovePreview(const QPoint& pos)
{
  const int pitch = m_model.layout().columnPitch();
  int columns =
      static_cast<int>(std::lround(static_cast<double>(pos.x() - m_pressPos.x()) / pitch));
  // No transfer may move before step 0.
  int earliest = std::numeric_limits<int>::max();
  for (const int id : m_document->selection().transfers)
    if (const int index = m_model.indexOf(id); index >= 0)
      earliest =
          std::min(earliest, m_model.schedule().transfers[static_cast<std::size_t>(index)].step);
  if (earliest != std::numeric_limits<int>::max())
    columns = std::max(columns, -earliest);
  m_moveColumns = columns;
  viewport()->update();
}

void TimelineView::finishMove()
{
  const int delta = m_moveColumns;
  m_moveColumns = 0;
  if (delta == 0)
    return;
  std::vector<Transfer> moved;
  int step = 0;
  for (const int id : m_document->selection().transfers) {
    const int index = m_model.indexOf(id);
    if (index < 0)
      continue;
    Transfer t = m_model.schedule().transfers[static_cast<std::size_t>(index)];
    t.step += delta;
    step = t.step;
    moved.push_back(t);
  }
  if (moved.empty())
    return;
  const QString text = moved.size() == 1
                           ? tr("Move transfer to step %1").arg(step)
                           : tr("Move %1 transfers by %2 %3")
                                 .arg(moved.size())
                                 .arg(delta)
                                 .arg(std::abs(delta) == 1 ? tr("step") : tr("steps"));
  m_document->undoStack()->push(
      new ChangeTransfersCommand(m_document, std::move(moved), text, MergePolicy::Separate));
}

void TimelineView::updateBand(const QPoint& pos)
{
  m_band = QRect(m_pressPos, pos).normalized();
  m_bandSelection = transfersInBand();
  viewport()->update();
}

std::set<int> TimelineView::transfersInBand() const
{
  std::set<int> ids;
  const QRectF band = QRectF(m_band.translated(-contentOrigin()));
  const TimelineLayout& layout = m_model.layout();
  const int first = std::max(0, layout.columnAt(static_cast<int>(band.left())) - 1);
  const int last = layout.columnAt(static_cast<int>(band.right()));
  for (int step = first; step <= last; ++step) {
    for (const int index : m_model.transfersOfStep(step)) {
      const std::optional<ArrowRoute> route = m_model.route(index);
      if (route && routeTouches(*route, band))
        ids.insert(m_model.schedule().transfers[static_cast<std::size_t>(index)].id);
    }
  }
  return ids;
}

void TimelineView::clickCell(const Hit& hit, Qt::KeyboardModifiers modifiers)
{
  const TimelineLayout::Row& row = m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
  m_cursorRow = row.firstRow;
  m_cursorColumn = hit.column;
  m_cursorShown = true;
  // The transfers that wrote this cell: the arrows ending in it.
  std::set<int> ids =
      (modifiers & Qt::ControlModifier) ? m_document->selection().transfers : std::set<int>();
  const ChunkStates& states = m_model.states();
  for (const int index : m_model.transfersOfStep(hit.column - 1)) {
    const Transfer& t = m_model.schedule().transfers[static_cast<std::size_t>(index)];
    for (int c = 0; c < t.count; ++c) {
      if (states.rowOf({t.dst.rank, t.dst.buffer, t.dst.index + c}) == row.firstRow) {
        ids.insert(t.id);
        break;
      }
    }
  }
  selectTransfers(ids);
  viewport()->update();
}

void TimelineView::setHover(int transfer)
{
  if (transfer == m_hover)
    return;
  m_hover = transfer;
  viewport()->update();
}

} // namespace cs::editor
