#pragma once

// File > Save to Library: the algorithm's name (the document's by default) and a version message;
// Save stores a new version through storage::Library (librarydocuments.h) and says what happened:
// "Saved as version 3", "Unchanged: identical to version 3", or the library's error in words.
// The dialog stays open to show the outcome; the Library dock refreshes on librarySaved().

#include <QDialog>
#include <QString>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace cs::storage {
class Library;
}

namespace cs::editor {

class Document;

class SaveToLibraryDialog : public QDialog
{
  Q_OBJECT

public:
  /// `library` may be null: the dialog then shows `unavailable` (why no library is open).
  SaveToLibraryDialog(Document* document, storage::Library* library, const QString& unavailable,
                      QWidget* parent = nullptr);

  /// The algorithm the version is saved under (trimmed).
  void setName(const QString& name);
  QString name() const;
  /// The version's message.
  void setMessage(const QString& message);
  /// Saves now. Returns true when the library stored (or already held) the content; outcome()
  /// says which.
  bool save();
  /// The text shown after the last save.
  QString outcome() const;

signals:
  /// A save went through (new version or unchanged).
  void librarySaved();

private:
  void showOutcome(const QString& text, bool error);
  void updateButtons();

  Document* m_document;
  storage::Library* m_library;
  QLineEdit* m_name = nullptr;
  QLineEdit* m_message = nullptr;
  QLabel* m_outcome = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
};

} // namespace cs::editor
