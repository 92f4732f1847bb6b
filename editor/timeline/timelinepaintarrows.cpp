#include "timelinepaintframe.h"
#include "timelineplayback.h"

#include "style/rankpalette.h"

#include <QImage>
#include <QPainter>
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

/// The dot and the heads of plain arrows of one colour, painted once into small images and
/// stamped at every arrow's (pixel-snapped) ends: one antialiased path holding every head of a
/// colour costs the rasterizer its edges times its height, which thousands of arrows spread over
/// the grid (a 1,024-rank program's node rows) turn into hundreds of milliseconds.
struct HeadStamps {
  static constexpr int kMargin = 3;
  QImage dot, copy, reduce;
  QPoint dotOffset, headOffset; ///< where the anchor point lies inside the images
};

HeadStamps makeHeadStamps(const QColor& colour, const QColor& base, qreal dot, qreal head,
                          qreal ringPen)
{
  const auto image = [](int w, int h) {
    QImage stamp(w, h, QImage::Format_ARGB32_Premultiplied);
    stamp.fill(Qt::transparent);
    return stamp;
  };
  HeadStamps s;
  const int d = static_cast<int>(std::ceil(dot)) + HeadStamps::kMargin;
  s.dotOffset = {d, d};
  s.dot = image(2 * d + 1, 2 * d + 1);
  const int hx = static_cast<int>(std::ceil(2 * head + 1)) + HeadStamps::kMargin;
  const int hy = static_cast<int>(std::ceil(head)) + HeadStamps::kMargin;
  s.headOffset = {hx, hy};
  s.copy = image(hx + HeadStamps::kMargin + 1, 2 * hy + 1);
  s.reduce = s.copy;
  const auto paint = [&](QImage& target, QPoint offset, auto&& draw) {
    QPainter p(&target);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.translate(offset);
    draw(p);
  };
  paint(s.dot, s.dotOffset, [&](QPainter& p) {
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawEllipse(QPointF(0, 0), dot, dot);
  });
  paint(s.copy, s.headOffset, [&](QPainter& p) {
    QPainterPath triangle(QPointF(0, 0));
    triangle.lineTo(QPointF(-head * 1.5, -head));
    triangle.lineTo(QPointF(-head * 1.5, head));
    triangle.closeSubpath();
    p.fillPath(triangle, colour);
  });
  paint(s.reduce, s.headOffset, [&](QPainter& p) {
    const QPointF centre(-(head + 0.5), 0);
    p.setPen(QPen(colour, ringPen));
    p.setBrush(base);
    p.drawEllipse(centre, head, head);
    const qreal arm = head * 0.55;
    p.drawLine(centre - QPointF(arm, 0), centre + QPointF(arm, 0));
    p.drawLine(centre - QPointF(0, arm), centre + QPointF(0, arm));
  });
  return s;
}

/// Arrows without emphasis, batched by colour: their axis-aligned runs as crisp unantialiased
/// lines in one call per colour, dots and heads stamped (HeadStamps). A zoomed-out 64-rank grid
/// shows thousands of arrows; one stroke call each would miss the frame budget.
void drawPlainArrows(Frame& f, const std::vector<int>& list, int extraWidth = 0, double fade = 0)
{
  struct Batch {
    QVector<QLineF> lines;
    QVector<QPoint> dots, copies, reduces;
    QVector<QLineF> marks; ///< multi-chunk brackets
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
  const QRect reach = f.grid.adjusted(-20, -20, 20, 20);
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
    const QPoint from(static_cast<int>(x0), static_cast<int>(y0));
    const QPoint to(static_cast<int>(x1), static_cast<int>(y1));
    if (reach.contains(from))
      b.dots << from;
    if (reach.contains(to))
      (t.op == TransferOp::Copy ? b.copies : b.reduces) << to;
  }
  const qreal ringPen = std::max(1.2, 1.5 * std::min(zoom, 1.5));
  for (const auto& [rgb, b] : batches) {
    const QColor colour(rgb);
    f.p.setRenderHint(QPainter::Antialiasing, false);
    f.p.setPen(QPen(colour, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    f.p.drawLines(b.lines);
    const HeadStamps stamps = makeHeadStamps(colour, f.ink.base, dot, head, ringPen);
    for (const QPoint& at : b.dots)
      f.p.drawImage(at - stamps.dotOffset, stamps.dot);
    for (const QPoint& at : b.copies)
      f.p.drawImage(at - stamps.headOffset, stamps.copy);
    for (const QPoint& at : b.reduces)
      f.p.drawImage(at - stamps.headOffset, stamps.reduce);
    f.p.setRenderHint(QPainter::Antialiasing, true);
    f.p.setPen(QPen(colour, ringPen));
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
