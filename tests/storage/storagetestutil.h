#pragma once

// Helpers shared by the storage tests: generated MSCCL XML with a marker, and file bytes.

#include "io/mscclxmlwriter.h"
#include "library/ringallreduce.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <string>

namespace cs::test {

/// A correct ring all-reduce on `ranks` ranks whose algo name is `name` (so contents differ).
inline std::string ringXml(int ranks, const std::string& name = "ring", int channels = 1)
{
  RingAllReduceOptions options;
  options.ranks = ranks;
  options.channels = channels;
  Program program = makeRingAllReduce(options);
  program.name = name;
  return writeMscclXml(program, {}).text;
}

inline QByteArray fileBytes(const QString& path)
{
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace cs::test
