#include "canvasstyle.h"

#include "style/rankpalette.h"

#include <QObject>

namespace cs::editor {

CanvasColors canvasColors(const QPalette& palette)
{
  CanvasColors colors;
  colors.background = palette.color(QPalette::Base);
  colors.highlight = palette.color(QPalette::Highlight);
  colors.text = palette.color(QPalette::Text);
  if (isDark(palette)) {
    colors.grid = colors.background.lighter(190);
    colors.neutralFill = QColor(0x3a, 0x3f, 0x45);
    colors.neutralBorder = QColor(0x9a, 0xa0, 0xa6);
    colors.mutedText = QColor(0xb0, 0xb6, 0xbc);
    colors.chipFill = QColor(0x23, 0x26, 0x2a);
  } else {
    colors.grid = colors.background.darker(118);
    colors.neutralFill = QColor(0xf1, 0xf3, 0xf4);
    colors.neutralBorder = QColor(0x70, 0x75, 0x7b);
    colors.mutedText = QColor(0x5f, 0x63, 0x68);
    colors.chipFill = QColor(0x3c, 0x40, 0x45);
  }
  // A background too close to the dots (some styles use grey bases) still shows a faint grid.
  if (colors.grid == colors.background)
    colors.grid = colors.background.darker(130);
  return colors;
}

QColor readableTextOn(const QColor& fill)
{
  // Relative luminance (sRGB weights); 0.45 keeps white on the mid-light rank hues, whose
  // contrast with black would be no better.
  const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
  return luminance > 0.45 ? QColor(0x20, 0x21, 0x24) : QColor(Qt::white);
}

QFont canvasFont(int pixelSize, bool bold)
{
  QFont font;
  font.setPixelSize(pixelSize);
  font.setBold(bold);
  // Hinting would snap glyphs to device pixels at every zoom and make text jitter while zooming.
  font.setHintingPreference(QFont::PreferNoHinting);
  return font;
}

QString linkKindLabel(LinkKind kind)
{
  switch (kind) {
  case LinkKind::NvLink:
    return QStringLiteral("NVLink");
  case LinkKind::Pcie:
    return QStringLiteral("PCIe");
  case LinkKind::Network:
    return QObject::tr("Network");
  case LinkKind::Smp:
    return QStringLiteral("SMP");
  }
  return {};
}

QString nodeKindLabel(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return QStringLiteral("GPU");
  case NodeKind::NvSwitch:
    return QStringLiteral("NVSwitch");
  case NodeKind::PcieSwitch:
    return QObject::tr("PCIe switch");
  case NodeKind::Nic:
    return QStringLiteral("NIC");
  case NodeKind::Cpu:
    return QStringLiteral("CPU");
  case NodeKind::NetworkSwitch:
    return QObject::tr("Network switch");
  }
  return {};
}

QString linkLabel(const TopologyLink& link)
{
  QString text = QStringLiteral("%1 %2 GB/s \u00b7 %3 \u00b5s")
                     .arg(linkKindLabel(link.kind), QString::number(link.bandwidthGBps, 'g', 4),
                          QString::number(link.latencyUs, 'g', 3));
  if (!link.duplex)
    text += QObject::tr(" \u00b7 half duplex");
  return text;
}

} // namespace cs::editor
