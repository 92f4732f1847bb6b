#pragma once

// Plays a recorded run (DESIGN.md §9): moves the session's cursor on a timer at a chosen speed,
// steps it by algorithm step or by event of the selected lane, loops, and pauses at breakpoints.
// The clock owns no state of the run; it only calls session->setCursor. Time advances through
// advance(wallMs), which the timer calls with the measured elapsed time and tests call directly,
// so playback speed is checked without waiting on the wall clock.

#include "breakpoints.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace cs::visualizer {

class ReplaySession;

class PlaybackClock : public QObject
{
  Q_OBJECT

public:
  /// The speed that moves one algorithm step per second instead of a multiple of real time.
  static constexpr double kStepPerSecond = 0;

  explicit PlaybackClock(ReplaySession* session, QObject* parent = nullptr);

  ReplaySession* session() const { return m_session; }
  bool playing() const { return m_timer.isActive(); }
  /// Run µs per wall µs (0.001 … 100), or kStepPerSecond.
  double speed() const { return m_speed; }
  bool loop() const { return m_loop; }
  const std::vector<Breakpoint>& breakpoints() const { return m_breakpoints; }
  /// Every time, ascending, at which some breakpoint would pause playback.
  std::vector<double> allBreakpointTimes() const;

  /// Moves playback on by `wallMs` of wall time as if the timer had run that long: the cursor
  /// advances by wallMs × 1000 × speed (or one step per 1000 ms), stopping at a breakpoint it
  /// crosses and at the end (or wrapping, with loop on).
  void advance(double wallMs);

public slots:
  void play();
  void pause();
  void togglePlay();
  void setSpeed(double speed);
  void setLoop(bool loop);
  void stepForward();
  void stepBack();
  /// To the next (previous) start or end of an event of the selected lane (the selected event's
  /// lane); by algorithm step when nothing is selected.
  void eventForward();
  void eventBack();
  void goToStart();
  void goToEnd();
  void addBreakpoint(const cs::visualizer::Breakpoint& breakpoint);
  void removeBreakpoint(int index);

signals:
  void playingChanged(bool playing);
  void speedChanged(double speed);
  void loopChanged(bool loop);
  void breakpointsChanged();
  /// Playback paused because the cursor reached breakpoint `index`.
  void breakpointHit(int index);

private:
  void tick();
  /// Moves the cursor from where it is to `target` (≥ cursor), pausing at the first breakpoint
  /// on the way; true when one was hit.
  bool moveTo(double target);
  std::vector<double> laneBoundaries() const;

  ReplaySession* m_session;
  QTimer m_timer;
  QElapsedTimer m_elapsed;
  double m_speed = kStepPerSecond;
  bool m_loop = false;
  double m_stepWallMs = 0; ///< wall time accumulated towards the next step (kStepPerSecond)
  std::vector<Breakpoint> m_breakpoints;
  std::vector<std::vector<double>> m_breakpointTimes; ///< per breakpoint, ascending
};

} // namespace cs::visualizer
