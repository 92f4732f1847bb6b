#include "teachingview.h"

#include "breakitpanel.h"
#include "predictpanel.h"

#include "document/changeevent.h"
#include "document/document.h"
#include "follow/editorfollower.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "views/topologyplaybackview.h"

#include "teach/costnarration.h"
#include "teach/narration.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

QString fromUtf8(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// The engine's sentences start in lower case ("every rank r sends …") so that they read inside
/// other text; the panel shows them as sentences.
QString sentenceCase(const std::string& sentence)
{
  QString text = QString::fromStdString(sentence);
  if (!text.isEmpty())
    text[0] = text[0].toUpper();
  return text;
}

// Edits arrive in bursts (a drag fires many); simulate once they pause.
constexpr int kRebuildPauseMs = 400;

} // namespace

TeachingView::TeachingView(editor::Document* document, editor::TimelineView* timeline,
                           editor::ProgramView* program, QWidget* parent)
    : QWidget(parent), m_document(document), m_timeline(timeline), m_program(program)
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_topologyNote = new QLabel(this);
  m_topologyNote->setWordWrap(true);
  layout->addWidget(m_topologyNote);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setObjectName(QStringLiteral("teachingSplitter"));
  splitter->setChildrenCollapsible(false);
  m_panel = new TeachingPanel(splitter);
  splitter->addWidget(m_panel);
  m_predict = new PredictPanel(document, m_panel->tabs());
  m_panel->tabs()->addTab(m_predict, tr("Predict"));
  connect(m_panel, &TeachingPanel::positionChanged, m_predict, &PredictPanel::setStep);
  // While a round is open on the Predict tab, the timeline hides the answers.
  connect(m_predict, &PredictPanel::roundChanged, this, &TeachingView::updateConcealment);
  connect(m_panel->tabs(), &QTabWidget::currentChanged, this, &TeachingView::updateConcealment);
  if (timeline)
    connect(timeline, &editor::TimelineView::concealedCellClicked, m_predict,
            &PredictPanel::openPicker);
  m_breakIt = new BreakItPanel(m_document, m_panel->tabs());
  m_panel->tabs()->addTab(m_breakIt, tr("Break it"));
  layout->addWidget(splitter, 1);

  m_pause = new QTimer(this);
  m_pause->setSingleShot(true);
  m_pause->setInterval(kRebuildPauseMs);
  connect(m_pause, &QTimer::timeout, this, &TeachingView::rebuild);
  connect(m_document, &editor::Document::analysisChanged, m_pause,
          static_cast<void (QTimer::*)()>(&QTimer::start));
  rebuild();
}

TeachingView::~TeachingView()
{
  for (editor::TimelineView* timeline : {m_timeline.data(), m_secondTimeline.data()}) {
    if (timeline)
      timeline->setConcealedStep(std::nullopt);
  }
  // The followers clear the marks they set; they and the view must go before the session.
  delete m_follower;
  delete m_secondFollower;
  delete m_topology;
}

void TeachingView::updateConcealment()
{
  const bool predicting = m_panel->tabs()->currentWidget() == m_predict;
  const std::optional<int> step = predicting ? m_predict->openStep() : std::nullopt;
  for (editor::TimelineView* timeline : {m_timeline.data(), m_secondTimeline.data()}) {
    if (timeline)
      timeline->setConcealedStep(step);
  }
}

void TeachingView::rebuildNow()
{
  m_pause->stop();
  rebuild();
}

void TeachingView::setSideBySide(bool sideBySide)
{
  auto* splitter = findChild<QSplitter*>(QStringLiteral("teachingSplitter"));
  splitter->setOrientation(sideBySide ? Qt::Horizontal : Qt::Vertical);
}

void TeachingView::setSecondTimeline(editor::TimelineView* timeline)
{
  delete m_secondFollower;
  m_secondFollower = nullptr;
  if (m_secondTimeline && m_secondTimeline != timeline)
    m_secondTimeline->setConcealedStep(std::nullopt);
  if (m_secondTimeline && m_secondTimeline != timeline)
    disconnect(m_secondTimeline, nullptr, m_predict, nullptr);
  m_secondTimeline = timeline;
  if (timeline)
    connect(timeline, &editor::TimelineView::concealedCellClicked, m_predict,
            &PredictPanel::openPicker, Qt::UniqueConnection);
  updateConcealment();
  if (timeline && m_run.session)
    m_secondFollower =
        new EditorFollower(m_run.session.get(), m_document, {.timeline = timeline}, this);
}

void TeachingView::rebuild()
{
  delete m_follower;
  m_follower = nullptr;
  delete m_secondFollower;
  m_secondFollower = nullptr;
  delete m_topology;
  m_topology = nullptr;
  m_panel->setRun(nullptr, {});
  m_run = simulateForTeaching(*m_document);
  if (!m_run.session) {
    m_topologyNote->clear();
    m_panel->setUnavailable(m_run.error);
    return;
  }
  m_topologyNote->setText(tr("Simulated on %1.").arg(m_run.topologyName));
  auto* splitter = findChild<QSplitter*>(QStringLiteral("teachingSplitter"));
  m_topology = new TopologyPlaybackView(m_run.session.get(), splitter);
  splitter->insertWidget(0, m_topology);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  m_follower = new EditorFollower(m_run.session.get(), m_document,
                                  {.timeline = m_timeline, .program = m_program}, this);
  setSecondTimeline(m_secondTimeline);
  m_panel->setText(describe());
  m_panel->setRun(m_run.session.get(), m_run.stepEnds);
}

TeachingText TeachingView::describe() const
{
  TeachingText text;
  const Schedule& schedule = m_document->state().design.schedule;
  GeneratorOptions options;
  const AlgorithmInfo* origin = catalogueOrigin(schedule, options);
  const QString name = origin ? fromUtf8(origin->title) : QString::fromStdString(schedule.name);
  text.title = tr("%1 on %2 ranks").arg(name).arg(schedule.ranks);

  const Narration narration = narrateSchedule(schedule);
  text.start = sentenceCase(narration.goal);
  text.steps.resize(static_cast<std::size_t>(schedule.stepCount()));
  for (const NarrationStep& step : narration.steps) {
    if (step.step < 0 || step.step >= schedule.stepCount())
      continue;
    QStringList& sentences = text.steps[static_cast<std::size_t>(step.step)];
    for (const NarrationSentence& sentence : step.sentences)
      sentences << sentenceCase(sentence.text);
  }

  const CostNarration cost = narrateCost({.program = &m_run.session->program(),
                                          .topology = m_run.session->topology(),
                                          .algorithm = origin,
                                          .options = options});
  QStringList lines;
  for (const std::string& sentence : cost.sentences)
    lines << QString::fromStdString(sentence).toHtmlEscaped();
  text.costHtml = lines.join(QStringLiteral("<br><br>"));
  return text;
}

} // namespace cs::visualizer
