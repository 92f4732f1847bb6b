#pragma once

// Item views in narrow places (the Library dock, the New dialog's algorithm list) show an item as
// its name with a dimmed line of details below, instead of a second column that would be cut
// off. Items without details keep one line.

#include <QStyledItemDelegate>

namespace cs::editor {

class TwoLineDelegate : public QStyledItemDelegate
{
  Q_OBJECT

public:
  /// `detailRole` holds the second line's text; `boldTitle` sets the first line in bold.
  TwoLineDelegate(int detailRole, bool boldTitle, QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
  int m_detailRole;
  bool m_boldTitle;
};

} // namespace cs::editor
