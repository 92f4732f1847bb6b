#pragma once

// The replay window's "Blocked" tab for a run the watchdog stopped (issue 14): one entry per
// blocked threadblock saying where it stood and what it waited for, then the wait-for cycle the
// checker predicts for the program with the run's connection slots, as a chain. Clicking an
// entry selects that threadblock's lane in every view.

#include "model/diagnostic.h"

#include <QListWidget>

#include <vector>

namespace cs::visualizer {

class ReplaySession;

class BlockedList : public QListWidget
{
  Q_OBJECT

public:
  explicit BlockedList(ReplaySession* session, QWidget* parent = nullptr);

  /// Entries for blocked positions (the trace's blocked list).
  int blockedCount() const { return m_blockedCount; }
  /// The predicted wait-for cycle shown, in order; empty when the checker predicts none.
  const std::vector<Location>& cycle() const { return m_cycle; }

private:
  void addHeading(const QString& text);
  void addLane(const QString& text, int rank, int tb);
  void selectLane(QListWidgetItem* item);

  ReplaySession* m_session;
  int m_blockedCount = 0;
  std::vector<Location> m_cycle;
};

} // namespace cs::visualizer
