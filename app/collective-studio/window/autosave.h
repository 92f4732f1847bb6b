#pragma once

// Autosave and crash recovery. While the document has unsaved changes, Autosave writes it to
// <dir>/<pid>.autosave.json 2 s after the last edit and every 30 s (only when something changed
// since the last write), atomically. The file is removed when the document becomes clean again
// (saved, discarded, undone to the saved state, another document opened) and on a clean close
// (removeFile()). A crash or kill leaves it behind.
//
// Whose file is it? Each instance holds a QLockFile <dir>/<pid>.autosave.lock while its file
// exists. A file whose lock is absent or held by a dead process (QLockFile's stale detection,
// with the age rule off so a long-running instance is never mistaken for a dead one) belongs to
// a crashed instance and is offered for recovery; a file whose lock is held by a live process is
// another running instance's and is left alone.
//
// The file is one JSON object: format/version, pid, savedAt, the document name, the origin, the
// lowering options, the design document (Schedule, Topology, notes) and, when the Program is the
// source, its MSCCL XML written in the dialect it was read in (a same-dialect round trip
// reproduces it). Start with write() and loadRecoveryFile() when adding a field.

#include "document/document.h"

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>

namespace cs::editor {

/// An autosave file left by an instance that is no longer running.
struct RecoverableDocument {
  QString path;      ///< the .autosave.json file
  qint64 pid = 0;    ///< the process that wrote it
  QString name;      ///< the document's display name when it was written
  QDateTime savedAt; ///< when it was written (local time)
};

/// A recovery file read back: what Document::reset() needs.
struct RecoveredDocument {
  DocumentState state;
  DocumentOrigin origin;
};

class Autosave : public QObject
{
  Q_OBJECT

public:
  /// $CSTUDIO_AUTOSAVE_DIR, else QStandardPaths::AppDataLocation + "/autosave".
  static QString defaultDirectory();

  /// Watches `document` and autosaves into `directory` (created when needed). The file name is
  /// "<pid>.autosave.json"; further instances in the same process add "-2", "-3", … to the pid.
  explicit Autosave(Document* document, const QString& directory = defaultDirectory(),
                    QObject* parent = nullptr);
  /// Releases the lock but keeps the file: only removeFile() (a clean close) deletes it, so
  /// destroying without it behaves like a crash.
  ~Autosave() override;

  QString directory() const { return m_directory; }
  QString filePath() const { return m_filePath; }
  /// Whether the file currently exists (written and not removed since).
  bool hasFile() const;

  /// Writes the document now when it is modified. Returns an empty string or why it failed.
  QString saveNow();
  /// Removes this instance's file and lock (clean close; the document was saved or discarded).
  void removeFile();
  /// The debounce after an edit and the period of the regular write, in ms (tests shorten them).
  void setIntervals(int debounceMs, int periodMs);

  /// The files in `directory` whose instance is no longer running, newest first.
  static QList<RecoverableDocument> findRecoverable(const QString& directory);
  /// Reads a recovery file; nullopt with the reason in `error` when it is not readable.
  static std::optional<RecoveredDocument> loadRecoveryFile(const QString& path,
                                                           QString* error = nullptr);
  /// Deletes a recovery file of a dead instance (Discard, or after recovering it).
  static void discardRecoveryFile(const QString& path);

signals:
  /// After each write attempt: empty `error` on success.
  void saved(const QString& error);

private:
  void documentChanged();
  void modifiedChanged(bool modified);
  void timerFired();
  QString write();

  Document* m_document;
  QString m_directory;
  QString m_filePath;
  std::unique_ptr<QLockFile> m_lock;
  QTimer m_debounce;
  QTimer m_period;
  bool m_dirty = false;
};

} // namespace cs::editor
