#pragma once

// Runs the `collective-studio` binary on the offscreen platform, as the user guide's screenshot
// script does, for the tests of its command line. Header-only because the binary's path is a
// define (COLLECTIVE_STUDIO) of each test target that runs it.

#ifndef COLLECTIVE_STUDIO
#error "COLLECTIVE_STUDIO is not defined: give the test target the binary's path"
#endif

#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cs::test {

struct StudioRun {
  int exitCode = -1; ///< -1 when the process crashed or hung
  QString standardError;
};

/// Runs `collective-studio arguments…` to completion with its settings, library and autosave
/// inside `home`.
inline StudioRun runStudio(const QStringList& arguments, const QString& home)
{
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  environment.insert("XDG_CONFIG_HOME", home + "/config");
  environment.insert("XDG_DATA_HOME", home + "/data");
  environment.insert("CSTUDIO_LIBRARY", home + "/library.sqlite");
  environment.insert("CSTUDIO_AUTOSAVE_DIR", home + "/autosave");
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(COLLECTIVE_STUDIO), arguments);
  if (!process.waitForFinished(120000)) {
    process.kill();
    process.waitForFinished();
    return {};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromLocal8Bit(process.readAllStandardError())};
}

/// How many distinct colours the image has (a blank or single-colour grab has 1).
inline int distinctColours(const QImage& image)
{
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3) {
    for (int x = 0; x < image.width(); x += 3)
      colours.insert(image.pixel(x, y));
  }
  return static_cast<int>(colours.size());
}

} // namespace cs::test
