#include "ganttlegend.h"

#include <QPainter>

namespace cs::visualizer {

QColor opColor(OpType op)
{
  switch (op) {
  case OpType::Send:
    return {0x3b, 0x7d, 0xd8};
  case OpType::Recv:
    return {0x3a, 0xa6, 0x5b};
  case OpType::RecvCopySend:
    return {0x21, 0xa0, 0xa0};
  case OpType::RecvReduceSend:
    return {0xe0, 0x8a, 0x1e};
  case OpType::RecvReduceCopy:
    return {0x9b, 0x59, 0xb6};
  case OpType::RecvReduceCopySend:
    return {0xd2, 0x4d, 0x57};
  case OpType::Copy:
    return {0x7f, 0x8c, 0x8d};
  case OpType::Reduce:
    return {0xa0, 0x6a, 0x3c};
  case OpType::Nop:
    break;
  }
  return {0xbd, 0xc3, 0xc7};
}

QString opTitle(OpType op)
{
  switch (op) {
  case OpType::Send:
    return QStringLiteral("send");
  case OpType::Recv:
    return QStringLiteral("receive");
  case OpType::RecvCopySend:
    return QStringLiteral("receive-copy-send");
  case OpType::RecvReduceSend:
    return QStringLiteral("receive-reduce-send");
  case OpType::RecvReduceCopy:
    return QStringLiteral("receive-reduce-copy");
  case OpType::RecvReduceCopySend:
    return QStringLiteral("receive-reduce-copy-send");
  case OpType::Copy:
    return QStringLiteral("copy");
  case OpType::Reduce:
    return QStringLiteral("reduce");
  case OpType::Nop:
    break;
  }
  return QStringLiteral("nop");
}

GanttLegend::GanttLegend(std::vector<OpType> ops, QWidget* parent)
    : QWidget(parent), m_ops(std::move(ops))
{
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void GanttLegend::setRunKey(const QString& first, const QString& second)
{
  m_runs = {first, second};
  update();
}

QSize GanttLegend::sizeHint() const
{
  return {400, fontMetrics().height() + 8};
}

void GanttLegend::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  const int h = fontMetrics().height();
  const int swatch = h - 4;
  int x = 8;
  const auto item = [&](const QColor& fill, const QColor& outline, const QString& text) {
    painter.setPen(outline);
    painter.setBrush(fill);
    painter.drawRect(x, 4 + 2, swatch * 2, swatch);
    x += swatch * 2 + 4;
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(x, 4 + fontMetrics().ascent(), text);
    x += fontMetrics().horizontalAdvance(text) + 14;
  };
  for (const OpType op : m_ops)
    item(opColor(op), opColor(op).darker(140),
         QStringLiteral("%1 (%2)").arg(QString::fromUtf8(opTypeName(op)), opTitle(op)));
  x += 10;
  const QColor sample = opColor(OpType::Send);
  QColor pale = sample;
  pale.setAlpha(60);
  if (m_runs.size() == 2) {
    item(sample, sample.darker(140), tr("A: %1").arg(m_runs[0]));
    item(pale, sample, tr("B: %1").arg(m_runs[1]));
    return;
  }
  item(sample, sample.darker(140), tr("done"));
  item(sample.lighter(125), palette().color(QPalette::WindowText), tr("running"));
  item(pale, sample, tr("pending"));
}

} // namespace cs::visualizer
