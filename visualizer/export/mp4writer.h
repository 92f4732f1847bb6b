#pragma once

// An MP4 with FFmpeg's libraries (issue 19 item 6): H.264 through libx264 when this FFmpeg has
// that encoder, else MPEG-4 part 2; yuv420p (so width and height must be even); time base 1/fps,
// one frame per tick, so the duration is frames / fps. Built only when FFmpeg's development
// libraries were found (CSTUDIO_HAVE_FFMPEG); otherwise open() says so.

#include "framewriter.h"
#include "stagedoutput.h"

#include <QSize>

#include <memory>

namespace cs::visualizer {

/// Whether this build can write MP4.
bool mp4Supported();
/// Why it cannot: "this build has no MP4 support (…); export GIF or PNG instead".
QString mp4UnsupportedMessage();

class Mp4Writer : public FrameWriter
{
public:
  Mp4Writer(const QString& target, QSize size, int fps);
  ~Mp4Writer() override;

  /// Starts the encoder and the file; false with the reason.
  bool open(QString* error);
  bool addFrame(const QImage& frame, QString* error) override;
  bool finish(QString* error) override;
  /// The encoder in use ("libx264", "mpeg4"), once open.
  QString encoderName() const;

private:
  struct Encoder;
  StagedFile m_file;
  QSize m_size;
  int m_fps;
  std::unique_ptr<Encoder> m_encoder;
};

} // namespace cs::visualizer
