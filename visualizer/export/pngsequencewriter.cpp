#include "pngsequencewriter.h"

#include <QBuffer>
#include <QFile>
#include <QObject>

#include <algorithm>

namespace cs::visualizer {

QString sequenceName(const QString& name, int index, int digits, const QString& suffix)
{
  return QStringLiteral("%1-%2.%3")
      .arg(name)
      .arg(index + 1, digits, 10, QLatin1Char('0'))
      .arg(suffix);
}

int sequenceDigits(int count, int minimum)
{
  return std::max(minimum, static_cast<int>(QString::number(std::max(count, 1)).size()));
}

PngSequenceWriter::PngSequenceWriter(const QString& folder, QString name, int frames)
    : m_folder(folder), m_name(std::move(name)), m_digits(sequenceDigits(frames, 4))
{
}

bool PngSequenceWriter::addFrame(const QImage& frame, QString* error)
{
  const QString file = sequenceName(m_name, m_written, m_digits, QStringLiteral("png"));
  // Encoded in memory, then written: a write that fails inside libpng (a full disk) leaks Qt's
  // row buffer on its error path, while a failing QFile write loses nothing.
  QByteArray encoded;
  QBuffer buffer(&encoded);
  buffer.open(QIODevice::WriteOnly);
  QFile out(m_folder.stagingPath(file));
  if (!frame.save(&buffer, "PNG") || !out.open(QIODevice::WriteOnly) ||
      out.write(encoded) != encoded.size() || !out.flush()) {
    *error = QObject::tr("cannot write %1 (is the disk full?)").arg(m_folder.targetPath(file));
    return false;
  }
  m_folder.add(file);
  ++m_written;
  return true;
}

bool PngSequenceWriter::finish(QString* error)
{
  return m_folder.commit(error);
}

} // namespace cs::visualizer
