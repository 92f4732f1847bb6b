#include "gifpalette.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

namespace cs::visualizer {

namespace {

constexpr int kCells = 1 << 15;

int cellOf(QRgb rgb)
{
  return ((qRed(rgb) >> 3) << 10) | ((qGreen(rgb) >> 3) << 5) | (qBlue(rgb) >> 3);
}

/// The centre colour of a cell (for cells no sample pixel fell in).
QRgb cellCentre(int cell)
{
  return qRgb(((cell >> 10) & 31) * 8 + 4, ((cell >> 5) & 31) * 8 + 4, (cell & 31) * 8 + 4);
}

int distance(QRgb a, QRgb b)
{
  const int red = qRed(a) - qRed(b);
  const int green = qGreen(a) - qGreen(b);
  const int blue = qBlue(a) - qBlue(b);
  // Weighted as the eye is most sensitive to green, least to blue.
  return 3 * red * red + 4 * green * green + 2 * blue * blue;
}

struct CellSum {
  std::int64_t count = 0;
  std::int64_t red = 0, green = 0, blue = 0;
};

} // namespace

GifPalette::GifPalette(const std::vector<QImage>& samples, int maxColours)
{
  std::vector<CellSum> cells(kCells);
  for (const QImage& sample : samples) {
    const QImage rgb = sample.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
      const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
      for (int x = 0; x < rgb.width(); ++x) {
        CellSum& cell = cells[static_cast<std::size_t>(cellOf(line[x]))];
        ++cell.count;
        cell.red += qRed(line[x]);
        cell.green += qGreen(line[x]);
        cell.blue += qBlue(line[x]);
      }
    }
  }
  std::vector<int> order(kCells);
  std::iota(order.begin(), order.end(), 0);
  const auto limit = static_cast<std::size_t>(std::clamp(maxColours, 1, 256));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(limit), order.end(),
                    [&](int a, int b) {
                      return cells[static_cast<std::size_t>(a)].count >
                             cells[static_cast<std::size_t>(b)].count;
                    });
  for (std::size_t i = 0; i < limit; ++i) {
    const CellSum& cell = cells[static_cast<std::size_t>(order[i])];
    if (cell.count == 0) {
      if (m_colours.empty())
        m_colours.push_back(cellCentre(order[i]));
      break;
    }
    m_colours.push_back(qRgb(static_cast<int>(cell.red / cell.count),
                             static_cast<int>(cell.green / cell.count),
                             static_cast<int>(cell.blue / cell.count)));
  }
  m_nearest.resize(kCells);
  for (int cell = 0; cell < kCells; ++cell) {
    const QRgb colour = cellCentre(cell);
    int best = 0;
    int bestDistance = std::numeric_limits<int>::max();
    for (std::size_t i = 0; i < m_colours.size(); ++i) {
      const int d = distance(colour, m_colours[i]);
      if (d < bestDistance) {
        bestDistance = d;
        best = static_cast<int>(i);
      }
    }
    m_nearest[static_cast<std::size_t>(cell)] = static_cast<std::uint8_t>(best);
  }
}

void GifPalette::quantise(const QImage& frame, std::vector<std::uint8_t>& indices) const
{
  const QImage rgb =
      frame.format() == QImage::Format_RGB32 || frame.format() == QImage::Format_ARGB32
          ? frame
          : frame.convertToFormat(QImage::Format_RGB32);
  const auto width = static_cast<std::size_t>(rgb.width());
  indices.resize(width * static_cast<std::size_t>(rgb.height()));
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    std::uint8_t* out = indices.data() + static_cast<std::size_t>(y) * width;
    for (std::size_t x = 0; x < width; ++x)
      out[x] = m_nearest[static_cast<std::size_t>(cellOf(line[x]))];
  }
}

} // namespace cs::visualizer
