#pragma once

// Internal to the timeline painter (timelinepaint*.cpp, entry point paintTimeline() in
// timelinepainter.cpp): the colours of one paint, the Frame every part shares, cached text and
// fills, and the parts (cells, arrows, headers) in the order paintTimeline() calls them.

#include "timelinepainter.h"

#include "style/rankpalette.h"

#include <QPainter>

namespace cs::editor::paintdetail {

/// a + (b - a)·t per channel.
QColor mix(const QColor& a, const QColor& b, double t);

/// Colours of one paint, derived once from the palette.
struct Ink {
  bool dark = false;
  QColor base, header, headerText, dimText, line, cellText, hatch, accent;
  QColor complete, wrong, wrongText;
  /// rankFill and rankColor per rank, computed once per paint: HSL conversions per cell would
  /// cost more than the painting.
  std::vector<QRgb> fills, strokes;

  QColor fill(int rank) const
  {
    return rank >= 0 && rank < static_cast<int>(fills.size())
               ? QColor(fills[static_cast<std::size_t>(rank)])
               : rankFill(rank, dark);
  }
  QColor stroke(int rank) const
  {
    return rank >= 0 && rank < static_cast<int>(strokes.size())
               ? QColor(strokes[static_cast<std::size_t>(rank)])
               : rankColor(rank);
  }
};

/// The colours of one paint for `palette`, with the fills and strokes of `ranks` ranks.
Ink inkFor(const QPalette& palette, int ranks = 0);

/// A cell's background for its value's summary.
QColor computeFill(const CellSummary& s, const Ink& ink);

/// Everything one paint call shares.
struct Frame {
  Frame(QPainter& painter, const TimelineModel& timeline, const TimelinePaintState& paintState)
      : p(painter), model(timeline), state(paintState),
        ink(inkFor(paintState.palette, timeline.states().ranks()))
  {
  }

  QPainter& p;
  const TimelineModel& model;
  const TimelinePaintState& state;
  Ink ink;
  QRect grid;    ///< viewport area of the cells
  QPoint origin; ///< viewport position of content (0, 0)
  int firstColumn = 0, lastColumn = 0;
  std::pair<int, int> rows;
  QFont cellFont, boldCellFont, headerFont, boldHeaderFont;
  bool cellText = true;
  LabelCache* labels = nullptr;
  char currentFont = 0; ///< which of the four fonts the painter has ('h', 'H', 'c', 'C')

  const QFont& font(char which) const
  {
    switch (which) {
    case 'H':
      return boldHeaderFont;
    case 'c':
      return cellFont;
    case 'C':
      return boldCellFont;
    default:
      return headerFont;
    }
  }
  void useFont(char which)
  {
    if (currentFont != which) {
      p.setFont(font(which));
      currentFont = which;
    }
  }
};

/// Draws `text` in `box` with one of the frame's fonts, laid out once per cache lifetime.
void drawText(Frame& f, const QRect& box, Qt::Alignment align, const QString& text, char font);
/// computeFill() once per value id and cache lifetime: a partial sum averages many colours.
QColor fillOf(Frame& f, CellValue value, const CellSummary& s);

void paintCells(Frame& f);
/// The replay overlay under the arrows: veiled cells, the cursor's step, transfers in flight.
void paintPlaybackCells(Frame& f);
void paintArrows(Frame& f);
/// The replay overlay over the arrows: blocked cells and the wait-for cycle of a stopped run.
void paintPlaybackProblems(Frame& f);
void paintStepHeader(Frame& f);
void paintRowHeader(Frame& f);
void paintCorner(Frame& f);
void paintMessage(QPainter& p, const TimelinePaintState& state);

} // namespace cs::editor::paintdetail
