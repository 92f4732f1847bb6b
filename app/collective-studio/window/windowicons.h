#pragma once

// The main window's icons, drawn with QPainter (there is no icon theme on every machine). Each
// icon is a QIconEngine that paints on demand, so it is sharp at any device pixel ratio and takes
// its stroke colour from the application palette at paint time: the same icon reads well in a
// light and a dark theme, and the disabled state is the palette's disabled text colour.
//
// Start here to add an icon: a new enumerator and a case in windowicons.cpp's paint switch; the
// glyphs are drawn in a 24 x 24 box scaled to the requested size.

#include <QIcon>

namespace cs::editor {

enum class WindowIcon {
  App,         ///< the application: four ranks on a ring passing chunks
  New,         ///< a blank page with a plus
  Open,        ///< a folder
  SaveDesign,  ///< a page with a down arrow (design document .json)
  SaveLibrary, ///< a database cylinder with a down arrow
  Export,      ///< a page with an arrow leaving it
  Undo,
  Redo,
  Ok,        ///< a check mark in okColor
  Error,     ///< a cross in a red disc
  Warning,   ///< an exclamation mark in an amber triangle
  Algorithm, ///< three ranks passing a chunk (library algorithms)
  Version,   ///< a commit dot on a line (library versions)
  Topology,  ///< linked boxes (library topologies)
  Search,    ///< a magnifier
  Recover,   ///< a life buoy (crash recovery)
  Run,       ///< a play triangle on a time line (library runs)
};

/// The drawn icon `kind`. Cheap: the engine paints lazily and QIcon caches pixmaps.
QIcon drawnIcon(WindowIcon kind);

} // namespace cs::editor
