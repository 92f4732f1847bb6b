#include "twolinedelegate.h"

#include <QApplication>
#include <QPainter>

namespace cs::editor {

namespace {

constexpr int kPadding = 3;

QFont detailFont(const QFont& font)
{
  QFont smaller = font;
  smaller.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() * 0.9 : 8.0);
  return smaller;
}

} // namespace

TwoLineDelegate::TwoLineDelegate(int detailRole, bool boldTitle, QObject* parent)
    : QStyledItemDelegate(parent), m_detailRole(detailRole), m_boldTitle(boldTitle)
{
}

void TwoLineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const
{
  const QString detail = index.data(m_detailRole).toString();
  if (detail.isEmpty()) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  QStyleOptionViewItem item = option;
  initStyleOption(&item, index);
  const QString title = item.text;
  item.text.clear();
  const QWidget* widget = option.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  // Background, selection and icon as the style draws them; the two lines are ours.
  style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);
  const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget)
                         .adjusted(kPadding, kPadding, -kPadding, -kPadding);

  const bool selected = option.state & QStyle::State_Selected;
  const QColor text = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
  QFont titleFont = item.font;
  if (m_boldTitle)
    titleFont.setBold(true);
  const QFontMetrics titleMetrics(titleFont);
  const QFont smaller = detailFont(item.font);
  const QFontMetrics detailMetrics(smaller);

  painter->save();
  painter->setFont(titleFont);
  painter->setPen(text);
  const QRect titleRect(area.left(), area.top(), area.width(), titleMetrics.height());
  painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                    titleMetrics.elidedText(title, Qt::ElideRight, area.width()));
  QColor dim = text;
  dim.setAlphaF(0.68f);
  painter->setFont(smaller);
  painter->setPen(dim);
  const QRect detailRect(area.left(), titleRect.bottom() + 1, area.width(), detailMetrics.height());
  painter->drawText(detailRect, Qt::AlignLeft | Qt::AlignVCenter,
                    detailMetrics.elidedText(detail, Qt::ElideRight, area.width()));
  painter->restore();
}

QSize TwoLineDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  if (index.data(m_detailRole).toString().isEmpty())
    return size;
  const int lines =
      QFontMetrics(option.font).height() + QFontMetrics(detailFont(option.font)).height();
  size.setHeight(std::max(size.height(), lines + 2 * kPadding + 2));
  return size;
}

} // namespace cs::editor
