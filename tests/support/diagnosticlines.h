#pragma once

// One line per diagnostic, from the engine's list or from `cstudio … --json`, so a test can say
// that a command printed exactly the problems the engine pipeline (and so the editor) reports.

#include "model/diagnostic.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace cs::test {

/// "error|schedule.uninitialised|rank 0|tb -1|step 0|transfer 0|transfer #0 reads …"
inline QString diagnosticLine(const QString& severity, const QString& code, int rank, int tb,
                              int step, int transfer, const QString& message)
{
  return QStringLiteral("%1|%2|rank %3|tb %4|step %5|transfer %6|%7")
      .arg(severity, code)
      .arg(rank)
      .arg(tb)
      .arg(step)
      .arg(transfer)
      .arg(message);
}

inline QStringList diagnosticLines(const std::vector<Diagnostic>& diagnostics)
{
  QStringList lines;
  for (const Diagnostic& d : diagnostics) {
    lines << diagnosticLine(QString::fromStdString(std::string(severityName(d.severity))),
                            QString::fromStdString(d.code), d.location.rank, d.location.tb,
                            d.location.step, d.location.transfer,
                            QString::fromStdString(d.message));
  }
  return lines;
}

/// The same lines from the "diagnostics" array of `cstudio validate --json` (null ids are -1).
inline QStringList diagnosticLines(const QJsonArray& diagnostics)
{
  QStringList lines;
  for (const QJsonValue& value : diagnostics) {
    const QJsonObject d = value.toObject();
    lines << diagnosticLine(d["severity"].toString(), d["code"].toString(), d["rank"].toInt(-1),
                            d["tb"].toInt(-1), d["step"].toInt(-1), d["transfer"].toInt(-1),
                            d["message"].toString());
  }
  return lines;
}

} // namespace cs::test
