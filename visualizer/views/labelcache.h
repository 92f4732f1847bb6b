#pragma once

// Laid-out text for the labels a view paints many times per frame (Gantt bars, buffer cells).
// Shaping a string is most of a frame's cost when thousands of bars each draw theirs, and the
// labels repeat ("send s3", "Σ all"): each distinct string is shaped once and painted from then on.

#include <QFont>
#include <QHash>
#include <QRectF>
#include <QStaticText>
#include <QString>

class QPainter;

namespace cs::visualizer {

class LabelCache
{
public:
  /// `label` laid out in `font` (the cache starts over when the font changes).
  const QStaticText& text(const QString& label, const QFont& font);
  /// Paints `label` in `rect`, vertically centred, left-aligned or centred horizontally.
  void paint(QPainter& painter, const QRectF& rect, const QString& label, bool centred);

private:
  /// A bound on the strings kept: views with changing labels must not grow it without end.
  static constexpr qsizetype kMaxLabels = 8192;

  QFont m_font;
  QHash<QString, QStaticText> m_texts;
};

} // namespace cs::visualizer
