#pragma once

// Painting and cell editors of the program view. Painting: the hasdep check box centred in its
// column, and a problem badge (severity icon and count) after a rank row's text, so a collapsed
// rank still shows that something inside it is wrong. Editors: a combo for the instruction type, a
// buffer combo with an offset spin box for source and destination, spin boxes for cnt and for the
// dependency (threadblock and step). Editors exchange the same text the cells show ("i[3]", "tb 1 s
// 4"), so ProgramModel::setData is the single place that validates and pushes the edit. Ranges are
// those the Program and the runtimes can hold (offsets fit int16, cnt < 72).

#include <QStyledItemDelegate>

namespace cs::editor {

class ProgramDelegate : public QStyledItemDelegate
{
  Q_OBJECT

public:
  explicit ProgramDelegate(QObject* parent = nullptr);

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model,
                    const QModelIndex& index) const override;
  void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const override;
  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;

protected:
  bool editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;

private:
  /// Where the hasdep check box is drawn: centred in the cell.
  QRect checkRect(const QStyleOptionViewItem& option, const QModelIndex& index) const;
  /// A rank row: its swatch, the title in bold, the detail dimmed, then the problem badge.
  void paintRankRow(QPainter* painter, const QStyleOptionViewItem& option,
                    const QModelIndex& index) const;
};

} // namespace cs::editor
