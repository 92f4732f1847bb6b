#pragma once

// What giflib (DGifSlurp) says about a written GIF, for the tests of visualizer/export.

#include <QFile>
#include <QString>

#include <gif_lib.h>

namespace cs::visualizer::test {

/// What DGifSlurp decodes from a GIF file.
struct DecodedGif {
  bool ok = false;
  int width = 0;
  int height = 0;
  int frames = 0;
  int delayHundredths = 0; ///< the sum of every frame's delay
};

inline DecodedGif decodeGif(const QString& path)
{
  DecodedGif decoded;
  int error = 0;
  GifFileType* gif = DGifOpenFileName(QFile::encodeName(path).constData(), &error);
  if (!gif)
    return decoded;
  if (DGifSlurp(gif) == GIF_OK) {
    decoded.ok = true;
    decoded.width = gif->SWidth;
    decoded.height = gif->SHeight;
    decoded.frames = gif->ImageCount;
    for (int i = 0; i < gif->ImageCount; ++i) {
      GraphicsControlBlock control{};
      if (DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK)
        decoded.delayHundredths += control.DelayTime;
    }
  }
  DGifCloseFile(gif, &error);
  return decoded;
}

} // namespace cs::visualizer::test
