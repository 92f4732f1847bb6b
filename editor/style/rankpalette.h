#pragma once

// The colours every view gives ranks, link kinds and verdicts, so rank 3 is the same colour on the
// timeline, the topology canvas and the program view, and the palette works in light and dark
// themes.

#include "model/topology.h"

#include <QColor>
#include <QPalette>

namespace cs::editor {

/// A distinct, readable colour for `rank`: hues spread by the golden angle so neighbours differ.
QColor rankColor(int rank);
/// `rankColor` softened for cell backgrounds; `dark` picks a variant for dark palettes.
QColor rankFill(int rank, bool dark);
/// Whether `palette` is a dark theme (window text lighter than the window).
bool isDark(const QPalette& palette);

/// The colour of a link kind (NVLink green, PCIe blue, network orange, SMP grey).
QColor linkKindColor(LinkKind kind);

/// Verdict colours: errors, warnings and "correct".
QColor errorColor();
QColor warningColor();
QColor okColor();

} // namespace cs::editor
