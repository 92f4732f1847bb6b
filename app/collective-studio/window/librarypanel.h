#pragma once

// The Library dock: the SQLite library (storage/library.h) as a searchable tree. "Algorithms"
// lists each algorithm (name, collective, ranks, version count) with its versions below (number,
// message, date, verdict; read when the algorithm is expanded); "Topologies" lists the stored
// topologies and the built-in machines. Double-clicking a version, or an algorithm for its head,
// emits versionActivated (the main window asks about unsaved changes, then opens it);
// double-clicking a topology gives the document that topology as one undoable edit, asking first
// when the document already has one (replacetopologyquestion.h). Each version
// lists its stored runs (backend, size, time, verdict); double-clicking one with a trace emits
// runActivated (the main window opens that version if needed and replays the run).
//
// The panel owns the open Library; failures (a corrupt file, a read-only one, a newer schema) are
// shown in the panel in words, never thrown, and the file is never written except by saves.

#include <QAction>
#include <QList>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace cs::storage {
class Library;
}

namespace cs::editor {

class Document;

class LibraryPanel : public QWidget
{
  Q_OBJECT

public:
  /// What a tree item stands for (Qt::UserRole of column 0).
  enum class ItemKind { Group, Algorithm, Version, Run, Topology, PresetTopology, Placeholder };

  explicit LibraryPanel(Document* document, QWidget* parent = nullptr);
  ~LibraryPanel() override;

  /// Opens (creating and seeding when absent) the library at `path`; closes the previous one.
  /// Returns an empty string or the error, which the panel shows as well.
  QString openLibrary(const QString& path);
  /// The open library, or nullptr when none could be opened.
  storage::Library* library();
  /// The message above the tree: the error, or what opening did ("created …"); empty otherwise.
  QString message() const;

  /// Lists again with the current search text (after a save, an import, …).
  void refresh();
  void setSearchText(const QString& text);
  QTreeWidget* tree() const { return m_tree; }
  /// The dimmed second line of an item ("all-reduce · 4 ranks · 2 versions").
  static QString detailsOf(const QTreeWidgetItem* item);
  /// The item of algorithm `name`, or nullptr when it is not listed.
  QTreeWidgetItem* algorithmItem(const QString& name) const;

  /// Refresh and New-from-library actions for the main window's menus.
  QList<QAction*> toolActions() const { return m_toolActions; }

signals:
  /// A version was chosen to open (number 0: the head).
  void versionActivated(qint64 algorithmId, int number);
  /// A stored run with a trace was chosen to replay (a run of version `number`).
  void runActivated(qint64 algorithmId, int number, qint64 runId);
  /// A topology was applied to the document.
  void topologyApplied();

private:
  void showMessage(const QString& text, bool error);
  void populate();
  void populateAlgorithms(QTreeWidgetItem* group);
  void populateTopologies(QTreeWidgetItem* group);
  void loadVersions(QTreeWidgetItem* algorithm);
  /// Lists the algorithm's runs under their versions (librarypanelruns.cpp).
  void loadRuns(QTreeWidgetItem* algorithm);
  void activateRun(QTreeWidgetItem* item);
  void activate(QTreeWidgetItem* item);
  void applyTopology(QTreeWidgetItem* item);

  Document* m_document;
  std::unique_ptr<storage::Library> m_library;
  QLabel* m_message = nullptr;
  QLineEdit* m_search = nullptr;
  QTreeWidget* m_tree = nullptr;
  QTimer* m_searchDelay = nullptr;
  QList<QAction*> m_toolActions;
};

} // namespace cs::editor
