#include "topologyplaybackpaint_p.h"

#include "style/rankpalette.h"

#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

namespace {

/// A filled arrowhead of `size` pixels at the end of `line`.
void paintArrowhead(QPainter& painter, const QLineF& line, double size, const QColor& color)
{
  if (line.length() < size * 3)
    return;
  const QPointF v = (line.p2() - line.p1()) / line.length();
  const QPointF n(-v.y(), v.x());
  const QPointF tip = line.p2() - v * 2;
  QPolygonF head;
  head << tip << tip - v * size + n * size * 0.55 << tip - v * size - n * size * 0.55;
  painter.setPen(Qt::NoPen);
  painter.setBrush(color);
  painter.drawPolygon(head);
}

/// Pies with more slices than this are unreadable at token size.
constexpr std::size_t kPieSlices = 4;

/// A small count beside a token's disc: the ranks its data sums.
void paintCount(QPainter& painter, const QRectF& disc, int count)
{
  QFont font = painter.font();
  font.setPixelSize(9);
  font.setBold(true);
  painter.setFont(font);
  painter.setPen(QColor(40, 40, 40));
  painter.drawText(QRectF(disc.right() + 1, disc.top() - 7, 24, 12),
                   Qt::AlignLeft | Qt::AlignVCenter, QString::number(count));
}

double tokenRadius(const TopologyPlaybackGeometry& geometry)
{
  return std::clamp(7 * geometry.scale(), 4.0, 7.0);
}

void paintNodeLabel(QPainter& painter, const TopologyNode& node, const QRectF& rect,
                    const QColor& text)
{
  QFont font = painter.font();
  font.setPixelSize(int(std::clamp(rect.height() * 0.28, 8.0, 13.0)));
  font.setBold(node.kind == NodeKind::Gpu);
  painter.setFont(font);
  painter.setPen(text);
  QString label = QString::fromStdString(node.name);
  if (node.rank >= 0 && rect.height() >= 30)
    label += QStringLiteral("\nrank %1").arg(node.rank);
  else if (node.rank >= 0)
    label = QString::number(node.rank); // too small for the name: the rank is what matters
  else
    label = painter.fontMetrics().elidedText(label, Qt::ElideRight, int(rect.width()) - 2);
  painter.drawText(rect, Qt::AlignCenter, label);
}

} // namespace

void paintSelectedLink(QPainter& painter, const TopologyPlaybackGeometry& geometry, int link,
                       const QPalette& palette)
{
  QColor glow = palette.color(QPalette::Highlight);
  glow.setAlpha(120);
  painter.setPen(QPen(glow, geometry.laneGap() + 12, Qt::SolidLine, Qt::RoundCap));
  const QLineF a = geometry.lane(link, true);
  const QLineF b = geometry.lane(link, false);
  painter.drawLine(QLineF((a.p1() + b.p2()) / 2, (a.p2() + b.p1()) / 2));
}

void paintLanes(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const TopologyPlaybackFrame& frame)
{
  for (const DrawnLane& lane : frame.lanes) {
    const QLineF line = geometry.lane(lane.link, lane.aToB);
    if (line.isNull())
      continue;
    painter.setPen(QPen(lane.stroke.color, lane.stroke.width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(line);
    paintArrowhead(painter, line, std::max(5.0, lane.stroke.width + 2), lane.stroke.color);
  }
}

void paintNodes(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const TopologyPlaybackFrame& frame, const QPalette& palette)
{
  const bool dark = editor::isDark(palette);
  for (const TopologyNode& node : geometry.topology().nodes) {
    const QRectF rect = geometry.nodeRect(node.id);
    if (rect.isEmpty())
      continue;
    const bool gpu = node.rank >= 0;
    const bool blocked = gpu && frame.blocked.count(node.rank);
    QColor fill = gpu ? editor::rankFill(node.rank, dark) : palette.color(QPalette::Button);
    QColor border = gpu ? editor::rankColor(node.rank) : palette.color(QPalette::Mid);
    double width = 1.5;
    if (blocked) {
      border = editor::errorColor();
      width = 3.5;
    }
    painter.setPen(QPen(border, width));
    painter.setBrush(fill);
    const double radius = std::min(6.0, rect.height() / 5);
    painter.drawRoundedRect(rect, radius, radius);
    paintNodeLabel(painter, node, rect, palette.color(QPalette::Text));
  }
}

void paintCycle(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const std::vector<int>& ranks)
{
  std::vector<QRectF> boxes;
  for (const int rank : ranks)
    for (const TopologyNode& node : geometry.topology().nodes)
      if (node.rank == rank)
        boxes.push_back(geometry.nodeRect(node.id));
  if (boxes.size() < 2)
    return;
  QPointF middle;
  for (const QRectF& box : boxes)
    middle += box.center() / static_cast<double>(boxes.size());
  const QColor red = editor::errorColor();
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const QRectF& a = boxes[i];
    const QRectF& b = boxes[(i + 1) % boxes.size()];
    const QLineF centres(a.center(), b.center());
    if (centres.length() < 1)
      continue;
    // Leave and enter the boxes at their edges, bowed towards the cycle's middle.
    const QPointF unit = (centres.p2() - centres.p1()) / centres.length();
    const double inset = std::min(a.width(), a.height()) * 0.6;
    const QPointF from = centres.p1() + unit * inset;
    const QPointF to = centres.p2() - unit * inset;
    const QPointF control = (from + to) / 2 + (middle - (from + to) / 2) * 0.35;
    QPainterPath path(from);
    path.quadTo(control, to);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(red, 2.5, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
    painter.drawPath(path);
    paintArrowhead(painter, QLineF(control, to), 11, red);
  }
}

void paintTokens(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                 const TopologyPlaybackFrame& frame)
{
  const double r = tokenRadius(geometry);
  const bool showCounts = geometry.scale() >= 0.45; // else labels would cover the tokens
  for (const DrawnToken& token : frame.tokens) {
    const QRectF disc(token.at.point - QPointF(r, r), QSizeF(2 * r, 2 * r));
    painter.setPen(Qt::NoPen);
    if (token.ranks.size() <= 1) {
      painter.setBrush(token.ranks.empty() ? QColor(Qt::gray)
                                           : editor::rankColor(token.ranks.front()));
      painter.drawEllipse(disc);
    } else if (token.ranks.size() <= kPieSlices) {
      // A pie: one slice per contributing rank, so a partial sum shows whose data it holds.
      const int slice = int(5760 / token.ranks.size());
      for (std::size_t i = 0; i < token.ranks.size(); ++i) {
        painter.setBrush(editor::rankColor(token.ranks[i]));
        painter.drawPie(disc, 1440 - int(i + 1) * slice, slice);
      }
    } else {
      // Too many slices to tell apart: the first rank's colour and how many ranks it sums.
      painter.setBrush(editor::rankColor(token.ranks.front()));
      painter.drawEllipse(disc);
      if (showCounts)
        paintCount(painter, disc, int(token.ranks.size()));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(40, 40, 40), 1));
    painter.drawEllipse(disc);
  }
}

void paintLegend(QPainter& painter, const QRectF& area, const QPalette& palette, bool cycle)
{
  QFont font = painter.font();
  font.setPixelSize(11);
  font.setBold(false);
  painter.setFont(font);
  const QColor text = palette.color(QPalette::Text);
  double x = area.left() + 8;
  const double y = area.center().y();
  painter.setPen(text);
  painter.drawText(QRectF(x, area.top(), 90, area.height()), Qt::AlignVCenter,
                   QStringLiteral("utilisation"));
  x += 72;
  for (const double u : {0.0, 0.5, 1.0}) {
    const LinkStroke stroke = linkStroke(u, LinkKind::NvLink);
    painter.setPen(QPen(stroke.color, stroke.width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(QPointF(x, y), QPointF(x + 28, y));
    painter.setPen(text);
    painter.drawText(QRectF(x + 32, area.top(), 40, area.height()), Qt::AlignVCenter,
                     QStringLiteral("%1%").arg(int(u * 100)));
    x += 74;
  }
  x += 8;
  painter.setPen(QPen(QColor(40, 40, 40), 1));
  painter.setBrush(editor::rankColor(0));
  painter.drawEllipse(QPointF(x + 6, y), 6, 6);
  painter.setPen(text);
  painter.drawText(QRectF(x + 16, area.top(), 200, area.height()), Qt::AlignVCenter,
                   QStringLiteral("message, coloured by its ranks"));
  x += 210;
  painter.setPen(QPen(editor::errorColor(), 3));
  painter.setBrush(Qt::NoBrush);
  painter.drawRoundedRect(QRectF(x, y - 7, 22, 14), 3, 3);
  painter.setPen(text);
  painter.drawText(QRectF(x + 28, area.top(), 160, area.height()), Qt::AlignVCenter,
                   QStringLiteral("rank blocked"));
  if (!cycle)
    return;
  x += 112;
  painter.setPen(QPen(editor::errorColor(), 2.5, Qt::DashLine, Qt::RoundCap));
  painter.drawLine(QPointF(x, y), QPointF(x + 26, y));
  paintArrowhead(painter, QLineF(QPointF(x, y), QPointF(x + 30, y)), 9, editor::errorColor());
  painter.setPen(text);
  painter.drawText(QRectF(x + 36, area.top(), 160, area.height()), Qt::AlignVCenter,
                   QStringLiteral("waits for"));
}

void paintBanner(QPainter& painter, const QRectF& area, const QString& title, const QString& note,
                 const QPalette& palette)
{
  painter.save(); // the italic note must not leak into the layers painted after
  QFont font = painter.font();
  font.setPixelSize(12);
  font.setBold(true);
  font.setItalic(false);
  painter.setFont(font);
  painter.setPen(palette.color(QPalette::Text));
  painter.drawText(area.adjusted(8, 0, -8, 0), Qt::AlignLeft | Qt::AlignVCenter, title);
  if (!note.isEmpty()) {
    font.setBold(false);
    font.setItalic(true);
    painter.setFont(font);
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(area.adjusted(8, 0, -8, 0), Qt::AlignRight | Qt::AlignVCenter, note);
  }
  painter.restore();
}

} // namespace cs::visualizer
