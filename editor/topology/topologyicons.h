#pragma once

// The canvas's tool icons, drawn with QPainter (the machines we target have no icon theme), in
// the palette's text colour with the same accents as the canvas (GPU in a rank colour, NVSwitch
// green, PCIe blue, NIC and network switch orange), so a toolbar button looks like what it places.

#include <QIcon>
#include <QPalette>

namespace cs::editor {

enum class TopologyIcon {
  Select,
  Gpu,
  NvSwitch,
  PcieSwitch,
  Nic,
  Cpu,
  NetworkSwitch,
  Link,
  Delete,
  Preset,
  AutoLayout,
  ZoomIn,
  ZoomOut,
  ZoomFit,
  Export,
  Warning,
};

/// The icon at 16, 24, 32 and 48 pixels (and twice that for high-DPI screens).
QIcon topologyIcon(TopologyIcon which, const QPalette& palette);

/// One rendering of the icon, `size` logical pixels at `devicePixelRatio`.
QPixmap topologyPixmap(TopologyIcon which, const QPalette& palette, int size,
                       qreal devicePixelRatio = 1);

} // namespace cs::editor
