#pragma once

// Runs the `cstudio` binary as a user or a CI pipeline would, for the tests of its commands.
// Header-only because the binary's path is a define of each CLI test target
// (cstudio_test_uses_cli() in cmake/CStudioTest.cmake), not of the shared support library.

#ifndef CSTUDIO_CLI
#error "CSTUDIO_CLI is not defined: call cstudio_test_uses_cli() for this test target"
#endif

#include "support/files.h"

#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace cs::test {

/// What one run of the CLI printed and returned.
struct CliRun {
  int exitCode = -1; ///< -1 when the process crashed
  QString out;
  QString err;
};

/// Runs `cstudio arguments…` to completion (two minutes at most, then the test run aborts rather
/// than hang), with `environment` added to this process's environment.
inline CliRun cstudio(const QStringList& arguments, const QMap<QString, QString>& environment = {})
{
  QProcess process;
  if (!environment.isEmpty()) {
    QProcessEnvironment merged = QProcessEnvironment::systemEnvironment();
    for (auto it = environment.begin(); it != environment.end(); ++it)
      merged.insert(it.key(), it.value());
    process.setProcessEnvironment(merged);
  }
  process.start(QStringLiteral(CSTUDIO_CLI), arguments);
  if (!process.waitForFinished(120000))
    qFatal("cstudio %s did not finish", qPrintable(arguments.join(' ')));
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

} // namespace cs::test
