// TimelineView's keyboard, wheel and tooltip handling: a cursor cell moved with the arrow keys
// (Enter selects what wrote it), Delete and Escape, Ctrl+wheel zoom around the mouse, and
// tooltips from toolTipAt().

#include "style/viewporttooltip.h"
#include "timelineview.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cs::editor {

void TimelineView::moveCursor(int rows, int columns)
{
  const TimelineLayout& layout = m_model.layout();
  if (layout.rows().empty())
    return;
  m_cursorShown = true;
  m_pointer.reset(); // a paste now goes to the cursor, not where the mouse rests
  const int last = static_cast<int>(layout.rows().size()) - 1;
  int visual = std::clamp(layout.visualRowOf(m_cursorRow) + rows, 0, last);
  // An expanded node's header row holds no chunk: step over it the way the cursor moves.
  const auto header = [&](int v) { return layout.rows()[static_cast<std::size_t>(v)].expanded; };
  const int direction = rows < 0 ? -1 : 1;
  while (header(visual) && visual + direction >= 0 && visual + direction <= last)
    visual += direction;
  while (header(visual) && visual - direction >= 0 && visual - direction <= last)
    visual -= direction;
  m_cursorRow = layout.rows()[static_cast<std::size_t>(visual)].firstRow;
  m_cursorColumn = std::clamp(m_cursorColumn + columns, 0, m_model.columnCount() - 1);
  ensureContentVisible(layout.cellRect(visual, m_cursorColumn));
  viewport()->update();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
  if (event->modifiers() & Qt::ControlModifier) {
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.15, steps), event->position().toPoint());
    event->accept();
    return;
  }
  if ((event->modifiers() & Qt::ShiftModifier) && event->angleDelta().x() == 0) {
    QScrollBar* h = horizontalScrollBar();
    h->setValue(h->value() - event->angleDelta().y() * h->singleStep() / 40);
    event->accept();
    return;
  }
  QAbstractScrollArea::wheelEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
  const TimelineLayout& layout = m_model.layout();
  const int page =
      std::max(1, (viewport()->height() - m_header.top) / std::max(1, layout.rowHeight()) - 1);
  switch (event->key()) {
  case Qt::Key_Delete:
  case Qt::Key_Backspace:
    deleteSelection();
    return;
  case Qt::Key_Escape:
    if (m_gesture != Gesture::None) {
      m_gesture = Gesture::None;
      m_create.reset();
      m_bandSelection.clear();
      viewport()->update();
    } else {
      selectTransfers({});
    }
    return;
  case Qt::Key_Up:
    moveCursor(-1, 0);
    return;
  case Qt::Key_Down:
    moveCursor(1, 0);
    return;
  case Qt::Key_Left:
    moveCursor(0, -1);
    return;
  case Qt::Key_Right:
    moveCursor(0, 1);
    return;
  case Qt::Key_PageUp:
    moveCursor(-page, 0);
    return;
  case Qt::Key_PageDown:
    moveCursor(page, 0);
    return;
  case Qt::Key_Home:
    moveCursor(0, -m_cursorColumn);
    return;
  case Qt::Key_End:
    moveCursor(0, m_model.columnCount());
    return;
  case Qt::Key_Return:
  case Qt::Key_Enter:
  case Qt::Key_Space: {
    Hit hit;
    hit.visualRow = layout.visualRowOf(m_cursorRow);
    hit.column = m_cursorColumn;
    if (hit.visualRow < 0)
      return;
    const TimelineLayout::Row& row = layout.rows()[static_cast<std::size_t>(hit.visualRow)];
    const int rank = m_model.states().rows()[static_cast<std::size_t>(m_cursorRow)].ref.rank;
    if (row.kind == TimelineLayout::Row::Kind::Node)
      setNodeExpanded(row.node, true); // Enter opens a folded node
    else if (event->modifiers() & Qt::ShiftModifier && nodesGrouped() && rank >= 0 &&
             rank < static_cast<int>(m_nodes.nodeOfRank.size()))
      setNodeExpanded(m_nodes.nodeOfRank[static_cast<std::size_t>(rank)], false); // Shift+Enter
    else
      clickCell(hit, event->modifiers());
    return;
  }
  case Qt::Key_Shift:
    if (m_gesture == Gesture::CreateTransfer && m_create) {
      m_create->op = effectiveOperation(event->modifiers() | Qt::ShiftModifier);
      viewport()->update();
    }
    return;
  default:
    break;
  }
  QAbstractScrollArea::keyPressEvent(event);
}

void TimelineView::keyReleaseEvent(QKeyEvent* event)
{
  if (event->key() == Qt::Key_Shift && m_gesture == Gesture::CreateTransfer && m_create) {
    m_create->op = effectiveOperation(event->modifiers() & ~Qt::ShiftModifier);
    viewport()->update();
    return;
  }
  QAbstractScrollArea::keyReleaseEvent(event);
}

bool TimelineView::viewportEvent(QEvent* event)
{
  if (showViewportToolTip(event, viewport(), [this](const QPoint& at) { return toolTipAt(at); }))
    return true;
  if (event->type() == QEvent::Leave) {
    setHover(-1);
    m_pointer.reset();
  }
  return QAbstractScrollArea::viewportEvent(event);
}

} // namespace cs::editor
