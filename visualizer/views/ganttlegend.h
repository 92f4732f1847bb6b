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

/// A one-line key under the Gantt chart: the op types of the run, then done / running / pending.
class GanttLegend : public QWidget
{
  Q_OBJECT

public:
  GanttLegend(std::vector<OpType> ops, QWidget* parent = nullptr);

  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  std::vector<OpType> m_ops;
};

} // namespace cs::visualizer
