#pragma once

// Colours, fonts and words the topology canvas shares between its items, overlays, icons and
// exports, derived from the widget palette so light and dark themes both read well. GPU and link
// colours come from style/rankpalette.h, so rank 3 and NVLink look the same in every view.

#include "model/topology.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

namespace cs::editor {

/// The canvas colours for one palette.
struct CanvasColors {
  QColor background;  ///< canvas and export background
  QColor grid;        ///< background dots
  QColor neutralFill; ///< switches and NICs
  QColor neutralBorder;
  QColor text;      ///< text on neutral fills and on the background
  QColor mutedText; ///< secondary text (a switch's kind under its name)
  QColor highlight; ///< selection outlines
  QColor chipFill;  ///< CPU body (dark in both themes, as real chips are)
};

/// The canvas colours for `palette` (dark variants when isDark(palette)).
CanvasColors canvasColors(const QPalette& palette);

/// Black or white, whichever reads better on `fill`.
QColor readableTextOn(const QColor& fill);

/// A pixel-sized font for text drawn in scene units, so it scales with the zoom exactly.
QFont canvasFont(int pixelSize, bool bold = false);

/// "NVLink", "PCIe", "Network", "SMP".
QString linkKindLabel(LinkKind kind);
/// "GPU", "NVSwitch", "PCIe switch", "NIC", "CPU".
QString nodeKindLabel(NodeKind kind);
/// "NVLink 450 GB/s · 0.35 µs", with "half duplex" appended for half-duplex links.
QString linkLabel(const TopologyLink& link);

} // namespace cs::editor
