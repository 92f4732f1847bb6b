#include "newdocumentdialog.h"

#include "newdocuments.h"
#include "twolinedelegate.h"

#include "panels/gpuchoice.h"
#include "style/rankpalette.h"

#include "model/topologypresets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

constexpr int kKeyRole = Qt::UserRole;
constexpr int kSummaryRole = Qt::UserRole + 1;

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

NewDocumentDialog::NewDocumentDialog(QWidget* parent) : QDialog(parent)
{
  setWindowTitle(tr("New Document"));
  auto* layout = new QVBoxLayout(this);

  m_tabs = new QTabWidget(this);
  m_tabs->addTab(buildAlgorithmPage(), tr("From classic algorithm"));
  m_tabs->addTab(buildEmptyPage(), tr("Empty"));
  layout->addWidget(m_tabs, 1);

  // Ranks and the topology apply to both kinds of document.
  auto* shared = new QFormLayout;
  m_ranks = new QSpinBox(this);
  m_ranks->setRange(2, 512);
  m_ranks->setValue(4);
  m_ranks->setToolTip(tr("Number of GPUs (ranks) the algorithm runs on"));
  shared->addRow(tr("&Ranks:"), m_ranks);
  m_preset = new QComboBox(this);
  m_preset->setToolTip(tr("The topology drawn on the Topology tab; built for the rank count"));
  shared->addRow(tr("&Topology:"), m_preset);
  m_gpu = new QComboBox(this);
  fillGpuCombo(m_gpu);
  updateGpuToolTips(m_gpu, LowerOptions{}.dialect);
  showGpuChoice(m_gpu, std::nullopt);
  connect(m_gpu, &QComboBox::currentIndexChanged, this,
          [this] { m_gpu->setToolTip(m_gpu->currentData(Qt::ToolTipRole).toString()); });
  shared->addRow(tr("&GPU:"), m_gpu);
  layout->addLayout(shared);

  m_problem = new QLabel(this);
  m_problem->setWordWrap(true);
  QPalette problemPalette = m_problem->palette();
  problemPalette.setColor(QPalette::WindowText, errorColor());
  m_problem->setPalette(problemPalette);
  layout->addWidget(m_problem);

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(m_buttons);

  connect(m_tabs, &QTabWidget::currentChanged, this, &NewDocumentDialog::updateValidity);
  connect(m_ranks, &QSpinBox::valueChanged, this, [this] {
    updatePresets();
    updateValidity();
  });
  connect(m_channels, &QSpinBox::valueChanged, this, &NewDocumentDialog::updateValidity);
  connect(m_algorithms, &QListWidget::currentRowChanged, this, [this] {
    updateAlgorithmDetails();
    updateValidity();
  });

  m_algorithms->setCurrentRow(0);
  updatePresets();
  updateAlgorithmDetails();
  updateValidity();
  resize(760, 560);
}

QWidget* NewDocumentDialog::buildAlgorithmPage()
{
  auto* page = new QWidget(this);
  auto* layout = new QHBoxLayout(page);
  m_algorithms = new QListWidget(page);
  m_algorithms->setItemDelegate(new TwoLineDelegate(kSummaryRole, true, m_algorithms));
  m_algorithms->setMinimumWidth(280);
  // Long summaries are elided by the delegate; a horizontal scroll bar would only hide them.
  m_algorithms->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    auto* item = new QListWidgetItem(toQString(info.title), m_algorithms);
    item->setData(kKeyRole, toQString(info.key));
    item->setData(kSummaryRole, toQString(info.summary));
    item->setToolTip(toQString(info.summary));
  }
  layout->addWidget(m_algorithms, 2);

  auto* right = new QVBoxLayout;
  m_details = new QLabel(page);
  m_details->setWordWrap(true);
  m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_details->setTextFormat(Qt::RichText);
  m_details->setMinimumWidth(300);
  right->addWidget(m_details, 1);
  auto* form = new QFormLayout;
  m_channels = new QSpinBox(page);
  m_channels->setRange(1, 32);
  m_channels->setToolTip(tr("Parallel copies of the pattern, each on its own channel"));
  form->addRow(tr("&Channels:"), m_channels);
  right->addLayout(form);
  layout->addLayout(right, 3);
  return page;
}

QWidget* NewDocumentDialog::buildEmptyPage()
{
  auto* page = new QWidget(this);
  auto* form = new QFormLayout(page);
  m_collective = new QComboBox(page);
  for (const Collective collective : newDocumentCollectives())
    m_collective->addItem(toQString(collectiveTitle(collective)), static_cast<int>(collective));
  form->addRow(tr("C&ollective:"), m_collective);
  m_chunks = new QSpinBox(page);
  m_chunks->setRange(1, 64);
  m_chunks->setValue(4);
  m_chunks->setToolTip(tr("Chunks in each rank's input buffer; the output buffer's size follows "
                          "from the collective"));
  form->addRow(tr("Input c&hunks per rank:"), m_chunks);
  m_inPlace = new QCheckBox(tr("In place (the output is the input buffer)"), page);
  m_inPlace->setChecked(true);
  form->addRow(QString(), m_inPlace);
  m_preview = new QLabel(page);
  m_preview->setObjectName(QStringLiteral("bufferPreview"));
  m_preview->setWordWrap(true);
  form->addRow(tr("Buffers:"), m_preview);
  auto* hint = new QLabel(tr("An empty timeline: draw transfers by dragging a chunk onto another "
                             "rank's chunk."),
                          page);
  hint->setWordWrap(true);
  form->addRow(hint);
  connect(m_chunks, &QSpinBox::valueChanged, this, &NewDocumentDialog::updateValidity);
  connect(m_inPlace, &QCheckBox::toggled, this, &NewDocumentDialog::updateValidity);
  connect(m_collective, &QComboBox::currentIndexChanged, this, &NewDocumentDialog::updateValidity);
  return page;
}

NewDocumentDialog::Mode NewDocumentDialog::mode() const
{
  return m_tabs->currentIndex() == 0 ? Mode::Algorithm : Mode::Empty;
}

void NewDocumentDialog::setMode(Mode mode)
{
  m_tabs->setCurrentIndex(mode == Mode::Algorithm ? 0 : 1);
}

bool NewDocumentDialog::selectAlgorithm(const QString& key)
{
  for (int row = 0; row < m_algorithms->count(); ++row) {
    if (m_algorithms->item(row)->data(kKeyRole).toString() == key) {
      m_algorithms->setCurrentRow(row);
      return true;
    }
  }
  return false;
}

QString NewDocumentDialog::algorithmKey() const
{
  const QListWidgetItem* item = m_algorithms->currentItem();
  return item ? item->data(kKeyRole).toString() : QString();
}

void NewDocumentDialog::setRanks(int ranks)
{
  m_ranks->setValue(ranks);
}

void NewDocumentDialog::setInputChunks(int chunks)
{
  m_chunks->setValue(chunks);
}

void NewDocumentDialog::setInPlace(bool inPlace)
{
  m_inPlace->setChecked(inPlace);
}

bool NewDocumentDialog::selectCollective(Collective collective)
{
  const int index = m_collective->findData(static_cast<int>(collective));
  if (index < 0)
    return false;
  m_collective->setCurrentIndex(index);
  return true;
}

void NewDocumentDialog::setChannels(int channels)
{
  m_channels->setValue(channels);
}

bool NewDocumentDialog::selectPreset(const QString& name)
{
  const int index = m_preset->findData(name);
  if (index < 0)
    return false;
  m_preset->setCurrentIndex(index);
  return true;
}

QString NewDocumentDialog::presetName() const
{
  return m_preset->currentData().toString();
}

void NewDocumentDialog::updateAlgorithmDetails()
{
  const AlgorithmInfo* info = findAlgorithm(algorithmKey().toStdString());
  if (!info) {
    m_details->clear();
    return;
  }
  m_details->setText(QStringLiteral("<h3>%1</h3><p><i>%2</i></p><p>%3</p><p><b>%4</b> %5</p>")
                         .arg(toQString(info->title).toHtmlEscaped(),
                              toQString(collectiveTitle(info->collective)).toHtmlEscaped(),
                              toQString(info->explanation).toHtmlEscaped(),
                              tr("Cost:").toHtmlEscaped(),
                              toQString(info->costFormula).toHtmlEscaped()));
}

void NewDocumentDialog::updatePresets()
{
  // The first time (an empty combo) the ring is offered: it fits every rank count.
  const bool first = m_preset->count() == 0;
  const QString previous = first ? QStringLiteral("ring") : presetName();
  const QString previousKind = previous.section(QLatin1Char('-'), 0, 0);
  m_preset->clear();
  m_preset->addItem(tr("None"), QString());
  for (const QString& name : presetsForRanks(m_ranks->value()))
    m_preset->addItem(name, name);
  // Keep the kind of topology across a rank change (ring-4 becomes ring-8).
  int index = first ? -1 : m_preset->findData(previous);
  for (int i = 1; index < 0 && i < m_preset->count() && !previous.isEmpty(); ++i) {
    if (m_preset->itemData(i).toString().section(QLatin1Char('-'), 0, 0) == previousKind)
      index = i;
  }
  // A machine that does not come in this size gives way to the ring; "None" stays none.
  if (index < 0 && !previous.isEmpty())
    index = m_preset->findData(QStringLiteral("ring-%1").arg(m_ranks->value()));
  m_preset->setCurrentIndex(std::max(0, index));
}

EmptyDocumentOptions NewDocumentDialog::emptyOptions() const
{
  EmptyDocumentOptions options;
  options.collective = static_cast<Collective>(m_collective->currentData().toInt());
  options.ranks = m_ranks->value();
  options.inputChunks = m_chunks->value();
  options.inPlace = m_inPlace->isChecked();
  return options;
}

QString NewDocumentDialog::bufferPreview() const
{
  return m_preview->text();
}

QString NewDocumentDialog::problem() const
{
  if (mode() == Mode::Empty)
    return emptyDocumentProblem(emptyOptions());
  const AlgorithmInfo* info = findAlgorithm(algorithmKey().toStdString());
  if (!info)
    return tr("Choose an algorithm.");
  GeneratorOptions options;
  options.ranks = m_ranks->value();
  options.channels = m_channels->value();
  if (const std::optional<std::string> reason = info->unsupported(options))
    return tr("%1 does not exist for these settings: %2")
        .arg(toQString(info->title), QString::fromStdString(*reason));
  return {};
}

void NewDocumentDialog::updateValidity()
{
  const QString why = problem();
  m_preview->setText(describeEmptyDocument(emptyOptions()));
  m_problem->setText(why);
  m_problem->setVisible(!why.isEmpty());
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

void NewDocumentDialog::setGpu(std::optional<GpuModelId> gpu)
{
  showGpuChoice(m_gpu, gpu);
}

std::optional<GpuModelId> NewDocumentDialog::gpu() const
{
  return gpuChoice(m_gpu);
}

std::optional<DocumentState> NewDocumentDialog::state(QString* error) const
{
  std::optional<DocumentState> state;
  if (mode() == Mode::Empty) {
    if (const QString why = problem(); !why.isEmpty()) {
      if (error)
        *error = why;
      return std::nullopt;
    }
    state = emptyDocumentState(emptyOptions());
    if (!presetName().isEmpty())
      state->design.topology = makePresetTopology(presetName().toStdString());
  } else {
    GeneratorOptions options;
    options.ranks = m_ranks->value();
    options.channels = m_channels->value();
    state = algorithmDocumentState(algorithmKey(), options, presetName(), error);
  }
  if (state)
    state->lowering.gpu = state->design.gpu = gpu();
  return state;
}

} // namespace cs::editor
