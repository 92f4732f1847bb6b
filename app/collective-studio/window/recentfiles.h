#pragma once

// The "Open Recent" list, kept in QSettings (organisation "CollectiveStudio") so every window and
// every start of the program share it. Newest first, no duplicates, at most kMaxRecentFiles.

#include <QObject>
#include <QStringList>

namespace cs::editor {

class RecentFiles : public QObject
{
  Q_OBJECT

public:
  static constexpr int kMaxRecentFiles = 10;

  explicit RecentFiles(QObject* parent = nullptr);

  /// The files, newest first, as stored (files that have gone away are kept until opened fails).
  QStringList files() const;
  /// Moves `path` (made absolute) to the front.
  void add(const QString& path);
  /// Forgets `path` (after it failed to open).
  void remove(const QString& path);
  void clear();

signals:
  void changed();

private:
  void store(const QStringList& files);
};

} // namespace cs::editor
