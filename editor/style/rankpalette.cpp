#include "rankpalette.h"

#include <cmath>

namespace cs::editor {

QColor rankColor(int rank)
{
  // The golden angle keeps consecutive ranks far apart on the hue circle for any rank count.
  const double hue = std::fmod(0.02 + rank * 0.381966, 1.0);
  return QColor::fromHslF(static_cast<float>(hue), 0.62f, 0.46f);
}

QColor rankFill(int rank, bool dark)
{
  const double hue = std::fmod(0.02 + rank * 0.381966, 1.0);
  return dark ? QColor::fromHslF(static_cast<float>(hue), 0.45f, 0.30f)
              : QColor::fromHslF(static_cast<float>(hue), 0.70f, 0.86f);
}

bool isDark(const QPalette& palette)
{
  return palette.color(QPalette::WindowText).lightness() >
         palette.color(QPalette::Window).lightness();
}

QColor linkKindColor(LinkKind kind)
{
  switch (kind) {
  case LinkKind::NvLink:
    return QColor(0x2e, 0x9e, 0x44);
  case LinkKind::Pcie:
    return QColor(0x2f, 0x6f, 0xc4);
  case LinkKind::Network:
    return QColor(0xd9, 0x7a, 0x1c);
  case LinkKind::Smp:
    return QColor(0x80, 0x80, 0x80);
  }
  return Qt::gray;
}

QColor errorColor()
{
  return QColor(0xd3, 0x2f, 0x2f);
}

QColor warningColor()
{
  return QColor(0xe0, 0x8e, 0x0b);
}

QColor okColor()
{
  return QColor(0x2e, 0x9e, 0x44);
}

} // namespace cs::editor
