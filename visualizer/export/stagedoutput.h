#pragma once

// Exported files appear whole or not at all (issue 19 item 6: cancel, an unwritable path or a
// full disk leaves no partial file). A StagedFile is written under a temporary name beside its
// target and renamed over it on commit (one rename on the same file system); a StagedFolder
// collects a sequence of files in a temporary folder beside the target and moves them in on
// commit. Destroying either uncommitted removes everything it wrote.

#include <QString>
#include <QStringList>

#include <memory>

class QTemporaryDir;
class QTemporaryFile;

namespace cs::visualizer {

/// "cannot write /path/out.gif: the folder /path does not exist" and the like: why `target`
/// (a file or folder to be created) cannot be written, or `fallback` when nothing more is known.
QString cannotWrite(const QString& target, const QString& fallback);

class StagedFile
{
public:
  explicit StagedFile(QString target);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  /// Creates the temporary file beside the target; false with the reason (naming the target).
  bool open(QString* error);
  /// Where to write until commit().
  QString stagingPath() const;
  QString target() const { return m_target; }
  /// Renames the staging file over the target; false with the reason.
  bool commit(QString* error);

private:
  QString m_target;
  std::unique_ptr<QTemporaryFile> m_staging;
};

class StagedFolder
{
public:
  /// The files go into `folder` (created on commit when missing).
  explicit StagedFolder(QString folder);
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  /// Creates the temporary folder beside the target folder; false with the reason.
  bool open(QString* error);
  /// Where to write file `name` until commit().
  QString stagingPath(const QString& name) const;
  /// Where file `name` goes on commit().
  QString targetPath(const QString& name) const;
  /// Records `name` as written (commit() moves exactly these).
  void add(const QString& name) { m_names << name; }
  /// Moves every file added into the target folder; false with the reason.
  bool commit(QString* error);
  /// The target paths of the files committed.
  QStringList committedPaths() const;

private:
  QString m_folder;
  QStringList m_names;
  std::unique_ptr<QTemporaryDir> m_staging;
};

} // namespace cs::visualizer
