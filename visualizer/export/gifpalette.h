#pragma once

// The one palette of an animated GIF (issue 19 item 6). The views paint few colours (a
// background, text, rank colours, utilisation shades) plus anti-aliased edges between them, so
// the most frequent colours of a few sample frames, averaged per 5-bit-per-channel cell, make a
// palette that keeps every flat colour exact-looking; every other colour maps to its nearest
// entry through a 32768-cell table, so quantising a frame is one lookup per pixel.

#include <QColor>
#include <QImage>

#include <cstdint>
#include <vector>

namespace cs::visualizer {

class GifPalette
{
public:
  /// Up to `maxColours` (≤ 256) colours from `samples` (any format; converted to RGB32).
  GifPalette(const std::vector<QImage>& samples, int maxColours);

  const std::vector<QRgb>& colours() const { return m_colours; }
  /// The palette index of every pixel of `frame` (RGB32, row by row, width × height bytes).
  void quantise(const QImage& frame, std::vector<std::uint8_t>& indices) const;

private:
  std::vector<QRgb> m_colours;
  std::vector<std::uint8_t> m_nearest; ///< per 15-bit cell
};

} // namespace cs::visualizer
