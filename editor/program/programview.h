#pragma once

// The Program tab (issue 6, item 4): per rank, its threadblocks and their instructions as the
// runtime sees them, lowered from the timeline or imported, editable at instruction level.
//
// A summary line ("16 ranks · 384 threadblocks · 11,904 instructions · executor · Simple ·
// imported") sits above a ProgramTreeView over a ProgramModel. The view keeps no state of its
// own beyond what is expanded: the tree is redrawn from the document on analysisChanged, and
// the selection goes both ways through Document::selection() (an instruction and the transfer
// it was lowered from). Edits are ReplaceProgramCommands pushed by the model (cells) or by the
// actions here (insert a nop, delete an instruction).

#include <QAction>
#include <QList>
#include <QSet>
#include <QWidget>

// After Qt: moc cannot parse <compare> when it comes first.
#include "document/playbackmarks.h"
#include "document/selection.h"

#include <optional>
#include <utility>

class QLabel;
class QStackedWidget;

namespace cs::editor {

class Document;
class ProgramModel;
class ProgramTreeView;

class ProgramView : public QWidget
{
  Q_OBJECT

public:
  explicit ProgramView(Document* document, QWidget* parent = nullptr);
  /// Actions this view adds to the main window's toolbar and menus while it is shown:
  /// insert a nop after, delete the instruction, go to its dependency, expand and collapse all.
  QList<QAction*> toolActions() const { return m_toolActions; }

  /// The tree and its model, for tests and for the main window's "find".
  ProgramTreeView* treeView() const { return m_tree; }
  ProgramModel* model() const { return m_model; }
  /// The summary line above the tree.
  QString summaryText() const;

  /// Selects, expands to and scrolls to an instruction (and tells the document).
  void revealInstruction(const InstructionRef& at);

  /// A replay following the document (issue 14): tints each threadblock's running instruction,
  /// the done ones and blocked ones, and keeps the selected threadblock's running instruction in
  /// view. An inactive value clears the marks.
  void setPlaybackMarks(const PlaybackMarks& marks);

protected:
  void changeEvent(QEvent* event) override;

private:
  void setUpTree();
  /// Insert, delete, move, go to dependency, expand and collapse: the tree's row verbs.
  void createRowActions();
  void onAnalysisChanged();
  void syncFromDocument();
  void onTreeSelectionChanged();
  void updateSummary();
  void updateActions();
  void insertNop();
  /// Moves the current instruction one place up (-1) or down (+1) in its threadblock.
  void moveCurrent(int delta);
  void deleteCurrent();
  void jumpToDependency(const QModelIndex& index);
  std::optional<InstructionRef> currentInstruction() const;
  void rememberExpansion();
  void restoreExpansion();
  QAction* makeAction(const QIcon& icon, const QString& text, const QKeySequence& shortcut,
                      void (ProgramView::*slot)());

  Document* m_document;
  ProgramModel* m_model;
  ProgramTreeView* m_tree;
  QLabel* m_summary;
  QLabel* m_legend;
  QLabel* m_placeholder;
  QStackedWidget* m_stack;
  QList<QAction*> m_toolActions;
  QAction* m_insertNop = nullptr;
  QAction* m_delete = nullptr;
  QAction* m_moveUp = nullptr;
  QAction* m_moveDown = nullptr;
  QAction* m_jump = nullptr;
  /// Expanded ranks and (rank, tb) pairs, by id, kept across a model reset.
  QSet<int> m_expandedRanks;
  QSet<std::pair<int, int>> m_expandedTbs;
  int m_scrollValue = 0;
  bool m_syncing = false;
  /// The running instruction last scrolled to while following a replay.
  std::optional<InstructionRef> m_followed;
  /// A new document is open and its Program is still being lowered in the background: the
  /// Program in the Analysis is the previous document's, so the tree is hidden until it lands.
  bool m_awaitingProgram = false;
};

} // namespace cs::editor
