#include "stagedoutput.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QTemporaryDir>
#include <QTemporaryFile>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cs::visualizer {

namespace {

/// The nearest existing ancestor of `path` (the folder a new entry would be created in).
QString existingParent(const QString& path)
{
  QFileInfo info(QFileInfo(path).absolutePath());
  while (!info.exists() && info.absoluteFilePath() != info.absolutePath())
    info = QFileInfo(info.absolutePath());
  return info.absoluteFilePath();
}

/// Renames `from` over `to` (replacing it); false with errno's text in `reason`.
bool renameOver(const QString& from, const QString& to, QString* reason)
{
  if (std::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
    return true;
  *reason = QString::fromLocal8Bit(std::strerror(errno));
  return false;
}

} // namespace

QString cannotWrite(const QString& target, const QString& fallback)
{
  const QFileInfo parent(QFileInfo(target).absolutePath());
  QString why = fallback;
  if (!parent.exists()) {
    const QFileInfo ancestor(existingParent(target));
    why = ancestor.isDir() ? QObject::tr("the folder %1 does not exist").arg(parent.filePath())
                           : QObject::tr("%1 is a file, not a folder").arg(ancestor.filePath());
  } else if (!parent.isDir()) {
    why = QObject::tr("%1 is a file, not a folder").arg(parent.filePath());
  } else if (!parent.isWritable()) {
    why = QObject::tr("the folder %1 is not writable").arg(parent.filePath());
  }
  return QObject::tr("cannot write %1: %2").arg(target, why);
}

StagedFile::StagedFile(QString target) : m_target(std::move(target))
{
}

StagedFile::~StagedFile() = default;

bool StagedFile::open(QString* error)
{
  const QFileInfo info(m_target);
  if (info.isDir()) {
    *error = QObject::tr("cannot write %1: it is a folder").arg(m_target);
    return false;
  }
  m_staging = std::make_unique<QTemporaryFile>(
      info.absoluteDir().filePath(QStringLiteral(".%1-XXXXXX.part").arg(info.fileName())));
  if (!m_staging->open()) {
    *error = cannotWrite(m_target, m_staging->errorString());
    m_staging.reset();
    return false;
  }
  m_staging->close();
  return true;
}

QString StagedFile::stagingPath() const
{
  return m_staging ? m_staging->fileName() : QString();
}

bool StagedFile::commit(QString* error)
{
  QString reason;
  // A temporary file is private (0600); the export gets what any new file would (umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (m_staging)
    ::chmod(QFile::encodeName(m_staging->fileName()).constData(), 0666 & ~mask);
  if (!m_staging || !renameOver(m_staging->fileName(), m_target, &reason)) {
    *error = QObject::tr("cannot write %1: %2").arg(m_target, reason);
    return false;
  }
  m_staging->setAutoRemove(false);
  m_staging.reset();
  return true;
}

StagedFolder::StagedFolder(QString folder) : m_folder(QDir::cleanPath(std::move(folder)))
{
}

StagedFolder::~StagedFolder() = default;

bool StagedFolder::open(QString* error)
{
  const QFileInfo info(m_folder);
  if (info.exists() && !info.isDir()) {
    *error = QObject::tr("cannot write into %1: it is a file, not a folder").arg(m_folder);
    return false;
  }
  // Beside the target when its parent exists, else in the nearest folder that does (the target's
  // missing parents are made on commit).
  const QString parent = existingParent(info.absoluteFilePath());
  m_staging = std::make_unique<QTemporaryDir>(
      QDir(parent).filePath(QStringLiteral(".%1-XXXXXX.part").arg(info.fileName())));
  if (!m_staging->isValid()) {
    *error = cannotWrite(info.absoluteFilePath() + QStringLiteral("/"), m_staging->errorString());
    m_staging.reset();
    return false;
  }
  return true;
}

QString StagedFolder::stagingPath(const QString& name) const
{
  return m_staging ? m_staging->filePath(name) : QString();
}

QString StagedFolder::targetPath(const QString& name) const
{
  return QDir(m_folder).filePath(name);
}

bool StagedFolder::commit(QString* error)
{
  if (!m_staging || !QDir().mkpath(m_folder)) {
    *error = cannotWrite(m_folder + QStringLiteral("/"), QObject::tr("cannot create the folder"));
    return false;
  }
  for (const QString& name : m_names) {
    QString reason;
    const QString target = targetPath(name);
    if (!renameOver(m_staging->filePath(name), target, &reason)) {
      *error = QObject::tr("cannot write %1: %2").arg(target, reason);
      return false;
    }
  }
  return true;
}

QStringList StagedFolder::committedPaths() const
{
  QStringList paths;
  for (const QString& name : m_names)
    paths << targetPath(name);
  return paths;
}

} // namespace cs::visualizer
