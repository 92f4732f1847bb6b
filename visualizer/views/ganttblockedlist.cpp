#include "ganttblockedlist.h"

#include "replay/stopreport.h"
#include "session/replaysession.h"

namespace cs::visualizer {

namespace {

constexpr int kRankRole = Qt::UserRole;
constexpr int kTbRole = Qt::UserRole + 1;

QString laneName(int rank, int tb, int step)
{
  return QObject::tr("rank %1 · tb %2 · step %3").arg(rank).arg(tb).arg(step);
}

} // namespace

BlockedList::BlockedList(ReplaySession* session, QWidget* parent)
    : QListWidget(parent), m_session(session)
{
  const Trace& trace = session->trace();
  setWordWrap(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setSpacing(1);
  setResizeMode(QListView::Adjust);
  addHeading(tr("Stopped by the watchdog at %1 µs; blocked then:")
                 .arg(trace.stoppedUs.value_or(0), 0, 'f', 2));
  for (const BlockedPosition& p : trace.blocked) {
    addLane(
        tr("%1 waits for %2")
            .arg(laneName(p.rank, p.tb, p.step), QString::fromStdString(replay::describeWait(p))),
        p.rank, p.tb);
    ++m_blockedCount;
  }
  m_cycle = replay::predictedCycle(session->program(), trace);
  if (!m_cycle.empty()) {
    addHeading(tr("The checker predicts this wait-for cycle with %1 slot(s) per connection:")
                   .arg(trace.connectionSlots.value_or(0)));
    for (std::size_t i = 0; i < m_cycle.size(); ++i) {
      const Location& at = m_cycle[i];
      addLane((i == 0 ? QStringLiteral("   ") : QStringLiteral("→ ")) +
                  laneName(at.rank, at.tb, at.step),
              at.rank, at.tb);
    }
    addLane(tr("→ back to %1").arg(laneName(m_cycle[0].rank, m_cycle[0].tb, m_cycle[0].step)),
            m_cycle[0].rank, m_cycle[0].tb);
  }
  connect(this, &QListWidget::itemClicked, this, &BlockedList::selectLane);
}

void BlockedList::addHeading(const QString& text)
{
  auto* item = new QListWidgetItem(text, this);
  item->setFlags(Qt::ItemIsEnabled);
  QFont bold = font();
  bold.setBold(true);
  item->setFont(bold);
}

void BlockedList::addLane(const QString& text, int rank, int tb)
{
  auto* item = new QListWidgetItem(text, this);
  item->setData(kRankRole, rank);
  item->setData(kTbRole, tb);
}

void BlockedList::selectLane(QListWidgetItem* item)
{
  if (!item->data(kRankRole).isValid())
    return;
  m_session->setSelection({item->data(kRankRole).toInt(), item->data(kTbRole).toInt(), -1, -1});
}

} // namespace cs::visualizer
