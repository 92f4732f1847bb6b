#pragma once

// The timeline's tool icons, drawn with QPainter (no icon theme is guaranteed). Each is a
// QIconEngine that paints on demand in a 24 x 24 box scaled to the requested size, taking its
// stroke from the application palette at paint time so it reads in light and dark themes; the
// glyphs match the arrows on the grid (a triangle head for copy, ⊕ for reduce).

#include <QIcon>

namespace cs::editor {

enum class TimelineIcon {
  Draw,      ///< a pen drawing an arrow between two cells
  Select,    ///< a dashed rubber band
  SelectAll, ///< a dashed band around several arrows
  Copy,      ///< an arrow with a triangle head
  Reduce,    ///< an arrow ending in ⊕
  Replicate, ///< one arrow repeated down a staircase of ranks
  Delete,    ///< a cross
  ZoomIn,
  ZoomOut,
  ZoomReset,
  Expand,   ///< rows unfolding
  Collapse, ///< rows folding
};

/// The drawn icon `kind`.
QIcon timelineIcon(TimelineIcon kind);

} // namespace cs::editor
