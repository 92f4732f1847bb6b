#include "playbackbar.h"

#include "playbackclock.h"
#include "scrubbar.h"
#include "session/replaysession.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace cs::visualizer {

PlaybackBar::PlaybackBar(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), m_clock(clock), m_scrub(new ScrubBar(clock->session(), this))
{
  createButtons();
  createSpeedCombo();
  m_readout = new QLabel(this);
  m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_readout->setMinimumWidth(
      fontMetrics().horizontalAdvance(QStringLiteral("0000.00 / 0000.00 µs · step 00 · slice 00")));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(2);
  for (QToolButton* button : {m_start, m_back, m_play, m_forward, m_end})
    layout->addWidget(button);
  layout->addSpacing(8);
  layout->addWidget(m_scrub, 1);
  layout->addSpacing(8);
  layout->addWidget(m_readout);
  layout->addWidget(m_speed);
  layout->addWidget(m_loop);

  createShortcuts();
  connect(clock->session(), &ReplaySession::cursorChanged, this, &PlaybackBar::updateReadout);
  connect(clock, &PlaybackClock::playingChanged, this, &PlaybackBar::updatePlaying);
  connect(clock, &PlaybackClock::breakpointsChanged, this,
          [this] { m_scrub->setMarks(m_clock->allBreakpointTimes()); });
  updateReadout();
  updatePlaying(clock->playing());
}

QToolButton* PlaybackBar::addButton(const QIcon& icon, const QString& tip, const QKeySequence& key)
{
  auto* button = new QToolButton(this);
  button->setIcon(icon);
  button->setAutoRaise(true);
  button->setIconSize(QSize(20, 20));
  button->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
  return button;
}

void PlaybackBar::createButtons()
{
  QStyle* s = style();
  m_start = addButton(s->standardIcon(QStyle::SP_MediaSkipBackward), tr("Go to start"),
                      QKeySequence(Qt::Key_Home));
  m_back = addButton(s->standardIcon(QStyle::SP_MediaSeekBackward),
                     tr("Step back one algorithm step"), QKeySequence(Qt::Key_Left));
  m_play = addButton(s->standardIcon(QStyle::SP_MediaPlay), tr("Play / pause"),
                     QKeySequence(Qt::Key_Space));
  m_forward = addButton(s->standardIcon(QStyle::SP_MediaSeekForward),
                        tr("Step forward one algorithm step"), QKeySequence(Qt::Key_Right));
  m_end = addButton(s->standardIcon(QStyle::SP_MediaSkipForward), tr("Go to end"),
                    QKeySequence(Qt::Key_End));
  m_loop = new QToolButton(this);
  m_loop->setText(tr("⟲ Loop"));
  m_loop->setCheckable(true);
  m_loop->setAutoRaise(true);
  m_loop->setToolTip(tr("Start over at the end instead of stopping"));
  connect(m_start, &QToolButton::clicked, m_clock, &PlaybackClock::goToStart);
  connect(m_back, &QToolButton::clicked, m_clock, &PlaybackClock::stepBack);
  connect(m_play, &QToolButton::clicked, m_clock, &PlaybackClock::togglePlay);
  connect(m_forward, &QToolButton::clicked, m_clock, &PlaybackClock::stepForward);
  connect(m_end, &QToolButton::clicked, m_clock, &PlaybackClock::goToEnd);
  connect(m_loop, &QToolButton::toggled, m_clock, &PlaybackClock::setLoop);
}

void PlaybackBar::createSpeedCombo()
{
  m_speed = new QComboBox(this);
  m_speed->setToolTip(tr("Playback speed: a multiple of the run's real time, or one algorithm "
                         "step per second"));
  m_speed->addItem(tr("1 step / s"), PlaybackClock::kStepPerSecond);
  for (const double speed : {0.00001, 0.0001, 0.001, 0.01, 0.1, 1.0, 10.0, 100.0})
    m_speed->addItem(QStringLiteral("× %1").arg(speed, 0, 'g', 6), speed);
  m_speed->setCurrentIndex(std::max(0, m_speed->findData(m_clock->speed())));
  connect(m_speed, &QComboBox::currentIndexChanged, this,
          [this](int index) { m_clock->setSpeed(m_speed->itemData(index).toDouble()); });
}

void PlaybackBar::createShortcuts()
{
  const auto add = [this](QKeyCombination key, auto slot) {
    auto* shortcut = new QShortcut(QKeySequence(key), this);
    shortcut->setContext(Qt::WindowShortcut);
    connect(shortcut, &QShortcut::activated, m_clock, slot);
  };
  add(Qt::Key_Space, &PlaybackClock::togglePlay);
  add(Qt::Key_Left, &PlaybackClock::stepBack);
  add(Qt::Key_Right, &PlaybackClock::stepForward);
  add(Qt::SHIFT | Qt::Key_Left, &PlaybackClock::eventBack);
  add(Qt::SHIFT | Qt::Key_Right, &PlaybackClock::eventForward);
  add(Qt::Key_Home, &PlaybackClock::goToStart);
  add(Qt::Key_End, &PlaybackClock::goToEnd);
}

QString PlaybackBar::readoutText() const
{
  const ReplaySession* session = m_clock->session();
  const std::vector<double>& starts = session->stepStarts();
  const auto next = std::upper_bound(starts.begin(), starts.end(), session->cursorUs());
  QString text =
      tr("%1 / %2 µs").arg(session->cursorUs(), 0, 'f', 2).arg(session->endUs(), 0, 'f', 2);
  if (next == starts.begin())
    return text;
  const auto [step, slice] =
      session->stepKeys()[static_cast<std::size_t>(next - starts.begin() - 1)];
  return text + tr(" · step %1 · slice %2").arg(step).arg(slice);
}

void PlaybackBar::updateReadout()
{
  m_readout->setText(readoutText());
}

void PlaybackBar::updatePlaying(bool playing)
{
  m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

} // namespace cs::visualizer
