#pragma once

// The Gantt view's colours and their key: one colour per op type, and how an event done, running
// and pending at the cursor looks.

#include "model/program.h"

#include <QColor>
#include <QWidget>

namespace cs::visualizer {

/// The bar colour of an op type (sends blue, receives green, reductions warm, copies grey).
QColor opColor(OpType op);
/// What an op type does, spelled out for the legend: "receive-reduce-copy-send".
QString opTitle(OpType op);

/// A one-line key under the Gantt chart: the op types of the run, then done / running / pending
/// (or, with setRunKey, how each of two runs is drawn).
class GanttLegend : public QWidget
{
  Q_OBJECT

public:
  GanttLegend(std::vector<OpType> ops, QWidget* parent = nullptr);

  /// Keys two runs instead of the states (the compare window's overlay): run A's name beside a
  /// solid sample, run B's beside an outlined one.
  void setRunKey(const QString& first, const QString& second);

  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  std::vector<OpType> m_ops;
  QStringList m_runs; ///< empty: the states are keyed
};

} // namespace cs::visualizer
