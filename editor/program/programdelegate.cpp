#include "programdelegate.h"

#include "programedits.h"
#include "programmodel.h"

#include "style/paintedicons.h"
#include "style/rankpalette.h"
#include "style/textformat.h"

#include "model/program.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSpinBox>

namespace cs::editor {

namespace {

// Offsets are stored as int16 by the runtimes; cnt must stay below 72 (dialect.h).
constexpr int kMaxOffset = 32767;
constexpr int kMaxCount = 71;
constexpr int kMaxThreadblockId = 1023;
constexpr int kMaxStepIndex = 4095;

/// A buffer letter and a chunk offset side by side: the "i[3]" of a source or destination.
class SlotEditor : public QWidget
{
public:
  explicit SlotEditor(QWidget* parent) : QWidget(parent)
  {
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_buffer = new QComboBox(this);
    m_buffer->setObjectName(QStringLiteral("buffer"));
    for (Buffer buffer : {Buffer::Input, Buffer::Output, Buffer::Scratch})
      m_buffer->addItem(QString(QChar::fromLatin1(bufferLetter(buffer))), static_cast<int>(buffer));
    m_buffer->setItemData(0, tr("input"), Qt::ToolTipRole);
    m_buffer->setItemData(1, tr("output"), Qt::ToolTipRole);
    m_buffer->setItemData(2, tr("scratch"), Qt::ToolTipRole);
    m_offset = new QSpinBox(this);
    m_offset->setObjectName(QStringLiteral("offset"));
    m_offset->setRange(0, kMaxOffset);
    layout->addWidget(m_buffer);
    layout->addWidget(m_offset, 1);
    setFocusProxy(m_offset);
  }

  void setText(const QString& text)
  {
    const auto slot = parseSlot(text, Buffer::Input);
    if (!slot)
      return;
    m_buffer->setCurrentIndex(static_cast<int>(slot->first));
    m_offset->setValue(std::max(0, slot->second));
  }
  QString text() const
  {
    return slotText(static_cast<Buffer>(m_buffer->currentData().toInt()), m_offset->value());
  }

private:
  QComboBox* m_buffer;
  QSpinBox* m_offset;
};

/// "tb [n] s [m]": the threadblock (or none) and step an instruction waits for.
class DependencyEditor : public QWidget
{
public:
  explicit DependencyEditor(QWidget* parent) : QWidget(parent)
  {
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 0, 0, 0);
    layout->setSpacing(3);
    m_tb = new QSpinBox(this);
    m_tb->setObjectName(QStringLiteral("depid"));
    m_tb->setRange(-1, kMaxThreadblockId);
    m_tb->setSpecialValueText(tr("none"));
    m_tb->setPrefix(tr("tb "));
    m_step = new QSpinBox(this);
    m_step->setObjectName(QStringLiteral("deps"));
    m_step->setRange(0, kMaxStepIndex);
    m_step->setPrefix(tr("s "));
    layout->addWidget(m_tb, 1);
    layout->addWidget(m_step, 1);
    setFocusProxy(m_tb);
    connect(m_tb, &QSpinBox::valueChanged, this, [this](int tb) { m_step->setEnabled(tb >= 0); });
  }

  void setText(const QString& text)
  {
    const auto dependency = parseDependency(text);
    const int depid = dependency ? dependency->first : -1;
    m_tb->setValue(depid);
    m_step->setValue(std::max(0, dependency ? dependency->second : 0));
    m_step->setEnabled(depid >= 0);
  }
  QString text() const
  {
    return m_tb->value() < 0 ? QString() : dependencyText(m_tb->value(), m_step->value());
  }

private:
  QSpinBox* m_tb;
  QSpinBox* m_step;
};

} // namespace

ProgramDelegate::ProgramDelegate(QObject* parent) : QStyledItemDelegate(parent)
{
}

QWidget* ProgramDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                       const QModelIndex& index) const
{
  switch (index.column()) {
  case ProgramModel::TypeColumn: {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("type"));
    for (int t = 0; t < kOpTypeCount; ++t)
      combo->addItem(QString::fromUtf8(opTypeName(static_cast<OpType>(t))));
    // A choice in the list is the whole edit: commit at once instead of waiting for focus out.
    connect(combo, &QComboBox::activated, this, [this, combo] {
      auto* self = const_cast<ProgramDelegate*>(this);
      emit self->commitData(combo);
      emit self->closeEditor(combo);
    });
    return combo;
  }
  case ProgramModel::SourceColumn:
  case ProgramModel::DestinationColumn:
    return new SlotEditor(parent);
  case ProgramModel::CountColumn: {
    auto* spin = new QSpinBox(parent);
    spin->setObjectName(QStringLiteral("cnt"));
    spin->setRange(0, kMaxCount);
    return spin;
  }
  case ProgramModel::DependsColumn:
    return new DependencyEditor(parent);
  default:
    return QStyledItemDelegate::createEditor(parent, option, index);
  }
}

void ProgramDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
  const QVariant value = index.data(Qt::EditRole);
  switch (index.column()) {
  case ProgramModel::TypeColumn:
    if (auto* combo = qobject_cast<QComboBox*>(editor))
      combo->setCurrentText(value.toString());
    return;
  case ProgramModel::SourceColumn:
  case ProgramModel::DestinationColumn:
    static_cast<SlotEditor*>(editor)->setText(value.toString());
    return;
  case ProgramModel::CountColumn:
    if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
      // An imported file may already exceed the runtime limit; show it rather than clamp it.
      spin->setMaximum(std::max(kMaxCount, value.toInt()));
      spin->setValue(value.toInt());
    }
    return;
  case ProgramModel::DependsColumn:
    static_cast<DependencyEditor*>(editor)->setText(value.toString());
    return;
  default:
    QStyledItemDelegate::setEditorData(editor, index);
  }
}

void ProgramDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                   const QModelIndex& index) const
{
  switch (index.column()) {
  case ProgramModel::TypeColumn:
    if (auto* combo = qobject_cast<QComboBox*>(editor))
      model->setData(index, combo->currentText());
    return;
  case ProgramModel::SourceColumn:
  case ProgramModel::DestinationColumn:
    model->setData(index, static_cast<SlotEditor*>(editor)->text());
    return;
  case ProgramModel::CountColumn:
    if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
      spin->interpretText();
      model->setData(index, spin->value());
    }
    return;
  case ProgramModel::DependsColumn:
    model->setData(index, static_cast<DependencyEditor*>(editor)->text());
    return;
  default:
    QStyledItemDelegate::setModelData(editor, model, index);
  }
}

void ProgramDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                                           const QModelIndex&) const
{
  // Composite editors need more room than a narrow column gives; they may overlap the next one.
  QRect rect = option.rect;
  rect.setWidth(std::max(rect.width(), editor->sizeHint().width()));
  rect.setHeight(std::max(rect.height(), editor->sizeHint().height()));
  rect.moveTop(option.rect.center().y() - rect.height() / 2);
  editor->setGeometry(rect);
}

QRect ProgramDelegate::checkRect(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QWidget* widget = option.widget;
  const QStyle* style = widget ? widget->style() : QApplication::style();
  QRect box = style->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt, widget);
  box.moveCenter(option.rect.center());
  return box;
}

void ProgramDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const
{
  const QVariant check = index.data(Qt::CheckStateRole);
  if (index.column() == ProgramModel::HasDepColumn && check.isValid()) {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = option.widget;
    const QStyle* style = widget ? widget->style() : QApplication::style();
    // Background and selection as usual, then the indicator alone in the middle of the cell.
    opt.features &= ~QStyleOptionViewItem::HasCheckIndicator;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    // Drawn here rather than by the style: some dark palettes give the style's box an outline
    // as dark as the row, and the column would look empty.
    const bool selected = opt.state & QStyle::State_Selected;
    const QColor ink = opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    QColor frame = ink;
    frame.setAlphaF(0.45f);
    const QRectF box = QRectF(checkRect(option, index)).adjusted(1.5, 1.5, -1.5, -1.5);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(frame, 1.0));
    painter->setBrush(selected ? Qt::NoBrush : opt.palette.brush(QPalette::Base));
    painter->drawRoundedRect(box, 2.0, 2.0);
    if (check.value<Qt::CheckState>() == Qt::Checked) {
      QPen tick(ink, std::max(1.5, box.width() / 6.0));
      tick.setCapStyle(Qt::RoundCap);
      tick.setJoinStyle(Qt::RoundJoin);
      painter->setPen(tick);
      const QPointF points[] = {{box.left() + box.width() * 0.22, box.top() + box.height() * 0.52},
                                {box.left() + box.width() * 0.42, box.top() + box.height() * 0.74},
                                {box.left() + box.width() * 0.80, box.top() + box.height() * 0.28}};
      painter->drawPolyline(points, 3);
    }
    painter->restore();
    return;
  }
  if (index.column() == 0 && !index.parent().isValid()) {
    paintRankRow(painter, option, index);
    return;
  }
  QStyledItemDelegate::paint(painter, option, index);
}

void ProgramDelegate::paintRankRow(QPainter* painter, const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const
{
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QWidget* widget = option.widget;
  const QStyle* style = widget ? widget->style() : QApplication::style();
  opt.text.clear();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
  opt.text = index.data(ProgramModel::TitleRole).toString();
  const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);

  const bool selected = opt.state & QStyle::State_Selected;
  const QColor text = opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
  const QColor dim = selected ? text : opt.palette.color(QPalette::PlaceholderText);
  QFont bold = opt.font;
  bold.setBold(true);
  QFont regular = opt.font;
  regular.setBold(false);
  // Details start at one x for every rank (the widest title is the last rank's), so they align.
  const QAbstractItemModel* model = index.model();
  const QString widest =
      model->index(model->rowCount() - 1, 0).data(ProgramModel::TitleRole).toString();
  const QFontMetrics metrics(opt.font);
  const int gap = 2 * metrics.averageCharWidth();
  int x = textRect.left() + metrics.averageCharWidth() / 2;
  auto draw = [&](const QString& part, const QFont& font, const QColor& color) {
    if (x >= textRect.right())
      return;
    painter->setFont(font);
    painter->setPen(color);
    const QRect room(x, option.rect.top(), textRect.right() - x, option.rect.height());
    const QString shown = QFontMetrics(font).elidedText(part, Qt::ElideRight, room.width());
    painter->drawText(room, Qt::AlignVCenter | Qt::AlignLeft, shown);
    x += QFontMetrics(font).horizontalAdvance(shown) + gap;
  };
  painter->save();
  const int detailX = x + QFontMetrics(bold).horizontalAdvance(widest) + gap;
  draw(opt.text, bold, text);
  x = std::max(x, detailX);
  draw(index.data(ProgramModel::DetailRole).toString(), regular, dim);

  const int severity = index.data(ProgramModel::SeverityRole).toInt();
  const int problems = index.data(ProgramModel::ProblemCountRole).toInt();
  const int side = std::min(16, option.rect.height() - 4);
  if (severity >= 0 && problems > 0 && x + side < textRect.right()) {
    const auto level = static_cast<Severity>(severity);
    severityIcon(level).paint(painter, QRect(x, option.rect.center().y() - side / 2, side, side));
    x += side + metrics.averageCharWidth() / 2;
    draw(countText(problems, tr("problem"), tr("problems")), bold,
         selected                     ? text
         : level == Severity::Error   ? errorColor()
         : level == Severity::Warning ? warningColor()
                                      : text);
  }
  painter->restore();
}

bool ProgramDelegate::editorEvent(QEvent* event, QAbstractItemModel* model,
                                  const QStyleOptionViewItem& option, const QModelIndex& index)
{
  if (index.column() != ProgramModel::HasDepColumn || !(index.flags() & Qt::ItemIsUserCheckable) ||
      !(index.flags() & Qt::ItemIsEnabled))
    return QStyledItemDelegate::editorEvent(event, model, option, index);
  switch (event->type()) {
  case QEvent::MouseButtonPress:
  case QEvent::MouseButtonDblClick: {
    // Swallow presses on the box so a double-click toggles once, as Qt's own check boxes do.
    const auto* mouse = static_cast<QMouseEvent*>(event);
    return mouse->button() == Qt::LeftButton &&
           checkRect(option, index).contains(mouse->position().toPoint());
  }
  case QEvent::MouseButtonRelease: {
    const auto* mouse = static_cast<QMouseEvent*>(event);
    if (mouse->button() != Qt::LeftButton ||
        !checkRect(option, index).contains(mouse->position().toPoint()))
      return false;
    break;
  }
  case QEvent::KeyPress: {
    const int key = static_cast<QKeyEvent*>(event)->key();
    if (key != Qt::Key_Space && key != Qt::Key_Select)
      return false;
    break;
  }
  default:
    return false;
  }
  const bool checked = index.data(Qt::CheckStateRole).value<Qt::CheckState>() == Qt::Checked;
  return model->setData(index, checked ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole);
}

} // namespace cs::editor
