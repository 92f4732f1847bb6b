#include "runpanel.h"

#include "document/document.h"
#include "io/bytesize.h"
#include "model/topologypresets.h"
#include "replaywindow.h"
#include "runbackends.h"
#include "style/rankpalette.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

QLabel* noteLabel(QWidget* parent)
{
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette palette = label->palette();
  palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  label->setPalette(palette);
  return label;
}

int programRanks(const editor::Document* document)
{
  const std::optional<Program>& program = document->shownProgram();
  return program ? program->ngpus : 0;
}

} // namespace

RunPanel::RunPanel(editor::Document* document, LibraryProvider library, QWidget* parent)
    : QWidget(parent), m_document(document), m_library(std::move(library)), m_job(new RunJob(this))
{
  buildForm();
  connect(m_job, &RunJob::finished, this, &RunPanel::jobFinished);
  connect(m_document, &editor::Document::analysisChanged, this, [this] {
    refreshBackends();
    refreshTopology();
  });
  refreshBackends();
  refreshTopology();
}

RunPanel::~RunPanel() = default;

void RunPanel::buildForm()
{
  auto* form = new QFormLayout;
  m_form = form;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_backend = new QComboBox(this);
  m_backend->setObjectName(QStringLiteral("runBackend"));
  m_backendNote = noteLabel(this);
  form->addRow(tr("&Backend:"), m_backend);
  form->addRow(QString(), m_backendNote);
  auto* topologyLabel = new QLabel(tr("&Topology:"), this);
  m_preset = new QComboBox(this);
  m_preset->setObjectName(QStringLiteral("runPreset"));
  topologyLabel->setBuddy(m_preset);
  m_topologyNote = noteLabel(this);
  form->addRow(topologyLabel, m_preset);
  form->addRow(QString(), m_topologyNote);

  m_size = new QLineEdit(QStringLiteral("1M"), this);
  m_size->setObjectName(QStringLiteral("runSize"));
  m_size->setToolTip(tr("Bytes of the collective as nccl-tests counts them: 4096, 64K, 64M, 1G"));
  form->addRow(tr("&Size:"), m_size);
  m_dtype = new QComboBox(this);
  for (int i = 0; i < kDataTypeCount; ++i)
    m_dtype->addItem(QString::fromUtf8(dataTypeName(static_cast<DataType>(i))), i);
  form->addRow(tr("&Data type:"), m_dtype);
  m_op = new QComboBox(this);
  for (int i = 0; i < kReduceOpCount; ++i)
    m_op->addItem(QString::fromUtf8(reduceOpName(static_cast<ReduceOp>(i))), i);
  form->addRow(tr("&Reduction:"), m_op);
  m_mode = new QComboBox(this);
  m_mode->addItem(tr("as declared"), -1);
  m_mode->addItem(tr("in-place"), static_cast<int>(CallMode::InPlace));
  m_mode->addItem(tr("out-of-place"), static_cast<int>(CallMode::OutOfPlace));
  form->addRow(tr("&Mode:"), m_mode);
  m_iterations = new QSpinBox(this);
  m_iterations->setRange(1, 10000);
  form->addRow(tr("&Iterations:"), m_iterations);
  m_timeout = new QDoubleSpinBox(this);
  m_timeout->setRange(0.1, 3600);
  m_timeout->setValue(10);
  m_timeout->setSuffix(tr(" s"));
  m_timeout->setToolTip(tr("Seconds without progress after which the run counts as hung"));
  form->addRow(tr("Time&out:"), m_timeout);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buildButtons());
  layout->addStretch(1);
  connect(m_backend, &QComboBox::currentIndexChanged, this, [this] {
    refreshTopology();
    updateEnabled();
  });
  connect(m_size, &QLineEdit::textChanged, this, &RunPanel::updateEnabled);
}

QWidget* RunPanel::buildButtons()
{
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* buttons = new QHBoxLayout;
  m_runButton = new QPushButton(tr("Run"), box);
  m_runButton->setObjectName(QStringLiteral("runButton"));
  m_runButton->setDefault(true);
  m_cancelButton = new QPushButton(tr("Cancel"), box);
  m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
  buttons->addWidget(m_runButton);
  buttons->addWidget(m_cancelButton);
  buttons->addStretch(1);
  m_progress = new QProgressBar(box);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_progress->setTextVisible(false);
  m_progressLine = noteLabel(box);
  m_progressLine->setObjectName(QStringLiteral("runProgress"));
  m_progressLine->hide();
  // Progress is polled from the job's counters a few times a second, never signalled per event.
  m_progressTimer = new QTimer(this);
  m_progressTimer->setInterval(100);
  connect(m_progressTimer, &QTimer::timeout, this, &RunPanel::showProgress);
  m_verdict = new QLabel(tr("No run yet."), box);
  m_verdict->setObjectName(QStringLiteral("runVerdict"));
  m_verdict->setWordWrap(true);
  m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_stored = noteLabel(box);
  m_stored->setObjectName(QStringLiteral("runStored"));
  layout->addLayout(buttons);
  layout->addWidget(m_progress);
  layout->addWidget(m_progressLine);
  layout->addWidget(m_verdict);
  layout->addWidget(m_stored);
  connect(m_runButton, &QPushButton::clicked, this, &RunPanel::run);
  connect(m_cancelButton, &QPushButton::clicked, this, &RunPanel::cancel);
  return box;
}

void RunPanel::refreshBackends()
{
  const QString current = m_backend->currentData().toString();
  auto* model = qobject_cast<QStandardItemModel*>(m_backend->model());
  const QSignalBlocker blocker(m_backend);
  m_backend->clear();
  // Backends unavailable for the same reason share one line: "CUDA, NCCL: no GPU visible".
  QStringList reasons;
  QList<QStringList> labels;
  for (const RunBackendChoice& choice : runBackendChoices(programRanks(m_document))) {
    m_backend->addItem(choice.label, choice.id);
    QStandardItem* item = model->item(m_backend->count() - 1);
    if (choice.available)
      continue;
    item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    item->setToolTip(choice.reason);
    if (!reasons.contains(choice.reason)) {
      reasons << choice.reason;
      labels << QStringList();
    }
    labels[reasons.indexOf(choice.reason)] << choice.label;
  }
  QStringList lines;
  for (qsizetype i = 0; i < reasons.size(); ++i)
    lines << tr("%1: %2").arg(labels[i].join(QStringLiteral(", ")), reasons[i]);
  m_backendNote->setText(lines.join(QLatin1Char('\n')));
  m_form->setRowVisible(m_backendNote, !lines.isEmpty());
  if (current.isEmpty() || !selectBackend(current))
    selectBackend(QStringLiteral("cpu"));
  updateEnabled();
}

void RunPanel::refreshTopology()
{
  const bool simulate = m_backend->currentData().toString() == QLatin1String(kSimulateBackend);
  const std::optional<Topology>& topology = m_document->topology();
  m_form->setRowVisible(m_preset, simulate && !topology);
  m_form->setRowVisible(m_topologyNote, simulate);
  if (topology) {
    m_topologyNote->setText(tr("simulated on the document's topology (%1)")
                                .arg(QString::fromStdString(topology->name)));
    return;
  }
  m_topologyNote->setText(tr("the document has no topology: simulated on this preset"));
  const QString current = m_preset->currentText();
  const QString ranks = QString::number(std::max(programRanks(m_document), 2));
  m_preset->clear();
  for (const PresetInfo& preset : topologyPresets()) {
    QString name = QString::fromStdString(preset.name);
    if (name.endsWith(QLatin1String("-N")))
      name = name.chopped(1) + ranks;
    else if (name.contains(QLatin1Char('x')) && name.endsWith(QLatin1Char('C')))
      continue; // a grid needs both sides: pick it in the Library dock's topologies instead
    m_preset->addItem(name);
    m_preset->setItemData(m_preset->count() - 1, QString::fromStdString(preset.description),
                          Qt::ToolTipRole);
  }
  const int keep = m_preset->findText(current);
  m_preset->setCurrentIndex(keep >= 0 ? keep : m_preset->findText(QStringLiteral("ring-") + ranks));
}

void RunPanel::updateEnabled()
{
  const bool running = m_job->isRunning();
  const bool sizeOk = parseByteSize(m_size->text().trimmed().toStdString()).has_value();
  m_size->setStyleSheet(sizeOk ? QString()
                               : QStringLiteral("color: %1").arg(editor::errorColor().name()));
  const bool simulate = m_backend->currentData().toString() == QLatin1String(kSimulateBackend);
  for (QWidget* executorOnly :
       std::initializer_list<QWidget*>{m_dtype, m_op, m_mode, m_iterations, m_timeout})
    executorOnly->setEnabled(!running && !simulate);
  m_backend->setEnabled(!running);
  m_preset->setEnabled(!running);
  m_size->setEnabled(!running);
  m_runButton->setEnabled(!running && sizeOk && m_document->shownProgram().has_value());
  m_cancelButton->setEnabled(running);
}

bool RunPanel::selectBackend(const QString& id)
{
  const int index = m_backend->findData(id);
  if (index < 0 || !isBackendEnabled(id))
    return false;
  m_backend->setCurrentIndex(index);
  return true;
}

bool RunPanel::isBackendEnabled(const QString& id) const
{
  const int index = m_backend->findData(id);
  const auto* model = qobject_cast<const QStandardItemModel*>(m_backend->model());
  return index >= 0 && model->item(index)->isEnabled();
}

QString RunPanel::backendReason(const QString& id) const
{
  const int index = m_backend->findData(id);
  return index < 0 ? QString() : m_backend->itemData(index, Qt::ToolTipRole).toString();
}

QString RunPanel::verdictText() const
{
  return m_verdict->text();
}

QString RunPanel::storeText() const
{
  return m_stored->text();
}

QString RunPanel::progressText() const
{
  return m_progressLine->isVisibleTo(this) ? m_progressLine->text() : QString();
}

} // namespace cs::visualizer
