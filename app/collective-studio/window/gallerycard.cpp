#include "gallerycard.h"

#include <QImage>
#include <QPainter>
#include <QPainterPath>

namespace cs::editor {

namespace {

constexpr int kMargin = 10;
constexpr int kRadius = 8;
constexpr int kTextLines = 3;

/// The selection tints the card with the highlight colour instead of filling it, so the
/// thumbnail stays readable in light and dark palettes.
QColor selectionTint(const QPalette& palette)
{
  QColor tint = palette.color(QPalette::Highlight);
  tint.setAlpha(56);
  return tint;
}

} // namespace

QSize GalleryCardDelegate::thumbnailSize()
{
  return {260, 150};
}

QSize GalleryCardDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const
{
  const int line = option.fontMetrics.lineSpacing();
  return {thumbnailSize().width() + 2 * kMargin,
          thumbnailSize().height() + 3 * kMargin + kTextLines * line + line / 2};
}

void GalleryCardDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const
{
  const QPalette& palette = option.palette;
  const bool selected = option.state & QStyle::State_Selected;
  const QRect card = option.rect.adjusted(4, 4, -4, -4);
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  QPainterPath outline;
  outline.addRoundedRect(card, kRadius, kRadius);
  painter->fillPath(outline, palette.color(QPalette::Base));
  if (selected)
    painter->fillPath(outline, selectionTint(palette));
  painter->setPen(QPen(selected ? palette.color(QPalette::Highlight) : palette.color(QPalette::Mid),
                       selected ? 2 : 1));
  painter->drawPath(outline);

  const QRect picture(card.left() + kMargin - 4, card.top() + kMargin - 4, thumbnailSize().width(),
                      thumbnailSize().height());
  const QImage thumbnail = index.data(gallery_roles::kThumbnail).value<QImage>();
  if (thumbnail.isNull()) {
    painter->setPen(palette.color(QPalette::PlaceholderText));
    painter->drawText(picture, Qt::AlignCenter, tr("drawing…"));
  } else {
    painter->drawImage(picture.topLeft(), thumbnail);
  }

  const int line = option.fontMetrics.lineSpacing();
  QRect text(picture.left(), picture.bottom() + kMargin, picture.width(), line);
  QFont bold = option.font;
  bold.setBold(true);
  painter->setFont(bold);
  painter->setPen(palette.color(QPalette::Text));
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetrics(bold).elidedText(index.data(Qt::DisplayRole).toString(),
                                                  Qt::ElideRight, text.width()));
  painter->setFont(option.font);
  painter->setPen(palette.color(QPalette::PlaceholderText));
  text.translate(0, line);
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    option.fontMetrics.elidedText(index.data(gallery_roles::kDetail).toString(),
                                                  Qt::ElideRight, text.width()));
  text.translate(0, line);
  painter->setPen(palette.color(QPalette::Text));
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    option.fontMetrics.elidedText(index.data(gallery_roles::kFormula).toString(),
                                                  Qt::ElideRight, text.width()));
  painter->restore();
}

} // namespace cs::editor
