#include "recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace cs::editor {

namespace {

constexpr const char* kKey = "recentFiles";

} // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent)
{
}

QStringList RecentFiles::files() const
{
  return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path)
{
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxRecentFiles)
    list.removeLast();
  store(list);
}

void RecentFiles::remove(const QString& path)
{
  QStringList list = files();
  if (list.removeAll(QFileInfo(path).absoluteFilePath()) + list.removeAll(path) > 0)
    store(list);
}

void RecentFiles::clear()
{
  store({});
}

void RecentFiles::store(const QStringList& list)
{
  QSettings().setValue(kKey, list);
  emit changed();
}

} // namespace cs::editor
