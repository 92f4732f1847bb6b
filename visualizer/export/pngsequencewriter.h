#pragma once

// A PNG sequence (issue 19 item 6): NAME-0001.png, NAME-0002.png, … in a folder (at least four
// digits, more when the frames need them), staged in a temporary folder and moved in on finish().

#include "framewriter.h"
#include "stagedoutput.h"

namespace cs::visualizer {

class PngSequenceWriter : public FrameWriter
{
public:
  /// `frames` in all, into `folder` as `name`-NNNN.png.
  PngSequenceWriter(const QString& folder, QString name, int frames);

  bool open(QString* error) { return m_folder.open(error); }
  bool addFrame(const QImage& frame, QString* error) override;
  bool finish(QString* error) override;
  QStringList files() const { return m_folder.committedPaths(); }

private:
  StagedFolder m_folder;
  QString m_name;
  int m_digits;
  int m_written = 0;
};

/// The file name of item `index` (0-based) of a numbered sequence: "name-0007.png".
QString sequenceName(const QString& name, int index, int digits, const QString& suffix);
/// Digits for numbering `count` items, at least `minimum`.
int sequenceDigits(int count, int minimum);

} // namespace cs::visualizer
