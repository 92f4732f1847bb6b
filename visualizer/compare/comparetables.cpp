#include "comparetables.h"

#include "model/topology.h"

#include <QHeaderView>

namespace cs::visualizer {

namespace {

QTableWidget* makeTable(const QStringList& headers, int rows, QWidget* parent)
{
  auto* table = new QTableWidget(rows, static_cast<int>(headers.size()), parent);
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->setVisible(false);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
  return table;
}

QTableWidgetItem* number(double value, int decimals, bool signedValue = false)
{
  QString text = QString::number(value, 'f', decimals);
  if (signedValue && value > 0)
    text.prepend(QLatin1Char('+'));
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidgetItem* percent(double fraction, bool signedValue = false)
{
  QTableWidgetItem* item = number(fraction * 100, 1, signedValue);
  item->setText(item->text() + QStringLiteral(" %"));
  return item;
}

/// Fills columns 1..6 of `row` from `time`; tints the row when it lost time, the worst rows more.
void fillTimes(QTableWidget* table, int row, const replay::ComparedTime& time)
{
  table->setItem(row, 1, number(time.us[0], 2));
  table->setItem(row, 2, number(time.us[1], 2));
  table->setItem(row, 3, number(time.deltaUs, 2, true));
  table->setItem(row, 4, percent(time.normalised[0]));
  table->setItem(row, 5, percent(time.normalised[1]));
  table->setItem(row, 6, percent(time.deltaNormalised, true));
  if (time.deltaUs <= 0)
    return;
  const QColor tint = row < kWorstRows ? QColor(0xf6, 0xc9, 0xc9) : QColor(0xfb, 0xec, 0xec);
  for (int column = 0; column < table->columnCount(); ++column)
    table->item(row, column)->setBackground(tint);
}

QString nodeName(const Topology& topology, int id)
{
  const TopologyNode* node = topology.node(id);
  return node ? QString::fromStdString(node->name) : QString::number(id);
}

} // namespace

QTableWidget* makeStepTable(const replay::Comparison& comparison, QWidget* parent)
{
  QTableWidget* table =
      makeTable({QObject::tr("Step"), QObject::tr("A µs"), QObject::tr("B µs"), QObject::tr("Δ µs"),
                 QObject::tr("A share"), QObject::tr("B share"), QObject::tr("Δ share")},
                static_cast<int>(comparison.steps.size()), parent);
  for (std::size_t i = 0; i < comparison.steps.size(); ++i) {
    const int row = static_cast<int>(i);
    auto* step = new QTableWidgetItem(QObject::tr("step %1").arg(comparison.steps[i].position));
    step->setData(Qt::UserRole, comparison.steps[i].position);
    table->setItem(row, 0, step);
    fillTimes(table, row, comparison.steps[i].time);
  }
  return table;
}

QTableWidget* makeLinkTable(const replay::Comparison& comparison, const Topology* topology,
                            QWidget* parent)
{
  QTableWidget* table = makeTable(
      {QObject::tr("Link"), QObject::tr("A busy µs"), QObject::tr("B busy µs"), QObject::tr("Δ µs"),
       QObject::tr("A share"), QObject::tr("B share"), QObject::tr("Δ share")},
      static_cast<int>(comparison.links.size()), parent);
  for (std::size_t i = 0; i < comparison.links.size(); ++i) {
    const int row = static_cast<int>(i);
    const int id = comparison.links[i].link;
    QString name = QObject::tr("link %1").arg(id);
    if (const TopologyLink* link = topology ? topology->link(id) : nullptr)
      name =
          QStringLiteral("%1 ↔ %2").arg(nodeName(*topology, link->a), nodeName(*topology, link->b));
    auto* item = new QTableWidgetItem(name);
    item->setData(Qt::UserRole, id);
    table->setItem(row, 0, item);
    fillTimes(table, row, comparison.links[i].busy);
  }
  return table;
}

} // namespace cs::visualizer
