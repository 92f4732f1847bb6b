#pragma once

// How the gallery draws one algorithm as a card: its timeline thumbnail on top, then the title,
// the collective with the rank counts it allows, and the cost formula. The item's roles below
// carry what the card shows (GalleryDialog fills them from galleryEntries()).

#include <QStyledItemDelegate>

namespace cs::editor {

namespace gallery_roles {
constexpr int kKey = Qt::UserRole;
constexpr int kDetail = Qt::UserRole + 1;    ///< "all-reduce · any n ≥ 2"
constexpr int kFormula = Qt::UserRole + 2;   ///< the cost formula
constexpr int kThumbnail = Qt::UserRole + 3; ///< QImage, null until rendered
} // namespace gallery_roles

class GalleryCardDelegate : public QStyledItemDelegate
{
  Q_OBJECT

public:
  using QStyledItemDelegate::QStyledItemDelegate;

  /// The thumbnail area of a card.
  static QSize thumbnailSize();

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace cs::editor
