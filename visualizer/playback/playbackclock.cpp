#include "playbackclock.h"

#include "session/replaysession.h"

#include <algorithm>
#include <set>

namespace cs::visualizer {

namespace {

constexpr int kTickMs = 16;
constexpr double kStepWallMs = 1000;

/// The first of `times` after `from` (strictly), or `fallback`.
double nextAfter(const std::vector<double>& times, double from, double fallback)
{
  const auto it = std::upper_bound(times.begin(), times.end(), from);
  return it == times.end() ? fallback : *it;
}

/// The last of `times` before `from` (strictly), or `fallback`.
double lastBefore(const std::vector<double>& times, double from, double fallback)
{
  const auto it = std::lower_bound(times.begin(), times.end(), from);
  return it == times.begin() ? fallback : *std::prev(it);
}

} // namespace

PlaybackClock::PlaybackClock(ReplaySession* session, QObject* parent)
    : QObject(parent), m_session(session)
{
  m_timer.setInterval(kTickMs);
  m_timer.setTimerType(Qt::PreciseTimer);
  connect(&m_timer, &QTimer::timeout, this, &PlaybackClock::tick);
}

void PlaybackClock::play()
{
  if (playing())
    return;
  // Play at the end starts over, as media players do.
  if (m_session->cursorUs() >= m_session->endUs())
    m_session->setCursor(m_session->startUs());
  m_stepWallMs = 0;
  m_elapsed.start();
  m_timer.start();
  emit playingChanged(true);
}

void PlaybackClock::pause()
{
  if (!playing())
    return;
  m_timer.stop();
  emit playingChanged(false);
}

void PlaybackClock::togglePlay()
{
  if (playing())
    pause();
  else
    play();
}

void PlaybackClock::setSpeed(double speed)
{
  if (speed == m_speed)
    return;
  m_speed = speed;
  m_stepWallMs = 0;
  emit speedChanged(speed);
}

void PlaybackClock::setLoop(bool loop)
{
  if (loop == m_loop)
    return;
  m_loop = loop;
  emit loopChanged(loop);
}

void PlaybackClock::tick()
{
  const double wallMs = static_cast<double>(m_elapsed.nsecsElapsed()) / 1e6;
  m_elapsed.restart();
  advance(wallMs);
}

void PlaybackClock::advance(double wallMs)
{
  const double now = m_session->cursorUs();
  double target = now;
  if (m_speed == kStepPerSecond) {
    m_stepWallMs += wallMs;
    if (m_stepWallMs < kStepWallMs)
      return;
    m_stepWallMs -= kStepWallMs;
    target = nextAfter(m_session->stepStarts(), now, m_session->endUs());
  } else {
    target = now + wallMs * 1000 * m_speed;
  }
  if (moveTo(std::min(target, m_session->endUs())))
    return;
  if (target < m_session->endUs())
    return;
  if (m_loop)
    m_session->setCursor(m_session->startUs());
  else
    pause();
}

bool PlaybackClock::moveTo(double target)
{
  const double now = m_session->cursorUs();
  int hit = -1;
  double hitAt = target;
  for (std::size_t i = 0; i < m_breakpointTimes.size(); ++i) {
    const double at = nextAfter(m_breakpointTimes[i], now, target + 1);
    if (at <= hitAt && (hit < 0 || at < hitAt)) {
      hit = static_cast<int>(i);
      hitAt = at;
    }
  }
  m_session->setCursor(hitAt);
  if (hit < 0)
    return false;
  pause();
  emit breakpointHit(hit);
  return true;
}

void PlaybackClock::stepForward()
{
  const double now = m_session->cursorUs();
  m_session->setCursor(nextAfter(m_session->stepStarts(), now, m_session->endUs()));
}

void PlaybackClock::stepBack()
{
  const double now = m_session->cursorUs();
  m_session->setCursor(lastBefore(m_session->stepStarts(), now, m_session->startUs()));
}

std::vector<double> PlaybackClock::laneBoundaries() const
{
  const ReplaySelection& selection = m_session->selection();
  int rank = selection.rank;
  int tb = selection.tb;
  const std::vector<TraceEvent>& events = m_session->trace().events;
  if (selection.event >= 0 && selection.event < static_cast<long>(events.size())) {
    rank = events[static_cast<std::size_t>(selection.event)].rank;
    tb = events[static_cast<std::size_t>(selection.event)].tb;
  }
  if (rank < 0 || tb < 0)
    return m_session->stepStarts();
  std::set<double> times;
  for (const TraceEvent& event : events) {
    if (event.rank == rank && event.tb == tb) {
      times.insert(event.start);
      times.insert(event.end);
    }
  }
  return {times.begin(), times.end()};
}

void PlaybackClock::eventForward()
{
  m_session->setCursor(nextAfter(laneBoundaries(), m_session->cursorUs(), m_session->endUs()));
}

void PlaybackClock::eventBack()
{
  m_session->setCursor(lastBefore(laneBoundaries(), m_session->cursorUs(), m_session->startUs()));
}

void PlaybackClock::goToStart()
{
  m_session->setCursor(m_session->startUs());
}

void PlaybackClock::goToEnd()
{
  pause();
  m_session->setCursor(m_session->endUs());
}

void PlaybackClock::addBreakpoint(const Breakpoint& breakpoint)
{
  if (std::find(m_breakpoints.begin(), m_breakpoints.end(), breakpoint) != m_breakpoints.end())
    return;
  m_breakpoints.push_back(breakpoint);
  m_breakpointTimes.push_back(breakpointTimes(*m_session, breakpoint));
  emit breakpointsChanged();
}

std::vector<double> PlaybackClock::allBreakpointTimes() const
{
  std::vector<double> times;
  for (const std::vector<double>& own : m_breakpointTimes)
    times.insert(times.end(), own.begin(), own.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

void PlaybackClock::removeBreakpoint(int index)
{
  if (index < 0 || index >= static_cast<int>(m_breakpoints.size()))
    return;
  m_breakpoints.erase(m_breakpoints.begin() + index);
  m_breakpointTimes.erase(m_breakpointTimes.begin() + index);
  emit breakpointsChanged();
}

} // namespace cs::visualizer
