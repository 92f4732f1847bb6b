#include "topologyoverlays.h"

#include "canvasstyle.h"
#include "topologyedits.h"
#include "topologyicons.h"

#include "style/rankpalette.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

QColor blend(const QColor& over, const QColor& under, double amount)
{
  return QColor::fromRgbF(
      static_cast<float>(over.redF() * amount + under.redF() * (1 - amount)),
      static_cast<float>(over.greenF() * amount + under.greenF() * (1 - amount)),
      static_cast<float>(over.blueF() * amount + under.blueF() * (1 - amount)));
}

} // namespace

EmptyTopologyHint::EmptyTopologyHint(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)),
      m_presets(new QPushButton(tr("Pick a preset"), this)), m_addGpus(new QPushButton(this))
{
  setObjectName(QStringLiteral("topologyEmptyHint"));
  auto* title = new QLabel(tr("No topology yet"), this);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.45);
  titleFont.setBold(true);
  title->setFont(titleFont);
  auto* body = new QLabel(tr("Pick a preset or add GPUs with the tools above.\nDrag from one node "
                             "to another with the Link tool to connect them."),
                          this);
  body->setAlignment(Qt::AlignCenter);
  m_presets->setIcon(topologyIcon(TopologyIcon::Preset, palette()));
  m_addGpus->setIcon(topologyIcon(TopologyIcon::Gpu, palette()));
  m_addGpus->setDefault(true);
  connect(m_addGpus, &QPushButton::clicked, this, &EmptyTopologyHint::addGpusClicked);

  auto* buttons = new QHBoxLayout;
  buttons->setSpacing(12);
  buttons->addStretch();
  buttons->addWidget(m_presets);
  buttons->addWidget(m_addGpus);
  buttons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(36, 28, 36, 28);
  layout->setSpacing(10);
  layout->addWidget(m_icon, 0, Qt::AlignHCenter);
  layout->addWidget(title, 0, Qt::AlignHCenter);
  layout->addWidget(body, 0, Qt::AlignHCenter);
  layout->addSpacing(6);
  layout->addLayout(buttons);
  m_icon->setPixmap(topologyPixmap(TopologyIcon::AutoLayout, palette(), 56, devicePixelRatioF()));
  setRankCount(4);
}

void EmptyTopologyHint::setPresetMenu(QMenu* menu)
{
  m_presets->setMenu(menu);
}

void EmptyTopologyHint::setRankCount(int ranks)
{
  m_addGpus->setText(ranks == 1 ? tr("Add 1 GPU") : tr("Add %1 GPUs").arg(ranks));
  m_addGpus->setToolTip(tr("One GPU for each rank of the algorithm, in a circle"));
}

void EmptyTopologyHint::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QColor window = palette().color(QPalette::Window);
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.setBrush(isDark(palette()) ? window.lighter(115) : window);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 12, 12);
}

void EmptyTopologyHint::changeEvent(QEvent* event)
{
  if (event->type() == QEvent::PaletteChange) {
    m_icon->setPixmap(topologyPixmap(TopologyIcon::AutoLayout, palette(), 56, devicePixelRatioF()));
    m_presets->setIcon(topologyIcon(TopologyIcon::Preset, palette()));
  }
  QFrame::changeEvent(event);
}

RankWarningBar::RankWarningBar(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_add(new QToolButton(this))
{
  setObjectName(QStringLiteral("topologyRankWarning"));
  m_icon->setPixmap(topologyPixmap(TopologyIcon::Warning, palette(), 16, devicePixelRatioF()));
  m_text->setTextFormat(Qt::PlainText);
  m_add->setText(tr("Add GPUs for them"));
  m_add->setIcon(topologyIcon(TopologyIcon::Gpu, palette()));
  m_add->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_add->setAutoRaise(true);
  connect(m_add, &QToolButton::clicked, this, &RankWarningBar::addGpusClicked);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 3, 6, 4);
  layout->setSpacing(8);
  layout->addWidget(m_icon);
  layout->addWidget(m_text, 1);
  layout->addWidget(m_add);
  hide();
}

void RankWarningBar::setMissingRanks(const std::vector<int>& missing)
{
  if (missing.empty()) {
    m_text->clear();
    hide();
    return;
  }
  const QString list = QString::fromStdString(formatRankList(missing));
  m_text->setText(missing.size() == 1
                      ? tr("Rank %1 of the algorithm has no GPU in this topology.").arg(list)
                      : tr("Ranks %1 of the algorithm have no GPU in this topology.").arg(list));
  m_add->setText(missing.size() == 1 ? tr("Add a GPU for it") : tr("Add GPUs for them"));
  show();
}

QString RankWarningBar::text() const
{
  return m_text->text();
}

void RankWarningBar::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  const QColor base = palette().color(QPalette::Window);
  painter.fillRect(rect(), blend(warningColor(), base, isDark(palette()) ? 0.28 : 0.18));
  painter.fillRect(QRect(0, height() - 1, width(), 1), warningColor());
}

void RankWarningBar::changeEvent(QEvent* event)
{
  if (event->type() == QEvent::PaletteChange)
    m_add->setIcon(topologyIcon(TopologyIcon::Gpu, palette()));
  QFrame::changeEvent(event);
}

LinkLegend::LinkLegend(QWidget* parent) : QWidget(parent)
{
  setAttribute(Qt::WA_TransparentForMouseEvents);
  hide();
}

void LinkLegend::setKinds(const std::vector<LinkKind>& kinds)
{
  m_kinds = kinds;
  setVisible(!kinds.empty());
  resize(sizeHint());
  update();
}

QSize LinkLegend::sizeHint() const
{
  const QFontMetrics metrics(font());
  int width = 20 + metrics.horizontalAdvance(tr("line width: bandwidth"));
  for (const LinkKind kind : m_kinds)
    width = std::max(width, 52 + metrics.horizontalAdvance(linkKindLabel(kind)));
  const int rows = static_cast<int>(m_kinds.size()) + 1;
  return {width, rows * (metrics.height() + 3) + 12};
}

void LinkLegend::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const CanvasColors colors = canvasColors(palette());
  QColor panel = palette().color(QPalette::Window);
  panel.setAlpha(225);
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.setBrush(panel);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 7, 7);
  const QFontMetrics metrics(font());
  const int rowHeight = metrics.height() + 3;
  int y = 6;
  for (const LinkKind kind : m_kinds) {
    const double middle = y + rowHeight / 2.0;
    painter.setPen(QPen(linkKindColor(kind), 4, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(QPointF(12, middle), QPointF(34, middle));
    painter.setPen(colors.text);
    painter.drawText(QRect(42, y, width() - 46, rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                     linkKindLabel(kind));
    y += rowHeight;
  }
  painter.setPen(colors.mutedText);
  painter.drawText(QRect(10, y, width() - 14, rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   tr("line width: bandwidth"));
}

} // namespace cs::editor
