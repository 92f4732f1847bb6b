#pragma once

// Whole-file reads and writes for tests that prepare inputs or inspect what a command wrote.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace cs::test {

/// The whole file, or an empty array when it cannot be read.
inline QByteArray readFile(const QString& path)
{
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Writes `contents`; false when the file cannot be written completely.
inline bool writeFile(const QString& path, const QByteArray& contents)
{
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

} // namespace cs::test
