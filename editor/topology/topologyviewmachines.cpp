// TopologyView's machine folding (issue 18, item 4; see TopologyScene's machines): View › Group
// Topology by Node, mirroring the timeline's Group Ranks by Node, and folding or unfolding one
// machine by a double-click on its box or title, or from the context menu.

#include "topologyview.h"

#include "machineitems.h"
#include "nodeitem.h"
#include "topologyscene.h"

#include <QAction>
#include <QMenu>

namespace cs::editor {

void TopologyView::createNodeGroupingAction()
{
  m_groupByNode = new QAction(tr("Group &Topology by Node"), this);
  m_groupByNode->setObjectName(QStringLiteral("groupTopologyByNode"));
  m_groupByNode->setCheckable(true);
  m_groupByNode->setStatusTip(
      tr("Fold each node of a multi-node topology into one box, its links to the network drawn "
         "as one line per switch; double-click a node to unfold it. Automatic above %1 GPUs.")
          .arg(TopologyScene::kAutoFoldGpus));
  connect(m_groupByNode, &QAction::triggered, this, &TopologyView::setGroupedByNode);
  updateNodeGroupingAction();
}

void TopologyView::setGroupedByNode(bool grouped)
{
  m_scene->setMachineFolding(grouped ? TopologyScene::MachineFolding::On
                                     : TopologyScene::MachineFolding::Off);
  updateNodeGroupingAction();
  updateSceneRect(true);
}

void TopologyView::setMachineFolded(int machine, bool folded)
{
  m_scene->setMachineFolded(machine, folded);
  updateNodeGroupingAction();
  updateSceneRect(true);
  if (const MachineItem* item = m_scene->machineItem(machine))
    emit statusMessage(folded ? tr("Folded %1").arg(item->title())
                              : tr("Unfolded %1").arg(item->title()));
}

void TopologyView::updateNodeGroupingAction()
{
  if (!m_groupByNode)
    return;
  m_groupByNode->setEnabled(m_scene->machineCount() > 1);
  m_groupByNode->setChecked(m_scene->foldedMachineCount() > 0);
}

bool TopologyView::toggleMachineAt(const QPointF& scenePos)
{
  if (m_scene->nodeAt(scenePos))
    return false;
  const MachineItem* machine = m_scene->machineAt(scenePos);
  if (!machine)
    return false;
  setMachineFolded(machine->machine(), !machine->folded());
  return true;
}

void TopologyView::addMachineActions(QMenu& menu, int machine)
{
  const MachineItem* item = m_scene->machineItem(machine);
  if (!item)
    return;
  const bool folded = item->folded();
  const QString name = item->title().section(QStringLiteral(" · "), 0, 0);
  QAction* toggle = menu.addAction(folded ? tr("Unfold %1").arg(name) : tr("Fold %1").arg(name));
  toggle->setObjectName(QStringLiteral("toggleMachine"));
  connect(toggle, &QAction::triggered, this,
          [this, machine, folded] { setMachineFolded(machine, !folded); });
  menu.addAction(m_groupByNode);
}

} // namespace cs::editor
