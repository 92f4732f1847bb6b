#pragma once

// Pictures for the user guide that only a test can set up (a dialog filled in, a link selected):
// when CSTUDIO_GUIDE_SHOTS names a folder (docs/make-screenshots.sh sets it to docs/images), the
// test saves what it has just checked there; otherwise nothing is written.

#include <QDir>
#include <QPixmap>
#include <QString>
#include <QtGlobal>

namespace cs::test {

/// Saves `picture` as `name` in $CSTUDIO_GUIDE_SHOTS; false when the variable is unset or the
/// file cannot be written.
inline bool saveGuideShot(const QPixmap& picture, const QString& name)
{
  const QString folder = qEnvironmentVariable("CSTUDIO_GUIDE_SHOTS");
  if (folder.isEmpty())
    return false;
  return picture.save(QDir(folder).filePath(name));
}

} // namespace cs::test
