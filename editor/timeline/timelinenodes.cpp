// TimelineView's node grouping (issue 18, item 5): a program of hundreds of ranks shows one row
// per machine ("node 3 · ranks 24–31") whose cells summarise its ranks and whose arrows are the
// traffic between machines; a click or Enter on a node row shows its ranks under a node header,
// a click on that header folds them again.

#include "timelineview.h"

#include "document/document.h"

#include <QAction>
#include <QFontMetrics>

namespace cs::editor {

void TimelineView::createNodeGroupingAction()
{
  m_groupByNode = new QAction(tr("&Group Ranks by Node"), this);
  m_groupByNode->setObjectName(QStringLiteral("groupRanksByNode"));
  m_groupByNode->setCheckable(true);
  m_groupByNode->setStatusTip(
      tr("One timeline row per node of the topology (groups of %1 ranks without one); click a "
         "node's name to see its ranks. Automatic above %2 ranks or when fitting the window.")
          .arg(kDefaultRanksPerNode)
          .arg(kAutoGroupRanks));
  connect(m_groupByNode, &QAction::triggered, this,
          [this](bool on) { setNodeGrouping(on ? NodeGrouping::On : NodeGrouping::Off); });
}

void TimelineView::setNodeGrouping(NodeGrouping grouping)
{
  m_grouping = grouping;
  m_fitGrouped = false;
  const int ranks = m_model.hasSchedule() ? m_model.states().ranks() : 0;
  applyNodeGrouping(ranks);
  relayout();
}

void TimelineView::applyNodeGrouping(int ranks)
{
  const std::optional<Topology>& topology = m_document->topology();
  m_nodes = groupRanksByNode(topology ? &*topology : nullptr, ranks);
  bool grouped = m_grouping == NodeGrouping::On;
  if (m_grouping == NodeGrouping::Automatic)
    grouped = m_fitGrouped || ranks > kAutoGroupRanks;
  // One machine holding every rank folds nothing worth a row of its own.
  grouped = grouped && m_nodes.nodeCount > 1;
  // Node names stay legible when many narrow step columns set a small zoom.
  m_model.layout().setMinRowHeight(grouped ? QFontMetrics(font()).height() - 2 : 0);
  if (grouped)
    m_collapse.nodeOfRank = m_nodes.nodeOfRank;
  else
    m_collapse.nodeOfRank.clear();
  const int nodes = m_nodes.nodeCount;
  std::erase_if(m_collapse.expandedNodes, [nodes](int node) { return node >= nodes; });
  if (m_groupByNode)
    m_groupByNode->setChecked(grouped);
}

void TimelineView::setNodeExpanded(int node, bool expanded)
{
  if (expanded)
    m_collapse.expandedNodes.insert(node);
  else
    m_collapse.expandedNodes.erase(node);
  relayout();
}

QString TimelineView::nodeToolTip(const TimelineLayout::Row& row) const
{
  const QString source =
      m_nodes.fromTopology
          ? tr("Nodes as the topology has them: GPUs joined by links other than the network.")
          : tr("No topology places every rank: groups of %1 consecutive ranks stand for nodes.")
                .arg(kDefaultRanksPerNode);
  const QString action = row.expanded ? tr("Click to fold its ranks into one row again.")
                                      : tr("Click (or Enter) to show its ranks.");
  return tr("node %1: ranks %2–%3. Cells summarise its chunks; arrows are the traffic between "
            "nodes.<br>%4<br>%5")
      .arg(row.node)
      .arg(row.rank)
      .arg(row.lastRank)
      .arg(source, action);
}

} // namespace cs::editor
