#pragma once

// The points of every sweep run in one window, as a table model (one row per point, in arrival
// order) and as series for the chart. A series is one curve: a sweep's backend
// ("ring v3 · cpu"), its simulation ("ring v3 · simulated") or NCCL's own call
// ("ncclAllReduce"). Each sweep adds its own series, so earlier sweeps stay on the plot for
// comparison; a name a previous sweep used gets " (2)", " (3)", … .

#include "sweeprequest.h"

#include <QAbstractTableModel>

#include <vector>

namespace cs::visualizer {

/// One curve of the chart.
struct SweepSeries {
  QString name; ///< unique in the results
  SweepKind kind = SweepKind::Measured;
  int sweep = 0;           ///< which sweep of the window added it
  std::vector<int> points; ///< rows of the model, ascending size within one sweep
};

class SweepResults : public QAbstractTableModel
{
  Q_OBJECT

public:
  enum Column { Series, Size, Count, Type, Redop, Backend, Time, Algbw, Busbw, Wrong, Verdict };

  explicit SweepResults(QObject* parent = nullptr);

  /// Begins a new sweep: its points form series of their own.
  int beginSweep();
  /// Adds a point of the current sweep (series by its name within the sweep).
  void addPoint(const SweepPoint& point);
  /// Forgets every point and series.
  void clear();

  const std::vector<SweepPoint>& points() const { return m_points; }
  /// Series in the order they appeared; names are the points' series made unique.
  const std::vector<SweepSeries>& series() const { return m_series; }

  /// nccl-tests-like CSV: size,count,type,redop,backend,time_us,algbw,busbw,wrong,series; one
  /// row per point; #wrong is N/A where nothing was verified.
  QString toCsv() const;
  /// Writes toCsv() to `path`; the error for people, empty on success.
  QString writeCsv(const QString& path) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  int seriesFor(const SweepPoint& point);

  std::vector<SweepPoint> m_points;
  std::vector<int> m_seriesOfPoint; ///< index into m_series
  std::vector<SweepSeries> m_series;
  int m_sweep = 0;
};

} // namespace cs::visualizer
