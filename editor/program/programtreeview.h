#pragma once

// The tree widget of the program view: a QTreeView that turns a double-click on a "depends on"
// cell into a jump to that instruction instead of opening its editor (F2 still edits it), and
// that spans rank and threadblock rows across all columns.

#include <QTreeView>

namespace cs::editor {

class ProgramTreeView : public QTreeView
{
  Q_OBJECT

public:
  explicit ProgramTreeView(QWidget* parent = nullptr);

  /// Makes the rank rows (and, once a rank is expanded, its threadblock rows) span the row.
  void spanHeaderRows();

signals:
  /// A double-click on the "depends on" cell of `index`'s instruction.
  void dependencyActivated(const QModelIndex& index);

protected:
  bool edit(const QModelIndex& index, EditTrigger trigger, QEvent* event) override;

private:
  void spanChildren(const QModelIndex& rank);
};

} // namespace cs::editor
