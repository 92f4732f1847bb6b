#include "sweepwindow.h"

#include "document/document.h"
#include "style/textformat.h"
#include "sweepchart.h"
#include "sweepresults.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

/// The most often the store line and the table's columns and scroll position follow arriving
/// points.
constexpr int kViewUpdateMs = 100;

/// "not stored: …" as a sentence of its own.
QString sentence(QString text)
{
  if (!text.isEmpty())
    text[0] = text[0].toUpper();
  return text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
}

} // namespace

SweepWindow::SweepWindow(editor::Document* document, LibraryProvider library, QWidget* parent)
    : QWidget(parent), m_document(document), m_library(std::move(library)),
      m_job(new SweepJob(this)), m_results(new SweepResults(this))
{
  setWindowTitle(tr("Benchmark Sweep"));
  auto* formScroll = new QScrollArea(this);
  formScroll->setWidgetResizable(true);
  formScroll->setFrameShape(QFrame::NoFrame);
  formScroll->setWidget(buildForm());
  formScroll->setMinimumWidth(300);
  formScroll->setMaximumWidth(380);

  m_chart = new SweepChart(m_results, this);
  m_table = new QTableView(this);
  m_table->setObjectName(QStringLiteral("sweepTable"));
  m_table->setModel(m_results);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  // Sized to the contents as points arrive (showProgress), and still resizable by hand.
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setAlternatingRowColors(true);
  fitColumns(); // to the headers until points arrive

  auto* tableBox = new QWidget(this);
  auto* tableLayout = new QVBoxLayout(tableBox);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->addWidget(buildResultsBar());
  tableLayout->addWidget(m_table, 1);

  auto* results = new QSplitter(Qt::Vertical, this);
  results->addWidget(m_chart);
  results->addWidget(tableBox);
  results->setStretchFactor(0, 3);
  results->setStretchFactor(1, 2);
  results->setSizes({600, 400}); // the plot first: the table scrolls
  results->setChildrenCollapsible(false);

  auto* layout = new QHBoxLayout(this);
  layout->addWidget(formScroll);
  layout->addWidget(results, 1);

  // Points can arrive faster than a relayout takes (the simulator's): the store line, the table's
  // scroll position and the chart follow at most every kViewUpdateMs.
  m_viewTimer = new QTimer(this);
  m_viewTimer->setSingleShot(true);
  m_viewTimer->setInterval(kViewUpdateMs);
  connect(m_viewTimer, &QTimer::timeout, this, &SweepWindow::showProgress);
  connect(m_job, &SweepJob::pointStarted, this, &SweepWindow::pointStarted);
  connect(m_job, &SweepJob::pointFinished, this, &SweepWindow::pointFinished);
  connect(m_job, &SweepJob::finished, this, &SweepWindow::jobFinished);
  connect(m_document, &editor::Document::analysisChanged, this, &SweepWindow::refreshBackends);
  refreshBackends();
}

SweepWindow::~SweepWindow() = default;

QWidget* SweepWindow::buildResultsBar()
{
  auto* bar = new QWidget(this);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Points (every sweep run in this window):"), bar));
  layout->addStretch(1);
  m_clearButton = new QPushButton(tr("Clear"), bar);
  m_clearButton->setToolTip(tr("Remove every series and point from the plot and the table (the "
                               "stored runs stay in the library)"));
  m_csvButton = new QPushButton(tr("Export CSV…"), bar);
  m_pngButton = new QPushButton(tr("Export PNG…"), bar);
  layout->addWidget(m_clearButton);
  layout->addWidget(m_csvButton);
  layout->addWidget(m_pngButton);
  connect(m_clearButton, &QPushButton::clicked, m_results, &SweepResults::clear);
  connect(m_csvButton, &QPushButton::clicked, this, &SweepWindow::exportCsvFromDialog);
  connect(m_pngButton, &QPushButton::clicked, this, &SweepWindow::exportPngFromDialog);
  return bar;
}

bool SweepWindow::setBackendChecked(const QString& id, bool checked)
{
  const auto found = m_backends.find(id);
  if (found == m_backends.end() || !isBackendEnabled(id))
    return false;
  found->second->setChecked(checked);
  return true;
}

bool SweepWindow::isBackendEnabled(const QString& id) const
{
  return m_backends.count(id) > 0 && m_unavailable.count(id) == 0;
}

QString SweepWindow::backendReason(const QString& id) const
{
  const auto found = m_unavailable.find(id);
  return found == m_unavailable.end() ? QString() : found->second;
}

bool SweepWindow::setSizeRange(std::int64_t minBytes, std::int64_t maxBytes)
{
  const int first = m_minSize->findData(QVariant::fromValue(minBytes));
  const int last = m_maxSize->findData(QVariant::fromValue(maxBytes));
  if (first < 0 || last < 0)
    return false;
  m_minSize->setCurrentIndex(first);
  m_maxSize->setCurrentIndex(last);
  return true;
}

bool SweepWindow::start()
{
  if (m_job->isRunning())
    return false;
  QString error;
  std::optional<SweepRequest> request = makeRequest(&error);
  if (!request) {
    m_status->setText(sentence(error));
    return false;
  }
  const editor::DocumentOrigin& origin = m_document->origin();
  m_running = Running{*request, {origin.libraryName, origin.libraryVersion}, 0, {},
                      {},       QDateTime::currentMSecsSinceEpoch()};
  const auto total = static_cast<int>(sweepPlan(*request).size());
  m_results->beginSweep();
  if (!m_job->start(std::move(*request))) {
    m_running.reset();
    return false;
  }
  m_progress->setRange(0, total);
  m_progress->setValue(0);
  m_status->setText(tr("Sweeping %1…").arg(editor::countText(total, tr("point"), tr("points"))));
  m_stored->clear();
  updateEnabled();
  return true;
}

void SweepWindow::cancel()
{
  if (!m_job->isRunning())
    return;
  m_job->cancel();
  m_status->setText(tr("Cancelling…"));
}

void SweepWindow::pointStarted(int index, int total, const QString& label)
{
  m_progress->setValue(index);
  m_progress->setFormat(tr("%1 — point %2 of %3").arg(label).arg(index + 1).arg(total));
}

void SweepWindow::pointFinished(const SweepRun& run)
{
  if (!m_running)
    return;
  for (const SweepPoint& point : sweepPoints(m_running->request, run.request, run.outcome))
    m_results->addPoint(point);
  const StoredRun stored =
      keepRun(m_library ? m_library() : nullptr, m_running->target, run.request, run.outcome);
  if (stored.stored) {
    ++m_running->stored;
    m_running->storedUnder = stored.versionLabel;
  } else if (m_running->notStored.isEmpty()) {
    m_running->notStored = stored.message;
  }
  m_progress->setValue(run.index + 1);
  if (!m_viewTimer->isActive())
    m_viewTimer->start();
}

void SweepWindow::showProgress()
{
  m_viewTimer->stop();
  if (!m_running)
    return;
  m_stored->setText(m_running->stored > 0
                        ? tr("Stored %1 under %2 in the library.")
                              .arg(editor::countText(m_running->stored, tr("run"), tr("runs")),
                                   m_running->storedUnder)
                        : sentence(m_running->notStored));
  fitColumns();
  m_table->scrollToBottom();
}

void SweepWindow::fitColumns()
{
  for (int column = 0; column < SweepResults::Verdict; ++column) // the verdict takes the rest
    m_table->resizeColumnToContents(column);
}

void SweepWindow::jobFinished(bool cancelled, int done, int total)
{
  const qint64 ms = QDateTime::currentMSecsSinceEpoch() - m_running->startedMs;
  const QString took =
      ms < 1000 ? tr("%1 ms").arg(ms) : tr("%1 s").arg(static_cast<double>(ms) / 1000, 0, 'f', 1);
  showProgress();
  m_progress->setValue(done);
  m_progress->setFormat(cancelled ? tr("cancelled") : tr("done"));
  m_status->setText(cancelled
                        ? tr("Cancelled after %1 of %2 points (%3).").arg(done).arg(total).arg(took)
                        : tr("Done: %1 points in %2.").arg(total).arg(took));
  if (done == 0)
    m_stored->setText(tr("Nothing stored."));
  else if (m_running->stored > 0 && !m_running->notStored.isEmpty())
    m_stored->setText(m_stored->text() + QLatin1Char(' ') + sentence(m_running->notStored));
  m_running.reset();
  m_chart->refresh(); // the last points, without waiting for the coalesced update
  updateEnabled();
  emit sweepFinished(cancelled);
}

QString SweepWindow::statusText() const
{
  return m_status->text();
}

QString SweepWindow::storeText() const
{
  return m_stored->text();
}

QString SweepWindow::exportCsv(const QString& path) const
{
  return m_results->writeCsv(path);
}

QString SweepWindow::exportPng(const QString& path) const
{
  return m_chart->writePng(path);
}

void SweepWindow::exportCsvFromDialog()
{
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Sweep as CSV"),
                                                    seriesLabel() + QStringLiteral("-sweep.csv"),
                                                    tr("CSV files (*.csv)"));
  if (path.isEmpty())
    return;
  if (const QString error = exportCsv(path); !error.isEmpty())
    QMessageBox::warning(this, tr("Export CSV"), error);
}

void SweepWindow::exportPngFromDialog()
{
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Sweep Chart as PNG"),
                                                    seriesLabel() + QStringLiteral("-sweep.png"),
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty())
    return;
  if (const QString error = exportPng(path); !error.isEmpty())
    QMessageBox::warning(this, tr("Export PNG"), error);
}

} // namespace cs::visualizer
