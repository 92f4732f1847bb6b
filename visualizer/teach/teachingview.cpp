#include "teachingview.h"

#include "predictpanel.h"

#include "document/changeevent.h"
#include "document/document.h"
#include "follow/editorfollower.h"
#include "program/programview.h"
#include "timeline/timelineview.h"
#include "views/topologyplaybackview.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

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
  auto* predict = new PredictPanel(document, m_panel->tabs());
  m_panel->tabs()->addTab(predict, tr("Predict"));
  connect(m_panel, &TeachingPanel::positionChanged, predict, &PredictPanel::setStep);
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
  // The followers clear the marks they set; they and the view must go before the session.
  delete m_follower;
  delete m_secondFollower;
  delete m_topology;
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
  m_secondTimeline = timeline;
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
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
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
  text.title = tr("%1 on %2 ranks").arg(QString::fromStdString(schedule.name)).arg(schedule.ranks);
  text.start = tr("Every rank holds only its own input.");
  text.steps.resize(static_cast<std::size_t>(schedule.stepCount()));
  text.costHtml = tr("Simulated time: %1 µs").arg(m_run.session->endUs(), 0, 'f', 2);
  return text;
}

} // namespace cs::visualizer
