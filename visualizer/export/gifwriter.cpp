#include "gifwriter.h"

#include <QFile>
#include <QObject>

#include <gif_lib.h>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

namespace {

/// The last palette entry stays out of the colours: it marks unchanged pixels as transparent.
constexpr int kTransparent = 255;

/// The bounding rectangle of the pixels that differ between two index buffers of `size`.
QRect changedRect(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                  QSize size)
{
  int left = size.width();
  int right = -1;
  int top = -1;
  int bottom = -1;
  const auto width = static_cast<std::size_t>(size.width());
  for (int y = 0; y < size.height(); ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * width;
    int first = -1;
    int last = -1;
    for (std::size_t x = 0; x < width; ++x) {
      if (a[row + x] != b[row + x]) {
        if (first < 0)
          first = static_cast<int>(x);
        last = static_cast<int>(x);
      }
    }
    if (first < 0)
      continue;
    if (top < 0)
      top = y;
    bottom = y;
    left = std::min(left, first);
    right = std::max(right, last);
  }
  return top < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

GifWriter::GifWriter(const QString& target, QSize size, int fps)
    : m_file(target), m_size(size), m_fps(std::clamp(fps, 1, kMaxFps))
{
}

GifWriter::~GifWriter()
{
  if (m_gif) {
    int ignored = 0;
    EGifCloseFile(m_gif, &ignored);
  }
}

QString GifWriter::failure(int code) const
{
  const char* text = GifErrorString(code);
  return QObject::tr("cannot write %1: %2")
      .arg(m_file.target(), text ? QString::fromUtf8(text) : QObject::tr("GIF error %1").arg(code));
}

bool GifWriter::open(const std::vector<QImage>& samples, QString* error)
{
  if (!m_file.open(error))
    return false;
  m_palette = std::make_unique<GifPalette>(samples, kTransparent);
  int code = 0;
  m_gif = EGifOpenFileName(QFile::encodeName(m_file.stagingPath()).constData(), false, &code);
  if (!m_gif) {
    *error = failure(code);
    return false;
  }
  return writeHeader(error);
}

bool GifWriter::writeHeader(QString* error)
{
  std::vector<GifColorType> colours(256, GifColorType{255, 255, 255});
  const std::vector<QRgb>& palette = m_palette->colours();
  for (std::size_t i = 0; i < palette.size(); ++i) {
    colours[i] = {static_cast<GifByteType>(qRed(palette[i])),
                  static_cast<GifByteType>(qGreen(palette[i])),
                  static_cast<GifByteType>(qBlue(palette[i]))};
  }
  ColorMapObject* map = GifMakeMapObject(256, colours.data());
  EGifSetGifVersion(m_gif, true);
  const bool ok = EGifPutScreenDesc(m_gif, m_size.width(), m_size.height(), 8, 0, map) == GIF_OK;
  GifFreeMapObject(map);
  // NETSCAPE2.0 application extension: loop forever (count 0).
  static const GifByteType kNetscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoop[] = {1, 0, 0};
  if (!ok || EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
      EGifPutExtensionBlock(m_gif, sizeof kNetscape, kNetscape) != GIF_OK ||
      EGifPutExtensionBlock(m_gif, sizeof kLoop, kLoop) != GIF_OK ||
      EGifPutExtensionTrailer(m_gif) != GIF_OK) {
    *error = failure(m_gif->Error);
    return false;
  }
  return true;
}

bool GifWriter::addFrame(const QImage& frame, QString* error)
{
  if (!m_gif) {
    *error = QObject::tr("cannot write %1: the file is not open").arg(m_file.target());
    return false;
  }
  m_palette->quantise(frame.size() == m_size ? frame : frame.scaled(m_size), m_current);
  // Delays accumulate in hundredths so that the whole animation lasts frames / fps.
  const auto at = [this](int frames) {
    return static_cast<int>(std::lround(100.0 * frames / m_fps));
  };
  const int delay = at(m_frames + 1) - at(m_frames);
  QRect changed(QPoint(0, 0), m_size);
  if (m_frames > 0) {
    changed = changedRect(m_current, m_previous, m_size);
    if (changed.isEmpty())
      changed = QRect(0, 0, 1, 1); // a frame must have pixels: one transparent one
  }
  if (!writeFrame(changed, delay, error))
    return false;
  std::swap(m_current, m_previous);
  ++m_frames;
  return true;
}

bool GifWriter::writeFrame(const QRect& changed, int delay, QString* error)
{
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.UserInputFlag = false;
  control.DelayTime = delay;
  control.TransparentColor = m_frames > 0 ? kTransparent : NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  EGifGCBToExtension(&control, extension);
  if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK ||
      EGifPutImageDesc(m_gif, changed.left(), changed.top(), changed.width(), changed.height(),
                       false, nullptr) != GIF_OK) {
    *error = failure(m_gif->Error);
    return false;
  }
  const auto width = static_cast<std::size_t>(m_size.width());
  m_line.resize(static_cast<std::size_t>(changed.width()));
  for (int y = changed.top(); y <= changed.bottom(); ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * width;
    for (int x = 0; x < changed.width(); ++x) {
      const std::size_t at = row + static_cast<std::size_t>(changed.left() + x);
      const bool same = m_frames > 0 && m_current[at] == m_previous[at];
      m_line[static_cast<std::size_t>(x)] = same ? kTransparent : m_current[at];
    }
    if (EGifPutLine(m_gif, m_line.data(), changed.width()) != GIF_OK) {
      *error = failure(m_gif->Error);
      return false;
    }
  }
  return true;
}

bool GifWriter::finish(QString* error)
{
  if (!m_gif) {
    *error = QObject::tr("cannot write %1: the file is not open").arg(m_file.target());
    return false;
  }
  int code = 0;
  const int closed = EGifCloseFile(m_gif, &code);
  m_gif = nullptr;
  if (closed != GIF_OK) {
    *error = failure(code);
    return false;
  }
  return m_file.commit(error);
}

} // namespace cs::visualizer
