#pragma once

// Icons drawn with QPainter whenever Qt asks for a size and device pixel ratio (there is no icon
// theme to rely on, and drawn icons stay sharp on high-DPI screens and follow the palette of the
// moment, light or dark). Every area's icon set (window, timeline, topology, panels) is a list of
// glyph functions on top of this one engine, so all icons share the same ink and line style.

#include <QColor>
#include <QIcon>
#include <QPainter>
#include <QPen>

#include <functional>

namespace cs::editor {

/// Paints an icon into `rect` (a square in logical pixels); `mode` tells disabled/selected apart.
using IconPainter = std::function<void(QPainter& painter, const QRectF& rect, QIcon::Mode mode)>;

/// How a disabled icon looks.
enum class DisabledLook {
  Faded,   ///< the engine paints it at reduced opacity
  Painted, ///< the painter draws the disabled look itself (from IconInk::disabled)
};

/// An icon that calls `painter` for every size and scale it is rendered at, centred in a square.
QIcon paintedIcon(IconPainter painter, DisabledLook disabled = DisabledLook::Faded);

/// The colours of line-art glyphs, taken from the application palette when painted.
struct IconInk {
  QColor stroke; ///< outlines (the palette's text colour; its disabled variant when disabled)
  QColor paper;  ///< fills of pages, cells and folders (the palette's base colour)
  QColor accent; ///< the one highlight colour of the set (the stroke colour when disabled)
  bool disabled = false;
};
IconInk iconInk(QIcon::Mode mode);

/// The round-capped pen every glyph uses.
QPen iconPen(const QColor& colour, double width = 1.6);

/// Paints a glyph drawn in a 24 × 24 box with the ink of the icon's mode.
using GlyphPainter = std::function<void(QPainter& painter, const IconInk& ink)>;
/// An icon made of a 24 × 24 glyph that draws its own disabled look from IconInk.
QIcon glyphIcon(GlyphPainter glyph);

} // namespace cs::editor
