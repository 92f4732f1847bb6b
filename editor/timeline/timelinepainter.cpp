#include "timelinepaintframe.h"

#include <algorithm>

namespace cs::editor {

using namespace paintdetail;

void paintTimeline(QPainter& painter, const TimelineModel& model, const TimelinePaintState& state)
{
  if (!model.hasSchedule()) {
    paintMessage(painter, state);
    return;
  }
  Frame f(painter, model, state);
  f.labels = state.labels;
  const HeaderMetrics& h = state.header;
  f.grid = QRect(h.left(), h.top, std::max(0, state.viewport.width() - h.left()),
                 std::max(0, state.viewport.height() - h.top));
  f.origin = QPoint(h.left(), h.top) - state.scroll;
  const TimelineLayout& layout = model.layout();
  f.firstColumn = std::max(0, layout.columnAt(state.scroll.x()));
  f.lastColumn =
      std::min(model.columnCount() - 1, layout.columnAt(state.scroll.x() + f.grid.width()));
  f.rows = layout.rowsBetween(state.scroll.y(), state.scroll.y() + f.grid.height());

  f.cellFont = state.font;
  const qreal scale = layout.textScale();
  if (scale < 1 && state.font.pointSizeF() > 0)
    f.cellFont.setPointSizeF(std::max(6.0, state.font.pointSizeF() * scale));
  f.boldCellFont = f.cellFont;
  f.boldCellFont.setBold(true);
  f.headerFont = state.font;
  f.boldHeaderFont = state.font;
  f.boldHeaderFont.setBold(true);
  f.cellText = layout.rowHeight() >= 10 && layout.cellWidth() >= 22;
  LabelCache temporary;
  if (!f.labels)
    f.labels = &temporary;
  if (f.labels->generation != model.generation() || f.labels->cellWidth != layout.cellWidth() ||
      f.labels->font != f.cellFont || f.labels->dark != f.ink.dark) {
    f.labels->entries.clear();
    f.labels->fills.clear();
    f.labels->strips.clear();
    if (f.labels->font != f.cellFont || f.labels->dark != f.ink.dark)
      f.labels->texts.clear();
    f.labels->dark = f.ink.dark;
    f.labels->generation = model.generation();
    f.labels->cellWidth = layout.cellWidth();
    f.labels->font = f.cellFont;
  }

  painter.fillRect(QRect(QPoint(0, 0), state.viewport), f.ink.base);
  painter.setClipRect(f.grid);
  paintCells(f);
  if (state.playback)
    paintPlaybackCells(f);
  painter.setRenderHint(QPainter::Antialiasing, true);
  paintArrows(f);
  if (state.playback)
    paintPlaybackProblems(f);
  if (state.cursor && state.focused) {
    const QRect r = layout.cellRect(state.cursor->first, state.cursor->second).translated(f.origin);
    painter.setPen(QPen(f.ink.accent, 2, Qt::DotLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(r.adjusted(1, 1, -1, -2));
  }
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setClipping(false);
  paintStepHeader(f);
  painter.setRenderHint(QPainter::Antialiasing, true);
  paintRowHeader(f);
  painter.setRenderHint(QPainter::Antialiasing, false);
  paintCorner(f);
  if (!state.rubberBand.isEmpty()) {
    QColor fill = f.ink.accent;
    fill.setAlpha(40);
    painter.fillRect(state.rubberBand, fill);
    painter.setPen(QPen(f.ink.accent, 1));
    painter.drawRect(state.rubberBand.adjusted(0, 0, -1, -1));
  }
}

} // namespace cs::editor
