#include "paintedicon.h"

#include "rankpalette.h"

#include <QGuiApplication>
#include <QIconEngine>
#include <QPalette>
#include <QPixmap>

#include <algorithm>

namespace cs::editor {

namespace {

class PainterIconEngine : public QIconEngine
{
public:
  PainterIconEngine(IconPainter painter, DisabledLook disabled)
      : m_painter(std::move(painter)), m_disabled(disabled)
  {
  }

  void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override
  {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    // Icons are drawn in a centred square so wide toolbar slots do not stretch them.
    const qreal side = std::min(rect.width(), rect.height());
    const QRectF square(rect.x() + (rect.width() - side) / 2.0,
                        rect.y() + (rect.height() - side) / 2.0, side, side);
    if (mode == QIcon::Disabled && m_disabled == DisabledLook::Faded)
      painter->setOpacity(0.35);
    m_painter(*painter, square, mode);
    painter->restore();
  }

  QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
  {
    return scaledPixmap(size, mode, state, 1.0);
  }

  QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state,
                       qreal scale) override
  {
    QPixmap pixmap(size * scale);
    pixmap.setDevicePixelRatio(scale);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paint(&painter, QRect(QPoint(0, 0), size), mode, state);
    return pixmap;
  }

  QIconEngine* clone() const override { return new PainterIconEngine(m_painter, m_disabled); }
  QString key() const override { return QStringLiteral("cs-painted"); }

private:
  IconPainter m_painter;
  DisabledLook m_disabled;
};

} // namespace

QIcon paintedIcon(IconPainter painter, DisabledLook disabled)
{
  return QIcon(new PainterIconEngine(std::move(painter), disabled));
}

IconInk iconInk(QIcon::Mode mode)
{
  const QPalette palette = QGuiApplication::palette();
  IconInk ink;
  ink.disabled = mode == QIcon::Disabled;
  ink.stroke =
      palette.color(ink.disabled ? QPalette::Disabled : QPalette::Active, QPalette::WindowText);
  ink.paper = palette.color(QPalette::Base);
  ink.accent = isDark(palette) ? QColor(0x6f, 0xa8, 0xf0) : QColor(0x2f, 0x6f, 0xc4);
  if (ink.disabled)
    ink.accent = ink.stroke;
  return ink;
}

QPen iconPen(const QColor& colour, double width)
{
  return QPen(colour, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
}

QIcon glyphIcon(GlyphPainter glyph)
{
  return paintedIcon(
      [glyph = std::move(glyph)](QPainter& painter, const QRectF& square, QIcon::Mode mode) {
        painter.translate(square.topLeft());
        painter.scale(square.width() / 24.0, square.height() / 24.0);
        glyph(painter, iconInk(mode));
      },
      DisabledLook::Painted);
}

} // namespace cs::editor
