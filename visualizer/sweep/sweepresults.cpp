#include "sweepresults.h"

#include "io/bytesize.h"

#include <QSaveFile>

#include <algorithm>
#include <array>

namespace cs::visualizer {

namespace {

QString number(double value, int decimals)
{
  return QString::number(value, 'f', decimals);
}

/// A bandwidth for the table: two decimals as nccl-tests prints them, three significant digits
/// below 1 GB/s (a CPU run of a few KiB moves well under 0.01 GB/s).
QString bandwidth(double gbps)
{
  return gbps >= 1 ? QString::number(gbps, 'f', 2) : QString::number(gbps, 'g', 3);
}

QString wrongText(const SweepPoint& point)
{
  return point.wrong ? QString::number(*point.wrong) : QStringLiteral("N/A");
}

} // namespace

SweepResults::SweepResults(QObject* parent) : QAbstractTableModel(parent)
{
}

int SweepResults::beginSweep()
{
  return ++m_sweep;
}

int SweepResults::seriesFor(const SweepPoint& point)
{
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    const SweepSeries& series = m_series[i];
    if (series.sweep == m_sweep && m_points[series.points.front()].series == point.series)
      return static_cast<int>(i);
  }
  // A name an earlier sweep used is numbered, so both stay apart on the plot and in the legend.
  QString name = point.series;
  for (int n = 2;; ++n) {
    const bool taken = std::any_of(m_series.begin(), m_series.end(),
                                   [&](const SweepSeries& other) { return other.name == name; });
    if (!taken)
      break;
    name = QStringLiteral("%1 (%2)").arg(point.series).arg(n);
  }
  m_series.push_back({name, point.kind, m_sweep, {}});
  return static_cast<int>(m_series.size()) - 1;
}

void SweepResults::addPoint(const SweepPoint& point)
{
  const int row = static_cast<int>(m_points.size());
  beginInsertRows({}, row, row);
  m_points.push_back(point);
  const int series = seriesFor(point);
  m_series[static_cast<std::size_t>(series)].points.push_back(row);
  m_seriesOfPoint.push_back(series);
  endInsertRows();
}

void SweepResults::clear()
{
  beginResetModel();
  m_points.clear();
  m_seriesOfPoint.clear();
  m_series.clear();
  endResetModel();
}

QString SweepResults::toCsv() const
{
  QString csv = QStringLiteral("size,count,type,redop,backend,time_us,algbw,busbw,wrong,series\n");
  for (std::size_t i = 0; i < m_points.size(); ++i) {
    const SweepPoint& point = m_points[i];
    QString series = m_series[static_cast<std::size_t>(m_seriesOfPoint[i])].name;
    series.replace(QLatin1Char('"'), QLatin1String("\"\""));
    csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,\"%10\"\n")
               .arg(point.bytes)
               .arg(point.count)
               .arg(point.dtype, point.op, point.backend, number(point.timeUs, 3),
                    QString::number(point.algbwGBps, 'g', 6),
                    QString::number(point.busbwGBps, 'g', 6), wrongText(point), series);
  }
  return csv;
}

QString SweepResults::writeCsv(const QString& path) const
{
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
    return tr("cannot write %1: %2").arg(path, file.errorString());
  file.write(toCsv().toUtf8());
  if (!file.commit())
    return tr("cannot write %1: %2").arg(path, file.errorString());
  return {};
}

int SweepResults::rowCount(const QModelIndex& parent) const
{
  return parent.isValid() ? 0 : static_cast<int>(m_points.size());
}

int SweepResults::columnCount(const QModelIndex& parent) const
{
  return parent.isValid() ? 0 : Verdict + 1;
}

QVariant SweepResults::data(const QModelIndex& index, int role) const
{
  if (!index.isValid() || index.row() >= rowCount())
    return {};
  const auto row = static_cast<std::size_t>(index.row());
  const SweepPoint& point = m_points[row];
  if (role == Qt::TextAlignmentRole) {
    static constexpr std::array numeric{Size, Count, Time, Algbw, Busbw, Wrong};
    const bool right = std::find(numeric.begin(), numeric.end(), index.column()) != numeric.end();
    return QVariant(Qt::AlignVCenter | (right ? Qt::AlignRight : Qt::AlignLeft));
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
    return {};
  switch (static_cast<Column>(index.column())) {
  case Series:
    return m_series[static_cast<std::size_t>(m_seriesOfPoint[row])].name;
  case Size:
    return QString::fromStdString(formatByteSize(point.bytes));
  case Count:
    return QString::number(point.count);
  case Type:
    return point.dtype;
  case Redop:
    return point.op;
  case Backend:
    return point.backend;
  case Time:
    return point.timed() ? number(point.timeUs, 2) : QStringLiteral("—");
  case Algbw:
    return point.timed() ? bandwidth(point.algbwGBps) : QStringLiteral("—");
  case Busbw:
    return point.timed() ? bandwidth(point.busbwGBps) : QStringLiteral("—");
  case Wrong:
    return wrongText(point);
  case Verdict:
    return point.verdict;
  }
  return {};
}

QVariant SweepResults::headerData(int section, Qt::Orientation orientation, int role) const
{
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
  case Series:
    return tr("Series");
  case Size:
    return tr("Size");
  case Count:
    return tr("Count");
  case Type:
    return tr("Type");
  case Redop:
    return tr("Redop");
  case Backend:
    return tr("Backend");
  case Time:
    return tr("Time (µs)");
  case Algbw:
    return tr("algbw (GB/s)");
  case Busbw:
    return tr("busbw (GB/s)");
  case Wrong:
    return tr("#wrong");
  case Verdict:
    return tr("Verdict");
  }
  return {};
}

} // namespace cs::visualizer
