#pragma once

// Designed vs measured (DESIGN.md §9, issue 14): two recordings of the same program (a
// simulation and a CPU or GPU run, or two versions of the algorithm) side by side. A header names
// both runs; a table of per-step durations and one of per-link busy times give each run's time,
// its share of the run and the delta, the row that lost the most time first; an overlay Gantt
// draws both runs' lanes on a normalised time axis (run A solid, run B outlined).

#include "replay/comparison.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;

namespace cs::visualizer {

class OverlayGantt;
class ReplaySession;

class CompareWindow : public QWidget
{
  Q_OBJECT

public:
  /// Takes ownership of both sessions: `first` is run A, `second` run B (deltas are B − A).
  CompareWindow(std::unique_ptr<ReplaySession> first, std::unique_ptr<ReplaySession> second,
                QWidget* parent = nullptr);
  ~CompareWindow() override;

  const replay::Comparison& comparison() const { return m_comparison; }
  QTableWidget* stepTable() const { return m_steps; }
  QTableWidget* linkTable() const { return m_links; }
  OverlayGantt* overlay() const { return m_overlay; }
  /// The header's text: the program and both runs with their totals.
  QString headerText() const;

private:
  QWidget* makeTables();
  QWidget* makeOverlayPane();
  /// Why one run has no link busy times, or empty when both have some.
  QString missingLinkTimes() const;

  std::unique_ptr<ReplaySession> m_first;
  std::unique_ptr<ReplaySession> m_second;
  replay::Comparison m_comparison;
  QLabel* m_header;
  QTableWidget* m_steps = nullptr;
  QTableWidget* m_links = nullptr;
  OverlayGantt* m_overlay = nullptr;
};

} // namespace cs::visualizer
