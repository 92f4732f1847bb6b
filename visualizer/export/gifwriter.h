#pragma once

// An animated GIF with giflib (issue 19 item 6): one global palette (gifpalette.h) built from
// sample frames, an infinite loop, and after the first frame only the rectangle that changed,
// with unchanged pixels inside it transparent, so the long runs LZW compresses best. Frame delays
// are in GIF's hundredths of a second, accumulated so the animation lasts frames / fps.

#include "framewriter.h"
#include "gifpalette.h"
#include "stagedoutput.h"

#include <QSize>

#include <cstdint>
#include <memory>
#include <vector>

struct GifFileType;

namespace cs::visualizer {

class GifWriter : public FrameWriter
{
public:
  /// The highest frame rate GIF delays (whole hundredths of a second, at least 2) can show.
  static constexpr int kMaxFps = 50;

  GifWriter(const QString& target, QSize size, int fps);
  ~GifWriter() override;

  /// Starts the file with the palette of `samples`; false with the reason.
  bool open(const std::vector<QImage>& samples, QString* error);
  bool addFrame(const QImage& frame, QString* error) override;
  bool finish(QString* error) override;

private:
  bool writeHeader(QString* error);
  bool writeFrame(const QRect& changed, int delay, QString* error);
  QString failure(int code) const;

  StagedFile m_file;
  QSize m_size;
  int m_fps;
  int m_frames = 0;
  std::unique_ptr<GifPalette> m_palette;
  GifFileType* m_gif = nullptr;
  std::vector<std::uint8_t> m_current;
  std::vector<std::uint8_t> m_previous;
  std::vector<std::uint8_t> m_line;
};

} // namespace cs::visualizer
