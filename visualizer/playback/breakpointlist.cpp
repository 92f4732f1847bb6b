#include "breakpointlist.h"

#include "playbackclock.h"
#include "session/replaysession.h"

#include <QBoxLayout>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>

namespace cs::visualizer {

BreakpointList::BreakpointList(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), m_clock(clock), m_list(new QListWidget(this)), m_kind(new QComboBox(this)),
      m_first(new QSpinBox(this)), m_second(new QSpinBox(this))
{
  m_kind->addItem(tr("Step"), int(Breakpoint::Kind::Step));
  m_kind->addItem(tr("Rank"), int(Breakpoint::Kind::Rank));
  m_kind->addItem(tr("Threadblock"), int(Breakpoint::Kind::Threadblock));
  m_kind->addItem(tr("Link"), int(Breakpoint::Kind::Link));
  m_first->setRange(0, 99999);
  m_second->setRange(0, 99999);
  m_second->setPrefix(tr("tb "));
  auto* add = new QPushButton(tr("Add"), this);
  auto* fromSelection = new QPushButton(tr("Add on Selection"), this);
  fromSelection->setToolTip(tr("A breakpoint on the selected lane or link"));
  auto* remove = new QPushButton(tr("Remove"), this);
  m_list->setToolTip(tr("Playback pauses when the cursor reaches one of these"));

  auto* fields = new QHBoxLayout;
  for (QWidget* field : std::initializer_list<QWidget*>{m_kind, m_first, m_second, add})
    fields->addWidget(field);
  fields->addStretch(1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(fromSelection);
  buttons->addWidget(remove);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_list, 1);
  layout->addLayout(fields);
  layout->addLayout(buttons);

  connect(add, &QPushButton::clicked, this, &BreakpointList::addFromFields);
  connect(fromSelection, &QPushButton::clicked, this, &BreakpointList::addFromSelection);
  connect(remove, &QPushButton::clicked, this,
          [this] { m_clock->removeBreakpoint(m_list->currentRow()); });
  connect(m_kind, &QComboBox::currentIndexChanged, this, &BreakpointList::updateFields);
  connect(clock, &PlaybackClock::breakpointsChanged, this, &BreakpointList::refresh);
  connect(clock, &PlaybackClock::breakpointHit, m_list,
          [this](int row) { m_list->setCurrentRow(row); });
  updateFields();
  refresh();
}

void BreakpointList::updateFields()
{
  const auto kind = Breakpoint::Kind(m_kind->currentData().toInt());
  static const char* const prefixes[] = {"step ", "rank ", "rank ", "link "};
  m_first->setPrefix(tr(prefixes[m_kind->currentIndex()]));
  m_second->setVisible(kind == Breakpoint::Kind::Threadblock);
}

void BreakpointList::addFromFields()
{
  m_clock->addBreakpoint(
      {Breakpoint::Kind(m_kind->currentData().toInt()), m_first->value(), m_second->value()});
}

void BreakpointList::addFromSelection()
{
  const ReplaySelection& selection = m_clock->session()->selection();
  const std::vector<TraceEvent>& events = m_clock->session()->trace().events;
  if (selection.link >= 0) {
    m_clock->addBreakpoint({Breakpoint::Kind::Link, selection.link, 0});
  } else if (selection.event >= 0 && selection.event < static_cast<long>(events.size())) {
    const TraceEvent& event = events[static_cast<std::size_t>(selection.event)];
    m_clock->addBreakpoint({Breakpoint::Kind::Threadblock, event.rank, event.tb});
  } else if (selection.rank >= 0 && selection.tb >= 0) {
    m_clock->addBreakpoint({Breakpoint::Kind::Threadblock, selection.rank, selection.tb});
  } else if (selection.rank >= 0) {
    m_clock->addBreakpoint({Breakpoint::Kind::Rank, selection.rank, 0});
  }
}

void BreakpointList::refresh()
{
  m_list->clear();
  for (const Breakpoint& breakpoint : m_clock->breakpoints())
    m_list->addItem(breakpointText(breakpoint));
}

} // namespace cs::visualizer
