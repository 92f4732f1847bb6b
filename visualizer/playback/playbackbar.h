#pragma once

// The replay window's transport (DESIGN.md §9): go to start, step back, play/pause, step forward,
// go to end, a speed choice, loop, the scrub bar and the time readout, over one PlaybackClock.
// Space, Left/Right (Shift: by event of the selected lane), Home and End work anywhere in the
// window the bar is in.

#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace cs::visualizer {

class PlaybackClock;
class ScrubBar;

class PlaybackBar : public QWidget
{
  Q_OBJECT

public:
  explicit PlaybackBar(PlaybackClock* clock, QWidget* parent = nullptr);

  ScrubBar* scrubBar() const { return m_scrub; }
  /// "12.5 / 40.0 µs · step 3 of 8", as the readout shows it.
  QString readoutText() const;

private:
  QToolButton* addButton(const QIcon& icon, const QString& tip, const QKeySequence& key);
  void createButtons();
  void createSpeedCombo();
  void createShortcuts();
  void updateReadout();
  void updatePlaying(bool playing);

  PlaybackClock* m_clock;
  ScrubBar* m_scrub = nullptr;
  QToolButton* m_start = nullptr;
  QToolButton* m_back = nullptr;
  QToolButton* m_play = nullptr;
  QToolButton* m_forward = nullptr;
  QToolButton* m_end = nullptr;
  QToolButton* m_loop = nullptr;
  QComboBox* m_speed = nullptr;
  QLabel* m_readout = nullptr;
};

} // namespace cs::visualizer
