#include "pointerhighlight.h"

#include <QPainter>
#include <QVariantAnimation>

namespace cs::visualizer {

PointerHighlight::PointerHighlight(QWidget* parent) : QWidget(parent)
{
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setAttribute(Qt::WA_NoSystemBackground);
  m_fade = new QVariantAnimation(this);
  m_fade->setDuration(kFadeMs);
  m_fade->setStartValue(1.0);
  m_fade->setEndValue(0.0);
  // Hold, then fade: the first half of the time at full strength.
  m_fade->setEasingCurve(QEasingCurve::InQuad);
  connect(m_fade, &QVariantAnimation::valueChanged, this, [this](const QVariant& value) {
    m_opacity = value.toDouble();
    update();
  });
}

void PointerHighlight::pointAt(const QPoint& pos)
{
  m_position = pos;
  m_opacity = 1;
  raise();
  m_fade->stop();
  m_fade->start();
  update();
}

void PointerHighlight::paintEvent(QPaintEvent*)
{
  if (m_opacity <= 0)
    return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setOpacity(m_opacity);
  // A warm red ring with a pale halo reads on both the light and the dark palette.
  painter.setPen(QPen(QColor(255, 255, 255, 200), 10));
  painter.setBrush(Qt::NoBrush);
  painter.drawEllipse(m_position, kRadius, kRadius);
  painter.setPen(QPen(QColor(230, 40, 40), 5));
  painter.setBrush(QColor(230, 40, 40, 50));
  painter.drawEllipse(m_position, kRadius, kRadius);
}

} // namespace cs::visualizer
