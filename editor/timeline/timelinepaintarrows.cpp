#include "timelinepaintframe.h"
#include "timelineplayback.h"

#include "style/rankpalette.h"

#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace cs::editor::paintdetail {

namespace {

enum class Emphasis { None, Hover, Selected, Ghost };

void drawArrow(Frame& f, const ArrowRoute& route, TransferOp op, QColor colour, Emphasis emphasis,
               int count)
{
  const qreal zoom = f.model.layout().zoom();
  const ArrowRoute& r = route;
  QPainterPath path = r.path(6 * zoom).translated(f.origin);
  const QPointF from = r.from + f.origin;
  const QPointF to = r.to + f.origin;
  const qreal width = std::max(1.2, 1.7 * std::min(zoom, 1.5));
  f.p.setBrush(Qt::NoBrush);
  if (emphasis == Emphasis::Hover || emphasis == Emphasis::Selected) {
    QColor halo = f.ink.accent;
    halo.setAlpha(emphasis == Emphasis::Selected ? 120 : 70);
    f.p.setPen(QPen(halo, width + 6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    f.p.drawPath(path);
  }
  if (emphasis == Emphasis::Ghost)
    colour.setAlpha(170);
  const qreal lineWidth = emphasis == Emphasis::Selected ? width + 1 : width;
  f.p.setPen(QPen(colour, lineWidth, emphasis == Emphasis::Ghost ? Qt::DashLine : Qt::SolidLine,
                  Qt::RoundCap, Qt::RoundJoin));
  f.p.drawPath(path);
  if (count > 1) {
    // A bracket along the chunks a multi-chunk transfer covers, at both ends.
    f.p.setPen(QPen(colour, width + 0.8, Qt::SolidLine, Qt::FlatCap));
    f.p.drawLine(QPointF(from.x() + 1, r.srcTop + f.origin.y() + 2),
                 QPointF(from.x() + 1, r.srcBottom + f.origin.y() - 3));
    f.p.drawLine(QPointF(to.x() - 1, r.dstTop + f.origin.y() + 2),
                 QPointF(to.x() - 1, r.dstBottom + f.origin.y() - 3));
  }
  const qreal dot = std::max(1.8, 2.4 * std::min(zoom, 1.5));
  f.p.setPen(Qt::NoPen);
  f.p.setBrush(colour);
  f.p.drawEllipse(from, dot, dot);
  const qreal head = std::max(3.5, 5.5 * std::min(zoom, 1.6));
  if (op == TransferOp::Copy) {
    QPainterPath triangle(to);
    triangle.lineTo(to + QPointF(-head * 1.5, -head));
    triangle.lineTo(to + QPointF(-head * 1.5, head));
    triangle.closeSubpath();
    f.p.drawPath(triangle);
  } else {
    // Reduce: ⊕ at the destination, the sign of dst = dst ⊕ src.
    const QPointF centre = to - QPointF(head + 0.5, 0);
    f.p.setPen(QPen(colour, std::max(1.2, width * 0.9)));
    f.p.setBrush(f.ink.base);
    f.p.drawEllipse(centre, head, head);
    const qreal arm = head * 0.55;
    f.p.drawLine(centre - QPointF(arm, 0), centre + QPointF(arm, 0));
    f.p.drawLine(centre - QPointF(0, arm), centre + QPointF(0, arm));
  }
}

QColor arrowColour(const Frame& f, const Transfer& t);

/// Arrows without emphasis, batched by colour: their axis-aligned runs as crisp unantialiased
/// lines in one call per colour, heads and dots as one antialiased path per colour. A zoomed-out
/// 64-rank grid shows thousands of arrows; one stroke call each would miss the frame budget.
void drawPlainArrows(Frame& f, const std::vector<int>& list, int extraWidth = 0, double fade = 0)
{
  struct Batch {
    QVector<QLineF> lines;
    QPainterPath solids;   ///< dots and copy heads
    QPainterPath rings;    ///< reduce heads
    QVector<QLineF> marks; ///< the plus signs in reduce heads and multi-chunk brackets
  };
  const qreal zoom = f.model.layout().zoom();
  const int width = (zoom >= 0.75 ? 2 : 1) + extraWidth;
  const qreal dot = std::max(1.8, 2.4 * std::min(zoom, 1.5));
  const qreal head = std::max(3.5, 5.5 * std::min(zoom, 1.6));
  std::vector<std::pair<QRgb, Batch>> batches;
  auto batchFor = [&batches](QRgb colour) -> Batch& {
    for (auto& [key, batch] : batches)
      if (key == colour)
        return batch;
    return batches.emplace_back(colour, Batch{}).second;
  };
  const TimelineModel& model = f.model;
  for (const int index : list) {
    const Transfer& t = model.schedule().transfers[static_cast<std::size_t>(index)];
    const ArrowRoute r = *model.route(index);
    const QColor colour = arrowColour(f, t);
    Batch& b = batchFor((fade > 0 ? mix(colour, f.ink.base, fade) : colour).rgb());
    // Snapped to pixels so the unantialiased runs are sharp.
    const qreal x0 = std::round(r.from.x() + f.origin.x());
    const qreal x1 = std::round(r.to.x() + f.origin.x());
    const qreal lane = std::round(r.laneX + f.origin.x());
    const qreal y0 = std::round(r.from.y() + f.origin.y());
    const qreal y1 = std::round(r.to.y() + f.origin.y());
    const qreal end = x1 - head; // the head covers the rest
    if (y0 == y1) {
      b.lines << QLineF(x0, y0, end, y1);
    } else {
      b.lines << QLineF(x0, y0, lane, y0) << QLineF(lane, y0, lane, y1)
              << QLineF(lane, y1, end, y1);
    }
    if (t.count > 1) {
      b.marks << QLineF(x0 + 1, r.srcTop + f.origin.y() + 2, x0 + 1, r.srcBottom + f.origin.y() - 3)
              << QLineF(x1 - 1, r.dstTop + f.origin.y() + 2, x1 - 1,
                        r.dstBottom + f.origin.y() - 3);
    }
    b.solids.addEllipse(QPointF(x0, y0), dot, dot);
    const QPointF to(x1, y1);
    if (t.op == TransferOp::Copy) {
      b.solids.moveTo(to);
      b.solids.lineTo(to + QPointF(-head * 1.5, -head));
      b.solids.lineTo(to + QPointF(-head * 1.5, head));
      b.solids.closeSubpath();
    } else {
      const QPointF centre = to - QPointF(head + 0.5, 0);
      b.rings.addEllipse(centre, head, head);
      const qreal arm = head * 0.55;
      b.marks << QLineF(centre - QPointF(arm, 0), centre + QPointF(arm, 0))
              << QLineF(centre - QPointF(0, arm), centre + QPointF(0, arm));
    }
  }
  for (const auto& [rgb, b] : batches) {
    const QColor colour(rgb);
    f.p.setRenderHint(QPainter::Antialiasing, false);
    f.p.setPen(QPen(colour, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    f.p.drawLines(b.lines);
    f.p.setRenderHint(QPainter::Antialiasing, true);
    f.p.setPen(Qt::NoPen);
    f.p.setBrush(colour);
    f.p.drawPath(b.solids);
    f.p.setPen(QPen(colour, std::max(1.2, 1.5 * std::min(zoom, 1.5))));
    f.p.setBrush(f.ink.base);
    f.p.drawPath(b.rings);
    f.p.drawLines(b.marks);
  }
}

QColor arrowColour(const Frame& f, const Transfer& t)
{
  switch (f.model.severity(t.id)) {
  case ArrowSeverity::Error:
    return errorColor();
  case ArrowSeverity::Warning:
    return warningColor();
  case ArrowSeverity::None:
    break;
  }
  const QColor colour = f.ink.stroke(t.src.rank);
  return f.ink.dark ? colour.lighter(135) : colour;
}

/// A badge on every listed arrow with a problem: rank 0's arrows are red too, so colour alone
/// would not tell an error apart.
void paintProblemBadges(Frame& f, std::initializer_list<const std::vector<int>*> lists)
{
  const TimelineModel& model = f.model;
  const qreal zoom = model.layout().zoom();
  const qreal radius = std::clamp(6.5 * zoom, 3.5, 9.0);
  for (const std::vector<int>* list : lists) {
    for (const int index : *list) {
      const Transfer& t = model.schedule().transfers[static_cast<std::size_t>(index)];
      const ArrowSeverity severity = model.severity(t.id);
      if (severity == ArrowSeverity::None)
        continue;
      const QPointF at = model.route(index)->handle() + f.origin;
      f.p.setPen(QPen(f.ink.base, 1.5));
      f.p.setBrush(severity == ArrowSeverity::Error ? errorColor() : warningColor());
      f.p.drawEllipse(at, radius, radius);
      if (radius >= 5) {
        f.p.setPen(Qt::NoPen);
        f.p.setBrush(Qt::white);
        const qreal w = radius * 0.28;
        f.p.drawRect(QRectF(at.x() - w / 2, at.y() - radius * 0.6, w, radius * 0.75));
        f.p.drawEllipse(QPointF(at.x(), at.y() + radius * 0.45), w * 0.6, w * 0.6);
      }
    }
  }
}

/// The ghosts of a drag: the selected arrows moved by whole columns, and a transfer being drawn.
void paintEditPreviews(Frame& f)
{
  const TimelineModel& model = f.model;
  if (f.state.moveColumns != 0) {
    const qreal dx = f.state.moveColumns * model.layout().columnPitch();
    for (const int id : f.state.selected) {
      const int index = model.indexOf(id);
      const std::optional<ArrowRoute> route = model.route(index);
      if (!route)
        continue;
      const Transfer& t = model.schedule().transfers[static_cast<std::size_t>(index)];
      drawArrow(f, route->shifted(dx), t.op, f.ink.accent, Emphasis::Ghost, t.count);
    }
  }
  if (const std::optional<CreatePreview>& create = f.state.create) {
    if (create->targetRow >= 0) {
      const QRect target = model.layout()
                               .cellRect(create->targetRow, create->targetColumn)
                               .translated(f.origin)
                               .adjusted(-1, -1, 0, -1);
      f.p.setPen(QPen(f.ink.accent, 2));
      f.p.setBrush(Qt::NoBrush);
      f.p.drawRect(target);
    }
    drawArrow(f, create->route, create->op, f.ink.accent, Emphasis::Ghost, 1);
  }
}

} // namespace

void paintArrows(Frame& f)
{
  const TimelineModel& model = f.model;
  const QRectF visible = QRectF(f.grid).translated(-f.origin).adjusted(-8, -8, 8, 8);
  const TimelinePlayback* playback = f.state.playback;
  std::vector<int> plain, marked, hovered, selected, pending, running;
  for (int step = f.firstColumn - 1; step <= f.lastColumn; ++step) {
    for (const int index : model.transfersOfStep(step)) {
      const std::optional<ArrowRoute> route = model.route(index);
      if (!route || !route->bounds().intersects(visible))
        continue;
      const Transfer& t = model.schedule().transfers[static_cast<std::size_t>(index)];
      if (f.state.selected.contains(t.id))
        selected.push_back(index);
      else if (t.id == f.state.hoverTransfer)
        hovered.push_back(index);
      else if (model.severity(t.id) != ArrowSeverity::None)
        marked.push_back(index);
      else if (playback && playback->stateOf(index) == TransferProgress::Pending)
        pending.push_back(index);
      else if (playback && playback->stateOf(index) == TransferProgress::Running)
        running.push_back(index);
      else
        plain.push_back(index);
    }
  }
  auto draw = [&](const std::vector<int>& list, Emphasis emphasis) {
    for (const int index : list) {
      const Transfer& t = model.schedule().transfers[static_cast<std::size_t>(index)];
      drawArrow(f, *model.route(index), t.op, arrowColour(f, t), emphasis, t.count);
    }
  };
  // A replay fades the arrows still to come and thickens those in flight.
  drawPlainArrows(f, pending, 0, 0.72);
  drawPlainArrows(f, plain);
  drawPlainArrows(f, running, 1);
  drawPlainArrows(f, marked, 1);
  draw(hovered, Emphasis::Hover);
  draw(selected, Emphasis::Selected);
  paintProblemBadges(f, {&marked, &hovered, &selected});
  paintEditPreviews(f);
}

} // namespace cs::editor::paintdetail
