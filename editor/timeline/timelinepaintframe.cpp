#include "timelinepaintframe.h"

#include "style/rankpalette.h"

#include <QFontMetrics>

#include <cmath>

namespace cs::editor::paintdetail {

QColor mix(const QColor& a, const QColor& b, double t)
{
  auto channel = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
  return QColor(channel(a.red(), b.red()), channel(a.green(), b.green()),
                channel(a.blue(), b.blue()));
}

Ink inkFor(const QPalette& palette, int ranks)
{
  Ink ink;
  for (int r = 0; r < ranks; ++r) {
    ink.fills.push_back(rankFill(r, isDark(palette)).rgb());
    ink.strokes.push_back(rankColor(r).rgb());
  }
  ink.dark = isDark(palette);
  ink.base = palette.color(QPalette::Base);
  ink.header = palette.color(QPalette::Window);
  ink.headerText = palette.color(QPalette::WindowText);
  ink.dimText = mix(ink.headerText, ink.header, 0.45);
  ink.line = mix(ink.base, ink.headerText, 0.18);
  ink.cellText = ink.dark ? QColor(0xf2, 0xf2, 0xf2) : QColor(0x1d, 0x1d, 0x1f);
  ink.hatch = mix(ink.base, ink.headerText, ink.dark ? 0.16 : 0.10);
  ink.accent = palette.color(QPalette::Highlight);
  ink.complete = mix(ink.base, okColor(), ink.dark ? 0.50 : 0.30);
  ink.wrong = mix(ink.base, errorColor(), ink.dark ? 0.50 : 0.24);
  ink.wrongText = ink.dark ? QColor(0xff, 0xc4, 0xc4) : errorColor().darker(130);
  return ink;
}

QColor computeFill(const CellSummary& s, const Ink& ink)
{
  switch (s.kind) {
  case CellKind::Uninitialised:
    return ink.base;
  case CellKind::Single:
    return ink.fill(s.ranks.front());
  case CellKind::Complete:
    return ink.complete;
  case CellKind::Wrong:
    return ink.wrong;
  case CellKind::Partial: {
    // The mean of the contributors' fills: a sum of two ranks reads as between their colours.
    int r = 0, g = 0, b = 0;
    for (const int rank : s.ranks) {
      const QRgb c = ink.fill(rank).rgb();
      r += qRed(c);
      g += qGreen(c);
      b += qBlue(c);
    }
    const int n = static_cast<int>(s.ranks.size());
    return QColor(r / n, g / n, b / n);
  }
  }
  return ink.base;
}

/// Draws `text` in `box` with one of the frame's fonts, laid out once per cache lifetime.
void drawText(Frame& f, const QRect& box, Qt::Alignment align, const QString& text, char font)
{
  if (text.isEmpty())
    return;
  const QString key = QChar(font) + text;
  auto found = f.labels->texts.find(key);
  if (found == f.labels->texts.end()) {
    LabelCache::Entry entry;
    entry.text.setText(text);
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.setPerformanceHint(QStaticText::AggressiveCaching);
    entry.text.prepare(QTransform(), f.font(font));
    const QFontMetrics metrics(f.font(font));
    entry.size = QSizeF(metrics.horizontalAdvance(text), metrics.height());
    found = f.labels->texts.insert(key, entry);
  }
  f.useFont(font);
  qreal x = box.left();
  if (align & Qt::AlignRight)
    x = box.right() + 1 - found->size.width();
  else if (align & Qt::AlignHCenter)
    x = box.left() + (box.width() - found->size.width()) / 2;
  const qreal y = box.top() + (box.height() - found->size.height()) / 2;
  f.p.drawStaticText(QPointF(x, y), found->text);
}

/// computeFill() once per value id and cache lifetime: a partial sum averages many colours.
QColor fillOf(Frame& f, CellValue value, const CellSummary& s)
{
  std::vector<QRgb>& fills = f.labels->fills;
  if (value >= fills.size())
    fills.resize(static_cast<std::size_t>(value) + 1, 0);
  QRgb& cached = fills[value];
  if (cached == 0)
    cached = computeFill(s, f.ink).rgb();
  return QColor(cached);
}

} // namespace cs::editor::paintdetail
