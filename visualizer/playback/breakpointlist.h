#pragma once

// Manages a PlaybackClock's breakpoints: the list, a kind and its numbers to add one, a button
// to add one on what is selected in the views, and Remove.

#include <QWidget>

class QComboBox;
class QListWidget;
class QSpinBox;

namespace cs::visualizer {

class PlaybackClock;

class BreakpointList : public QWidget
{
  Q_OBJECT

public:
  explicit BreakpointList(PlaybackClock* clock, QWidget* parent = nullptr);

  QListWidget* list() const { return m_list; }

private:
  void addFromFields();
  void addFromSelection();
  void refresh();
  void updateFields();

  PlaybackClock* m_clock;
  QListWidget* m_list;
  QComboBox* m_kind;
  QSpinBox* m_first;
  QSpinBox* m_second;
};

} // namespace cs::visualizer
