#pragma once

// The Problems dock (issue 6, item 1): the checker's diagnostics for the open document, live.
//
// A filter bar (toggles for errors, warnings and infos with their counts, a search box) above a
// tree of problems whose children are the related locations (a deadlock's cycle) and the other
// ranks of a repeated fault, and beside it the current problem's whole message, wrapped (rows
// elide long messages). Activating a row (double-click or Enter) selects what it is about
// (problemtargets.h: a transfer, an instruction, a cell, GPUs) and emits problemActivated so the
// main window can bring the right tab forward. With nothing to report the panel is one line: a
// green check and a sentence. A limit.residency row offers "Choose GPU …" in its context menu
// when a known GPU keeps the program's threadblocks resident.
// Rows come from ProblemsModel, rebuilt on every analysisChanged.

#include <QAction>
#include <QList>
#include <QWidget>

#include "document/analysis.h"
#include "model/gpumodel.h"

#include <optional>

class QLabel;
class QLayout;
class QLineEdit;
class QStackedWidget;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace cs::editor {

class Document;
class ProblemsModel;

class ProblemsPanel : public QWidget
{
  Q_OBJECT

public:
  explicit ProblemsPanel(Document* document, QWidget* parent = nullptr);
  /// Actions this view adds to the main window's toolbar and menus while it is shown.
  QList<QAction*> toolActions() const { return m_toolActions; }

  /// Top-level rows shown with the current filter.
  int problemCount() const;
  /// "2 errors, 1 warning", or "No problems".
  QString summary() const { return m_summary; }
  /// Activates top-level row `row` as a double-click would; false when there is no such row.
  bool activateRow(int row);
  QTreeView* treeView() const { return m_tree; }
  /// Lists what a replayed run found (blocked positions, the wait-for cycle) after the design's
  /// problems, stage "run"; activating one selects its instruction. An empty list removes them.
  void setRunProblems(std::vector<Problem> problems);
  ProblemsModel* model() const { return m_model; }
  /// The current row's fix ("Choose GPU B200 (148 SMs)"); hidden when the row has none.
  QAction* fixAction() const { return m_fix; }
  /// Whether the panel shows only the one "No problems" line.
  bool isCompact() const { return m_compact; }

signals:
  /// The summary changed; the main window shows it in the dock's title.
  void summaryChanged(const QString& summary);
  /// A problem was activated (its target is selected in the document by then).
  void problemActivated(const cs::Problem& problem);

private:
  /// The severity toggles, the search field and the "checking" note above the tree.
  QLayout* buildFilterBar();
  void setUpTree();
  /// What shows instead of the tree when nothing matches (or there are no problems).
  QWidget* buildEmptyPage();
  void setUpDetails();
  void refresh();
  void applyFilter();
  void activate(const QModelIndex& index);
  void updateEmptyState();
  void copySelection();
  void showDetails();
  /// Offers m_fix for `problem` (the current row, or null) when one exists.
  void updateFix(const Problem* problem);
  /// After a refresh, makes the problem that was current current again when it still exists
  /// (edits rebuild the list; the user's place in it should survive them).
  void restoreCurrent();
  static QString problemKey(const Problem& problem);
  /// With nothing to report the panel is one line ("No problems — …") and at most that tall.
  void setCompact(bool compact);

  Document* m_document;
  ProblemsModel* m_model;
  QTreeView* m_tree;
  QToolButton* m_errors;
  QToolButton* m_warnings;
  QToolButton* m_infos;
  QLineEdit* m_search;
  QLabel* m_pending; ///< "checking the program…" while the Program level runs in the background
  QStackedWidget* m_stack;
  QLabel* m_emptyIcon;
  QLabel* m_emptyTitle;
  QLabel* m_emptyDetail;
  QTextBrowser* m_details; ///< the current problem's whole message (rows elide long ones)
  QWidget* m_filterBar;
  QLabel* m_compactLine; ///< "No problems — …" on one line, instead of everything else
  bool m_compact = false;
  int m_expandedHeight = 200; ///< the panel's height before it was made one line
  QString m_summary;
  QString m_currentKey; ///< problemKey of the current row, kept across refreshes
  QList<QAction*> m_toolActions;
  QAction* m_fix = nullptr;
  std::optional<GpuModelId> m_fixGpu; ///< the GPU m_fix chooses
};

} // namespace cs::editor
