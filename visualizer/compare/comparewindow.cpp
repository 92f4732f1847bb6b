#include "comparewindow.h"

#include "compare/comparetables.h"
#include "compare/overlaygantt.h"
#include "exec/plan/executorcosts.h"
#include "replay/designedrun.h"
#include "session/replaysession.h"
#include "views/ganttlegend.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace cs::visualizer {

namespace {

QWidget* titled(const QString& title, QWidget* body)
{
  auto* box = new QGroupBox(title);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(body);
  return box;
}

} // namespace

CompareWindow::CompareWindow(std::unique_ptr<ReplaySession> first,
                             std::unique_ptr<ReplaySession> second, QWidget* parent)
    : QWidget(parent), m_first(std::move(first)), m_second(std::move(second)),
      m_header(new QLabel(this))
{
  m_header->setTextFormat(Qt::RichText);
  m_header->setContentsMargins(8, 6, 8, 4);
  m_layout = new QVBoxLayout(this);
  m_layout->setContentsMargins(4, 0, 4, 4);
  m_layout->addWidget(m_header);
  m_layout->addWidget(makeControls());
  rebuild(nullptr);
}

QWidget* CompareWindow::makeControls()
{
  m_controls = new QWidget(this);
  auto* row = new QHBoxLayout(m_controls);
  row->setContentsMargins(8, 0, 8, 4);
  auto* label = new QLabel(tr("Run &A as designed with calibration:"), m_controls);
  m_calibrations = new QComboBox(m_controls);
  m_calibrations->setToolTip(tr("Simulate the program with a calibration of its topology "
                                "(cstudio calibrate) and show that simulation as run A"));
  label->setBuddy(m_calibrations);
  m_calibrationNote = new QLabel(m_controls);
  m_calibrationNote->setStyleSheet(QStringLiteral("color: gray"));
  row->addWidget(label);
  row->addWidget(m_calibrations);
  row->addWidget(m_calibrationNote, 1);
  m_controls->hide(); // until offerCalibrations() has some
  connect(m_calibrations, &QComboBox::currentIndexChanged, this, [this](int index) {
    const QString error = chooseCalibration(index);
    m_calibrationNote->setText(error);
    if (!error.isEmpty()) {
      const QSignalBlocker blocker(m_calibrations);
      m_calibrations->setCurrentIndex(0);
    }
  });
  return m_controls;
}

void CompareWindow::offerCalibrations(std::vector<CompareCalibration> calibrations,
                                      Topology topology)
{
  m_offered = std::move(calibrations);
  m_topology = std::move(topology);
  const QSignalBlocker blocker(m_calibrations);
  m_calibrations->clear();
  m_calibrations->addItem(tr("None (run A as opened)"));
  for (const CompareCalibration& offered : m_offered)
    m_calibrations->addItem(offered.name);
  m_controls->setVisible(!m_offered.empty());
  if (m_designed)
    rebuild(nullptr);
}

QString CompareWindow::chooseCalibration(int index)
{
  if (index <= 0 || index > static_cast<int>(m_offered.size()) || !m_topology) {
    if (m_designed)
      rebuild(nullptr);
    return {};
  }
  const CompareCalibration& offered = m_offered[static_cast<std::size_t>(index) - 1];
  const Program& program = m_first->program();
  const Trace& measured = m_second->trace();
  const std::int64_t bytes = measured.bytes > 0 ? measured.bytes : m_first->trace().bytes;
  replay::DesignedRun designed =
      replay::simulateDesigned(program, *m_topology, &offered.calibration, bytes,
                               plan::calibratedExecutorCosts(&offered.calibration, program, bytes));
  if (!designed.trace)
    return tr("%1: %2").arg(offered.name, QString::fromStdString(designed.error));
  designed.trace->device = tr("simulated, calibration %1").arg(offered.name).toStdString();
  ReplayOpen opened = ReplaySession::open(program, std::move(*designed.trace), m_topology,
                                          measured.mode.value_or(declaredModes(program).front()));
  if (!opened.session)
    return tr("%1: the calibrated simulation does not replay").arg(offered.name);
  rebuild(std::move(opened.session));
  return {};
}

void CompareWindow::rebuild(std::unique_ptr<ReplaySession> designed)
{
  delete m_panes; // the views go before the session they show
  m_panes = nullptr;
  m_designed = std::move(designed);
  m_comparison = replay::compareRuns(runA()->index(), m_second->index());
  m_header->setText(headerText());
  // The tables get the larger part: the overlay needs two thin sub-rows per lane only.
  auto* panes = new QSplitter(Qt::Vertical, this);
  panes->addWidget(makeTables());
  panes->addWidget(makeOverlayPane());
  panes->setSizes({3, 2});
  m_layout->addWidget(panes, 1);
  m_panes = panes;
  setWindowTitle(tr("Compare — %1 vs %2").arg(runA()->description(), m_second->description()));
}

CompareWindow::~CompareWindow()
{
  // The views hold the sessions: they go before the sessions do.
  qDeleteAll(findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
}

QString CompareWindow::headerText() const
{
  const QString program = QString::fromStdString(runA()->program().name).toHtmlEscaped();
  QString text = program.isEmpty() ? QString() : tr("<b>%1</b>: ").arg(program);
  text += tr("<b>A</b> %1 · %2 µs &nbsp;vs&nbsp; <b>B</b> %3 · %4 µs")
              .arg(runA()->description().toHtmlEscaped())
              .arg(m_comparison.totalUs[0], 0, 'f', 2)
              .arg(m_second->description().toHtmlEscaped())
              .arg(m_comparison.totalUs[1], 0, 'f', 2);
  if (m_comparison.totalUs[0] > 0)
    text += tr(" · B takes %1× A's time")
                .arg(m_comparison.totalUs[1] / m_comparison.totalUs[0], 0, 'f', 2);
  text += tr("<br><span style=\"color:gray\">Δ is B − A; a share is a time over its run's total; "
             "rows that lost the most time first, the worst tinted.</span>");
  return text;
}

QWidget* CompareWindow::makeTables()
{
  m_steps = makeStepTable(m_comparison);
  m_links =
      makeLinkTable(m_comparison, m_second->topology() ? m_second->topology() : runA()->topology());
  auto* tables = new QSplitter(Qt::Horizontal);
  tables->addWidget(titled(tr("Steps (first start to last end of each step position)"), m_steps));
  auto* linkPane = new QWidget;
  auto* linkLayout = new QVBoxLayout(linkPane);
  linkLayout->setContentsMargins(0, 0, 0, 0);
  if (const QString missing = missingLinkTimes(); !missing.isEmpty()) {
    auto* note = new QLabel(missing);
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: gray"));
    linkLayout->addWidget(note);
  }
  linkLayout->addWidget(m_links, 1);
  tables->addWidget(titled(tr("Links (time with a message in flight)"), linkPane));
  return tables;
}

QString CompareWindow::missingLinkTimes() const
{
  for (const int run : {0, 1}) {
    const bool none =
        std::all_of(m_comparison.links.begin(), m_comparison.links.end(),
                    [run](const replay::LinkComparison& link) { return link.busy.us[run] == 0; });
    if (none && !m_comparison.links.empty())
      return tr("Run %1 has no link times: its trace routes no message over a link (open the "
                "program with a topology to route it).")
          .arg(run == 0 ? QLatin1Char('A') : QLatin1Char('B'));
  }
  return {};
}

QWidget* CompareWindow::makeOverlayPane()
{
  m_overlay = new OverlayGantt(runA(), m_second.get());
  auto* scroll = new QScrollArea;
  scroll->setWidget(m_overlay);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  std::set<OpType> ops;
  for (const ReplaySession* run : {runA(), m_second.get()}) {
    for (const TraceEvent& e : run->trace().events)
      ops.insert(e.op);
  }
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(scroll, 1);
  auto* legend = new GanttLegend({ops.begin(), ops.end()});
  legend->setRunKey(runA()->description(), m_second->description());
  layout->addWidget(legend);
  return titled(tr("Both runs on a normalised time axis (each lane: A on top, B below)"), pane);
}

} // namespace cs::visualizer
