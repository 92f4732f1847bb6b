#pragma once

// Where the frames of an exported animation go (issue 19 item 6): an animated GIF, an MP4 or a
// PNG sequence. A writer stages its output (stagedoutput.h) and makes it appear only in finish();
// destroying it unfinished (cancel, an error) leaves nothing behind.

#include <QImage>
#include <QString>

namespace cs::visualizer {

class FrameWriter
{
public:
  virtual ~FrameWriter() = default;
  /// Appends one frame (of the size the writer was made for); false with the reason.
  virtual bool addFrame(const QImage& frame, QString* error) = 0;
  /// Completes the output and puts it in place; false with the reason.
  virtual bool finish(QString* error) = 0;
};

} // namespace cs::visualizer
