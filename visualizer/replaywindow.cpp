#include "replaywindow.h"

#include "playback/breakpointlist.h"
#include "playback/playbackbar.h"
#include "playback/playbackclock.h"
#include "session/replaysession.h"
#include "views/bufferview.h"
#include "views/ganttblockedlist.h"
#include "views/ganttlegend.h"
#include "views/ganttview.h"
#include "views/linkchart.h"
#include "views/topologyplaybackview.h"

#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <set>

namespace cs::visualizer {

namespace {

std::vector<OpType> opsOf(const Trace& trace)
{
  std::set<OpType> ops;
  for (const TraceEvent& event : trace.events)
    ops.insert(event.op);
  return {ops.begin(), ops.end()};
}

} // namespace

ReplayWindow::ReplayWindow(std::unique_ptr<ReplaySession> session, QWidget* parent)
    : QWidget(parent), m_session(std::move(session)),
      m_clock(new PlaybackClock(m_session.get(), this)), m_header(new QLabel(this)),
      m_top(new QSplitter(Qt::Horizontal)), m_views(new QTabWidget), m_side(new QTabWidget),
      m_gantt(new GanttView(m_session.get())), m_buffers(new BufferView(m_session.get())),
      m_topology(new TopologyPlaybackView(m_session.get())),
      m_links(new LinkChart(m_session.get())), m_bar(new PlaybackBar(m_clock, this))
{
  m_header->setText(headerText());
  m_header->setTextFormat(Qt::RichText);
  m_header->setContentsMargins(8, 6, 8, 2);

  auto* bufferScroll = new QScrollArea;
  bufferScroll->setWidget(m_buffers);
  bufferScroll->setWidgetResizable(false);
  bufferScroll->setFrameShape(QFrame::NoFrame);
  m_side->addTab(bufferScroll, tr("Buffers"));
  m_side->addTab(new BreakpointList(m_clock), tr("Breakpoints"));
  if (m_session->trace().stoppedUs) {
    m_blocked = new BlockedList(m_session.get());
    m_side->insertTab(0, m_blocked, tr("Blocked"));
    m_side->setCurrentIndex(0);
    m_session->setCursor(*m_session->trace().stoppedUs);
  }
  m_views->setVisible(false);
  m_views->setDocumentMode(true);
  m_top->addWidget(m_views);
  m_top->addWidget(m_side);
  m_top->setStretchFactor(0, 3);
  m_top->setStretchFactor(1, 2);

  auto* ganttPane = new QWidget;
  auto* ganttLayout = new QVBoxLayout(ganttPane);
  ganttLayout->setContentsMargins(0, 0, 0, 0);
  ganttLayout->setSpacing(0);
  ganttLayout->addWidget(m_gantt, 1);
  ganttLayout->addWidget(new GanttLegend(opsOf(m_session->trace())));

  auto* main = new QSplitter(Qt::Vertical, this);
  main->addWidget(m_top);
  main->addWidget(ganttPane);
  main->setStretchFactor(0, 1);
  main->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_header);
  layout->addWidget(main, 1);
  layout->addWidget(m_bar);
  setWindowTitle(tr("Replay — %1").arg(m_session->description()));
  addView(m_topology, tr("Topology"));
  addView(m_links, tr("Link Utilisation"));
}

ReplayWindow* ReplayWindow::showWindow(std::unique_ptr<ReplaySession> session, QWidget* parent,
                                       const QString& title)
{
  auto* window = new ReplayWindow(std::move(session), parent);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(title);
  window->resize(1300, 860);
  window->show();
  return window;
}

ReplayWindow::~ReplayWindow()
{
  // The views hold the session: they go before it does.
  qDeleteAll(findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
}

QString ReplayWindow::headerText() const
{
  const Program& program = m_session->program();
  QString text = tr("<b>%1</b> · %2 ranks · %3 events · %4 µs")
                     .arg(m_session->description().toHtmlEscaped())
                     .arg(program.ngpus)
                     .arg(m_session->trace().events.size())
                     .arg(m_session->endUs(), 0, 'f', 2);
  if (!program.name.empty())
    text = tr("<b>%1</b> on ").arg(QString::fromStdString(program.name).toHtmlEscaped()) + text;
  if (m_session->index().linksInferred())
    text += tr(" · <i>links inferred from the topology</i>");
  if (const std::optional<double> stopped = m_session->trace().stoppedUs)
    text += tr("<br><span style=\"color:#d02b2b\"><b>stopped by the watchdog at %1 µs: %2 "
               "threadblocks blocked</b></span>")
                .arg(*stopped, 0, 'f', 2)
                .arg(m_session->trace().blocked.size());
  return text;
}

void ReplayWindow::addView(QWidget* view, const QString& title)
{
  m_views->addTab(view, title);
  m_views->setVisible(true);
}

} // namespace cs::visualizer
