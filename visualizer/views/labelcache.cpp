#include "labelcache.h"

#include <QPainter>

namespace cs::visualizer {

const QStaticText& LabelCache::text(const QString& label, const QFont& font)
{
  if (font != m_font || m_texts.size() >= kMaxLabels) {
    m_texts.clear();
    m_font = font;
  }
  auto it = m_texts.find(label);
  if (it == m_texts.end()) {
    QStaticText laidOut(label);
    laidOut.setTextFormat(Qt::PlainText);
    laidOut.setPerformanceHint(QStaticText::AggressiveCaching);
    laidOut.prepare(QTransform(), font);
    it = m_texts.insert(label, laidOut);
  }
  return *it;
}

void LabelCache::paint(QPainter& painter, const QRectF& rect, const QString& label, bool centred)
{
  const QStaticText& laidOut = text(label, painter.font());
  const QSizeF size = laidOut.size();
  const double x = centred ? rect.center().x() - size.width() / 2 : rect.left();
  painter.drawStaticText(QPointF(x, rect.center().y() - size.height() / 2), laidOut);
}

} // namespace cs::visualizer
