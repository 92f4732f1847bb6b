#pragma once

// Designed vs measured (DESIGN.md §9, issue 14): two recordings of the same program (a
// simulation and a CPU or GPU run, or two versions of the algorithm) side by side. A header names
// both runs; a table of per-step durations and one of per-link busy times give each run's time,
// its share of the run and the delta, the row that lost the most time first; an overlay Gantt
// draws both runs' lanes on a normalised time axis (run A solid, run B outlined). A chooser in
// the controls makes run A the calibrated simulation (replay/designedrun.h) instead of the
// recording it was opened with, when calibrations for the program's topology are offered.

#include "model/topology.h"
#include "replay/comparison.h"
#include "sim/calibration.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace cs::visualizer {

class OverlayGantt;
class ReplaySession;

/// A calibration the compare view offers for run A (sim/calibration.h), by its library name.
struct CompareCalibration {
  QString name;
  Calibration calibration;
};

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

  /// Fills the calibration chooser: "None" (run A as opened) and `calibrations`; choosing one
  /// makes run A the simulation of the program on `topology` calibrated by it, at run B's size,
  /// so that B is compared with the fitted model. No calibrations: the chooser stays hidden.
  void offerCalibrations(std::vector<CompareCalibration> calibrations, Topology topology);
  /// Chooses entry `index` of the chooser (0: None). Empty, or why run A stays as it was.
  QString chooseCalibration(int index);
  QComboBox* calibrationChooser() const { return m_calibrations; }
  /// Run A as shown: the calibrated simulation when one is chosen, else the run opened.
  const ReplaySession& firstRun() const { return *runA(); }

private:
  ReplaySession* runA() const { return m_designed ? m_designed.get() : m_first.get(); }
  QWidget* makeControls();
  /// Shows run A = `designed` (null: the run opened) against B: comparison, header, panes.
  void rebuild(std::unique_ptr<ReplaySession> designed);
  QWidget* makeTables();
  QWidget* makeOverlayPane();
  /// Why one run has no link busy times, or empty when both have some.
  QString missingLinkTimes() const;

  std::unique_ptr<ReplaySession> m_first;
  std::unique_ptr<ReplaySession> m_second;
  std::unique_ptr<ReplaySession> m_designed; ///< the calibrated simulation shown as run A
  std::vector<CompareCalibration> m_offered;
  std::optional<Topology> m_topology; ///< what the calibrated simulation runs on
  replay::Comparison m_comparison;
  QLabel* m_header;
  QVBoxLayout* m_layout = nullptr;
  QWidget* m_controls = nullptr;
  QComboBox* m_calibrations = nullptr;
  QLabel* m_calibrationNote = nullptr;
  QWidget* m_panes = nullptr;
  QTableWidget* m_steps = nullptr;
  QTableWidget* m_links = nullptr;
  OverlayGantt* m_overlay = nullptr;
};

} // namespace cs::visualizer
