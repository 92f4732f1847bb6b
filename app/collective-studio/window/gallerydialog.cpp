#include "gallerydialog.h"

#include "gallerycard.h"
#include "galleryentries.h"
#include "gallerythumbnail.h"
#include "newdocuments.h"

#include "style/rankpalette.h"

#include "model/topologypresets.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

constexpr int kCurrentDrawingRole = Qt::UserRole + 10;
constexpr int kSuggestedRanksRole = Qt::UserRole + 11;

const AlgorithmInfo* infoOf(const QString& key)
{
  return findAlgorithm(key.toStdString());
}

QString gpusText(int gpus)
{
  return gpus == 1 ? GalleryDialog::tr("1 GPU") : GalleryDialog::tr("%1 GPUs").arg(gpus);
}

} // namespace

GalleryDialog::GalleryDialog(std::optional<Topology> drawing, QWidget* parent)
    : QDialog(parent), m_drawing(std::move(drawing)),
      m_drawingGpus(m_drawing ? m_drawing->rankCount() : 0)
{
  setWindowTitle(tr("Gallery of Collective Algorithms"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("Pick an algorithm to step through it, narrated, on the topology "
                              "of your choice."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  m_cards = new QListWidget(this);
  m_cards->setViewMode(QListView::IconMode);
  m_cards->setResizeMode(QListView::Adjust);
  m_cards->setMovement(QListView::Static);
  m_cards->setUniformItemSizes(true);
  m_cards->setSpacing(4);
  m_cards->setSelectionMode(QAbstractItemView::SingleSelection);
  m_cards->setItemDelegate(new GalleryCardDelegate(m_cards));
  layout->addWidget(m_cards, 1);

  m_details = new QLabel(this);
  m_details->setWordWrap(true);
  m_details->setTextFormat(Qt::RichText);
  m_details->setMinimumHeight(3 * fontMetrics().lineSpacing());
  m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(m_details);

  auto* form = new QFormLayout;
  m_ranks = new QSpinBox(this);
  m_ranks->setRange(2, 64);
  m_ranks->setToolTip(tr("Number of GPUs (ranks) the algorithm runs on"));
  form->addRow(tr("&Ranks:"), m_ranks);
  m_topology = new QComboBox(this);
  m_topology->setToolTip(tr("Where the algorithm's transfers travel: a preset built for the "
                            "ranks, or the topology drawn in the open document"));
  form->addRow(tr("&Topology:"), m_topology);
  layout->addLayout(form);

  m_problem = new QLabel(this);
  m_problem->setWordWrap(true);
  QPalette problemPalette = m_problem->palette();
  problemPalette.setColor(QPalette::WindowText, errorColor());
  m_problem->setPalette(problemPalette);
  layout->addWidget(m_problem);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  m_open = buttons->addButton(tr("&Open in Teaching Mode"), QDialogButtonBox::AcceptRole);
  m_open->setDefault(true);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);

  fillCards();
  connect(m_cards, &QListWidget::currentRowChanged, this, [this] {
    if (const QListWidgetItem* item = m_cards->currentItem())
      m_ranks->setValue(item->data(kSuggestedRanksRole).toInt());
    updateTopologies();
    updateDetails();
    updateValidity();
  });
  connect(m_cards, &QListWidget::itemDoubleClicked, this, [this] {
    if (m_open->isEnabled())
      accept();
  });
  connect(m_ranks, &QSpinBox::valueChanged, this, [this] {
    updateTopologies();
    updateValidity();
  });
  connect(m_topology, &QComboBox::currentIndexChanged, this, &GalleryDialog::updateValidity);
  m_cards->setCurrentRow(0);
  updateTopologies();
  updateDetails();
  updateValidity();
  resize(940, 720);
  QTimer::singleShot(0, this, &GalleryDialog::renderNextThumbnail);
}

void GalleryDialog::fillCards()
{
  for (const GalleryEntry& entry : galleryEntries()) {
    auto* item = new QListWidgetItem(entry.title, m_cards);
    item->setData(gallery_roles::kKey, entry.key);
    item->setData(gallery_roles::kDetail,
                  tr("%1 · ranks: %2").arg(entry.collective, entry.allowedRanks));
    item->setData(gallery_roles::kFormula, entry.costFormula);
    item->setData(kSuggestedRanksRole, entry.suggestedRanks);
    item->setToolTip(entry.summary);
  }
}

void GalleryDialog::renderNextThumbnail()
{
  if (m_nextThumbnail >= m_cards->count())
    return;
  QListWidgetItem* item = m_cards->item(m_nextThumbnail++);
  const QString key = item->data(gallery_roles::kKey).toString();
  const int ranks = item->data(kSuggestedRanksRole).toInt();
  if (const auto state = algorithmDocumentState(key, {.ranks = ranks}, QString()))
    item->setData(gallery_roles::kThumbnail,
                  timelineThumbnail(*state, GalleryCardDelegate::thumbnailSize()));
  // One card per event-loop turn keeps the dialog responsive while the pictures arrive.
  QTimer::singleShot(0, this, &GalleryDialog::renderNextThumbnail);
}

void GalleryDialog::renderAllThumbnails()
{
  while (m_nextThumbnail < m_cards->count()) {
    const int before = m_nextThumbnail;
    renderNextThumbnail();
    if (m_nextThumbnail == before)
      break;
  }
}

int GalleryDialog::thumbnailsRendered() const
{
  int rendered = 0;
  for (int row = 0; row < m_cards->count(); ++row)
    rendered +=
        m_cards->item(row)->data(gallery_roles::kThumbnail).value<QImage>().isNull() ? 0 : 1;
  return rendered;
}

bool GalleryDialog::selectAlgorithm(const QString& key)
{
  for (int row = 0; row < m_cards->count(); ++row) {
    if (m_cards->item(row)->data(gallery_roles::kKey).toString() == key) {
      m_cards->setCurrentRow(row);
      return true;
    }
  }
  return false;
}

void GalleryDialog::setRanks(int ranks)
{
  m_ranks->setValue(ranks);
}

bool GalleryDialog::selectTopology(const QString& text)
{
  const int index = m_topology->findText(text);
  if (index < 0)
    return false;
  m_topology->setCurrentIndex(index);
  return true;
}

GalleryChoice GalleryDialog::choice() const
{
  GalleryChoice chosen;
  if (const QListWidgetItem* item = m_cards->currentItem())
    chosen.key = item->data(gallery_roles::kKey).toString();
  chosen.ranks = m_ranks->value();
  chosen.currentDrawing = m_topology->currentData(kCurrentDrawingRole).toBool();
  if (!chosen.currentDrawing)
    chosen.preset = m_topology->currentText();
  return chosen;
}

QString GalleryDialog::problem() const
{
  const GalleryChoice chosen = choice();
  const AlgorithmInfo* info = infoOf(chosen.key);
  if (!info)
    return tr("Choose an algorithm.");
  if (const auto reason = info->unsupported({.ranks = chosen.ranks}))
    return QString::fromStdString(*reason);
  if (chosen.currentDrawing && chosen.ranks != m_drawingGpus)
    return tr("The current drawing has %1; choose that many ranks or a preset.")
        .arg(gpusText(m_drawingGpus));
  if (const std::optional<Topology> topology = chosenTopology())
    return topologyMisfit(chosen.key, chosen.ranks, *topology);
  return {};
}

std::optional<Topology> GalleryDialog::chosenTopology() const
{
  const GalleryChoice chosen = choice();
  if (chosen.currentDrawing)
    return m_drawing;
  return chosen.preset.isEmpty() ? std::nullopt : makePresetTopology(chosen.preset.toStdString());
}

void GalleryDialog::updateTopologies()
{
  const QString before = m_topology->currentText();
  m_topology->clear();
  if (m_drawingGpus > 0) {
    m_topology->addItem(tr("The current drawing (%1)").arg(gpusText(m_drawingGpus)));
    m_topology->setItemData(0, true, kCurrentDrawingRole);
  }
  const QStringList presets = presetsForRanks(m_ranks->value());
  m_topology->addItems(presets);
  // The drawing stays chosen once chosen; otherwise the first preset the algorithm can run on
  // (a ring does not route halving-doubling's or Bruck's long-distance exchanges).
  if (m_drawingGpus > 0 && m_topology->findText(before) == 0) {
    m_topology->setCurrentIndex(0);
    return;
  }
  const QString key = choice().key;
  const int offset = m_drawingGpus > 0 ? 1 : 0;
  int fitting = 0;
  for (int i = 0; i < presets.size(); ++i) {
    const std::optional<Topology> preset = makePresetTopology(presets[i].toStdString());
    if (preset && topologyMisfit(key, m_ranks->value(), *preset).isEmpty()) {
      fitting = i;
      break;
    }
  }
  m_topology->setCurrentIndex(offset + fitting);
}

void GalleryDialog::updateDetails()
{
  const AlgorithmInfo* info = infoOf(choice().key);
  if (!info) {
    m_details->clear();
    return;
  }
  const auto text = [](std::string_view view) {
    return QString::fromUtf8(view.data(), static_cast<qsizetype>(view.size())).toHtmlEscaped();
  };
  m_details->setText(tr("<b>%1</b> — %2<br>Cost: <code>%3</code>")
                         .arg(text(info->title), text(info->explanation), text(info->costFormula)));
}

void GalleryDialog::updateValidity()
{
  const QString why = problem();
  m_problem->setText(why);
  m_problem->setVisible(!why.isEmpty());
  m_open->setEnabled(why.isEmpty());
}

} // namespace cs::editor
