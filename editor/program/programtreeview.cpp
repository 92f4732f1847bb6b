#include "programtreeview.h"

#include "programmodel.h"

namespace cs::editor {

ProgramTreeView::ProgramTreeView(QWidget* parent) : QTreeView(parent)
{
  // Threadblock rows are spanned lazily: only once their rank is opened.
  connect(this, &QTreeView::expanded, this, [this](const QModelIndex& index) {
    if (!index.parent().isValid())
      spanChildren(index);
  });
}

void ProgramTreeView::spanHeaderRows()
{
  if (!model())
    return;
  const int ranks = model()->rowCount();
  for (int row = 0; row < ranks; ++row) {
    setFirstColumnSpanned(row, {}, true);
    const QModelIndex rank = model()->index(row, 0);
    if (isExpanded(rank))
      spanChildren(rank);
  }
}

void ProgramTreeView::spanChildren(const QModelIndex& rank)
{
  const int tbs = model()->rowCount(rank);
  for (int row = 0; row < tbs; ++row)
    setFirstColumnSpanned(row, rank, true);
}

bool ProgramTreeView::edit(const QModelIndex& index, EditTrigger trigger, QEvent* event)
{
  if (trigger == DoubleClicked && index.column() == ProgramModel::DependsColumn &&
      !index.data(Qt::DisplayRole).toString().isEmpty()) {
    emit dependencyActivated(index);
    return false;
  }
  return QTreeView::edit(index, trigger, event);
}

} // namespace cs::editor
