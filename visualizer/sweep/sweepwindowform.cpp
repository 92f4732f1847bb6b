// SweepWindow: the settings form — backends, sizes, data type, reduction, mode, iterations,
// warm-up, timeout — and the request it describes (see sweepwindow.h).

#include "sweepwindow.h"

#include "document/document.h"
#include "io/bytesize.h"
#include "model/topologypresets.h"
#include "run/runbackends.h"
#include "style/textformat.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

/// Sizes the combos offer: 8 B (nccl-tests' default -b) to 1 GiB, powers of two.
constexpr int kMinPower = 3;
constexpr int kMaxPower = 30;

QLabel* greyLabel(const QString& text, QWidget* parent)
{
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  QPalette palette = label->palette();
  palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  label->setPalette(palette);
  return label;
}

QComboBox* sizeCombo(int selectedPower, QWidget* parent)
{
  auto* combo = new QComboBox(parent);
  for (int power = kMinPower; power <= kMaxPower; ++power)
    combo->addItem(QString::fromStdString(formatByteSize(std::int64_t{1} << power)),
                   QVariant::fromValue(std::int64_t{1} << power));
  combo->setCurrentIndex(selectedPower - kMinPower);
  return combo;
}

int programRanks(const editor::Document* document)
{
  const std::optional<Program>& program = document->shownProgram();
  return program ? program->ngpus : 0;
}

} // namespace

QWidget* SweepWindow::buildForm()
{
  auto* panel = new QWidget(this);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(buildBackends());

  auto* call = new QGroupBox(tr("Sizes and call"), panel);
  auto* form = new QFormLayout(call);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_minSize = sizeCombo(10, call); // 1 KiB
  m_maxSize = sizeCombo(24, call); // 16 MiB
  m_minSize->setObjectName(QStringLiteral("sweepMinSize"));
  m_maxSize->setObjectName(QStringLiteral("sweepMaxSize"));
  auto* sizes = new QHBoxLayout;
  sizes->addWidget(m_minSize, 1);
  sizes->addWidget(new QLabel(tr("to"), call));
  sizes->addWidget(m_maxSize, 1);
  auto* sizesLabel = new QLabel(tr("&Sizes:"), call);
  sizesLabel->setBuddy(m_minSize);
  form->addRow(sizesLabel, sizes);
  m_planNote = greyLabel(QString(), call);
  form->addRow(QString(), m_planNote);
  m_dtype = new QComboBox(call);
  for (int i = 0; i < kDataTypeCount; ++i)
    m_dtype->addItem(QString::fromUtf8(dataTypeName(static_cast<DataType>(i))), i);
  form->addRow(tr("&Data type:"), m_dtype);
  m_op = new QComboBox(call);
  for (int i = 0; i < kReduceOpCount; ++i)
    m_op->addItem(QString::fromUtf8(reduceOpName(static_cast<ReduceOp>(i))), i);
  form->addRow(tr("&Reduction:"), m_op);
  m_mode = new QComboBox(call);
  m_mode->addItem(tr("as declared"), -1);
  m_mode->addItem(tr("in-place"), static_cast<int>(CallMode::InPlace));
  m_mode->addItem(tr("out-of-place"), static_cast<int>(CallMode::OutOfPlace));
  form->addRow(tr("&Mode:"), m_mode);
  m_iterations = new QSpinBox(call);
  m_iterations->setRange(1, 10000);
  m_iterations->setValue(5);
  m_iterations->setToolTip(tr("Timed iterations per point; the time is their mean"));
  form->addRow(tr("&Iterations:"), m_iterations);
  m_warmup = new QSpinBox(call);
  m_warmup->setRange(0, 1000);
  m_warmup->setValue(1);
  m_warmup->setToolTip(tr("Untimed runs before the timed ones"));
  form->addRow(tr("&Warm-up:"), m_warmup);
  m_timeout = new QDoubleSpinBox(call);
  m_timeout->setRange(0.1, 3600);
  m_timeout->setValue(10);
  m_timeout->setSuffix(tr(" s"));
  m_timeout->setToolTip(tr("Seconds without progress after which a point counts as hung"));
  form->addRow(tr("Time&out:"), m_timeout);
  layout->addWidget(call);
  layout->addWidget(buildRunControls());
  layout->addStretch(1);
  for (QComboBox* size : {m_minSize, m_maxSize})
    connect(size, &QComboBox::currentIndexChanged, this, &SweepWindow::updatePlanNote);
  return panel;
}

QWidget* SweepWindow::buildBackends()
{
  auto* box = new QGroupBox(tr("Backends"), this);
  m_backendGrid = new QGridLayout(box);
  m_backendGrid->setColumnStretch(1, 1);
  m_topologyNote = greyLabel(QString(), box);
  return box;
}

QWidget* SweepWindow::buildRunControls()
{
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* buttons = new QHBoxLayout;
  m_startButton = new QPushButton(tr("Start Sweep"), box);
  m_startButton->setObjectName(QStringLiteral("sweepStart"));
  m_startButton->setDefault(true);
  m_cancelButton = new QPushButton(tr("Cancel"), box);
  m_cancelButton->setObjectName(QStringLiteral("sweepCancel"));
  buttons->addWidget(m_startButton);
  buttons->addWidget(m_cancelButton);
  buttons->addStretch(1);
  m_progress = new QProgressBar(box);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_progress->setFormat(tr("idle"));
  m_status = new QLabel(tr("No sweep yet."), box);
  m_status->setObjectName(QStringLiteral("sweepStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_stored = greyLabel(QString(), box);
  m_stored->setObjectName(QStringLiteral("sweepStored"));
  m_stored->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addLayout(buttons);
  layout->addWidget(m_progress);
  layout->addWidget(m_status);
  layout->addWidget(m_stored);
  connect(m_startButton, &QPushButton::clicked, this, &SweepWindow::start);
  connect(m_cancelButton, &QPushButton::clicked, this, &SweepWindow::cancel);
  return box;
}

void SweepWindow::refreshBackends()
{
  std::map<QString, bool> checked;
  for (const auto& [id, box] : m_backends)
    checked[id] = box->isChecked();
  m_backends.clear();
  m_unavailable.clear();
  while (QLayoutItem* item = m_backendGrid->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  int row = 0;
  for (const RunBackendChoice& choice : runBackendChoices(programRanks(m_document))) {
    auto* box = new QCheckBox(
        choice.id == QLatin1String(kSimulateBackend) ? tr("Simulated prediction") : choice.label,
        m_backendGrid->parentWidget());
    box->setObjectName(QStringLiteral("sweepBackend_") + choice.id);
    box->setEnabled(choice.available);
    box->setToolTip(choice.reason);
    const bool wasChecked = checked.count(choice.id) > 0 && checked[choice.id];
    const bool byDefault = checked.empty() && (choice.id == QLatin1String(kSimulateBackend) ||
                                               choice.id == QLatin1String("cpu"));
    box->setChecked(choice.available && (wasChecked || byDefault));
    m_backendGrid->addWidget(box, row, 0);
    if (!choice.available) {
      m_backendGrid->addWidget(greyLabel(choice.reason, box->parentWidget()), row, 1);
      m_unavailable[choice.id] = choice.reason;
    }
    connect(box, &QCheckBox::toggled, this, &SweepWindow::updatePlanNote);
    m_backends[choice.id] = box;
    ++row;
  }
  m_topologyNote = greyLabel(QString(), m_backendGrid->parentWidget());
  m_backendGrid->addWidget(m_topologyNote, row, 0, 1, 2);
  const std::optional<Topology>& topology = m_document->topology();
  m_topologyNote->setText(topology ? tr("Predicted on the document's topology (%1).")
                                         .arg(QString::fromStdString(topology->name))
                                   : tr("The document has no topology: predicted on ring-%1.")
                                         .arg(std::max(programRanks(m_document), 2)));
  updatePlanNote();
}

void SweepWindow::updatePlanNote()
{
  const std::int64_t minBytes = m_minSize->currentData().toLongLong();
  const std::int64_t maxBytes = m_maxSize->currentData().toLongLong();
  const auto sizes = static_cast<int>(sweepSizes(minBytes, maxBytes).size());
  int backends = 0;
  for (const auto& entry : m_backends)
    backends += entry.second->isChecked() ? 1 : 0;
  if (sizes == 0)
    m_planNote->setText(tr("The first size must not exceed the last."));
  else
    m_planNote->setText(tr("%1 × %2 = %3")
                            .arg(editor::countText(sizes, tr("size"), tr("sizes")),
                                 editor::countText(backends, tr("backend"), tr("backends")),
                                 editor::countText(sizes * backends, tr("point"), tr("points"))));
  updateEnabled();
}

void SweepWindow::updateEnabled()
{
  const bool running = m_job->isRunning();
  for (QWidget* field : std::initializer_list<QWidget*>{m_minSize, m_maxSize, m_dtype, m_op, m_mode,
                                                        m_iterations, m_warmup, m_timeout})
    field->setEnabled(!running);
  for (const auto& [id, box] : m_backends)
    box->setEnabled(!running && isBackendEnabled(id));
  QString why;
  m_startButton->setEnabled(!running && makeRequest(&why).has_value());
  m_startButton->setToolTip(why);
  m_cancelButton->setEnabled(running);
  m_clearButton->setEnabled(!running);
}

QString SweepWindow::seriesLabel() const
{
  const editor::DocumentOrigin& origin = m_document->origin();
  if (!origin.libraryName.isEmpty())
    return origin.libraryVersion > 0
               ? QStringLiteral("%1 v%2").arg(origin.libraryName).arg(origin.libraryVersion)
               : origin.libraryName;
  return QFileInfo(m_document->displayName()).completeBaseName();
}

std::optional<SweepRequest> SweepWindow::makeRequest(QString* error) const
{
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program) {
    *error = tr("nothing to run: the document has no valid program");
    return std::nullopt;
  }
  SweepRequest request;
  request.label = seriesLabel();
  request.program = *program;
  for (const auto& [id, box] : m_backends)
    if (box->isChecked() && isBackendEnabled(id))
      request.backends << id;
  // Run order: the quick prediction first, then the executors as the registry lists them.
  QStringList ordered;
  for (const RunBackendChoice& choice : runBackendChoices(program->ngpus))
    if (request.backends.contains(choice.id))
      ordered << choice.id;
  request.backends = ordered;
  if (request.backends.isEmpty()) {
    *error = tr("choose at least one backend");
    return std::nullopt;
  }
  request.topology = m_document->topology();
  if (!request.topology && request.backends.contains(QLatin1String(kSimulateBackend)))
    request.topology = makePresetTopology("ring-" + std::to_string(std::max(program->ngpus, 2)));
  request.minBytes = m_minSize->currentData().toLongLong();
  request.maxBytes = m_maxSize->currentData().toLongLong();
  if (sweepSizes(request.minBytes, request.maxBytes).empty()) {
    *error = tr("the first size must not exceed the last");
    return std::nullopt;
  }
  request.options.dtype = static_cast<DataType>(m_dtype->currentData().toInt());
  request.options.op = static_cast<ReduceOp>(m_op->currentData().toInt());
  if (const int mode = m_mode->currentData().toInt(); mode >= 0)
    request.options.mode = static_cast<CallMode>(mode);
  request.options.iterations = m_iterations->value();
  request.options.warmup = m_warmup->value();
  request.options.timeoutSeconds = m_timeout->value();
  return request;
}

} // namespace cs::visualizer
