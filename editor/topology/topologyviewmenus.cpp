// The canvas's context menu: a link's kind, bandwidth, latency and duplex; a node's name and
// rank; and, on empty canvas, placing a node where the menu opened. Each choice is one
// ChangeTopologyCommand (see topologyview.h).

#include "topologyview.h"

#include "canvasstyle.h"
#include "linkitem.h"
#include "machineitems.h"
#include "nodeitem.h"
#include "topologyedits.h"
#include "topologyscene.h"

#include "document/document.h"

#include <QContextMenuEvent>
#include <QInputDialog>
#include <QMenu>

namespace cs::editor {

void TopologyView::contextMenuEvent(QContextMenuEvent* event)
{
  if (m_link.from >= 0 || m_drag.pressed)
    return;
  const QPointF scenePos = mapToScene(event->pos());
  QGraphicsItem* target = m_scene->nodeAt(scenePos);
  if (!target) {
    for (QGraphicsItem* item : m_scene->items(scenePos)) {
      if (qgraphicsitem_cast<LinkItem*>(item)) {
        target = item;
        break;
      }
    }
  }
  QMenu menu(this);
  const MachineItem* machine = target ? nullptr : m_scene->machineAt(scenePos);
  if (machine) {
    addMachineActions(menu, machine->machine());
  } else if (target) {
    // As in file managers: a right click on something unselected selects just it.
    if (!target->isSelected()) {
      m_scene->clearSelection();
      target->setSelected(true);
    }
    showItemMenu(menu, target);
  } else {
    showCanvasMenu(menu, scenePos);
  }
  menu.exec(event->globalPos());
  event->accept();
}

void TopologyView::showItemMenu(QMenu& menu, QGraphicsItem* item)
{
  if (const auto* linkItem = qgraphicsitem_cast<LinkItem*>(item)) {
    const TopologyLink link = linkItem->link();
    const int id = link.id;
    QMenu* kinds = menu.addMenu(tr("Kind"));
    for (const LinkKind kind :
         {LinkKind::NvLink, LinkKind::Pcie, LinkKind::Network, LinkKind::Smp}) {
      QAction* action = kinds->addAction(linkKindLabel(kind));
      action->setCheckable(true);
      action->setChecked(kind == link.kind);
      connect(action, &QAction::triggered, this, [this, id, kind] {
        editLink(id, tr("Change link kind"), [kind](TopologyLink& l) { l.kind = kind; });
      });
    }
    connect(menu.addAction(tr("Bandwidth… (%1 GB/s)").arg(link.bandwidthGBps)), &QAction::triggered,
            this, [this, id, link] {
              bool ok = false;
              const double value = QInputDialog::getDouble(this, tr("Link bandwidth"),
                                                           tr("Bandwidth per direction (GB/s):"),
                                                           link.bandwidthGBps, 0.001, 1e6, 3, &ok);
              if (ok)
                editLink(id, tr("Change link bandwidth"),
                         [value](TopologyLink& l) { l.bandwidthGBps = value; });
            });
    connect(menu.addAction(tr("Latency… (%1 µs)").arg(link.latencyUs)), &QAction::triggered, this,
            [this, id, link] {
              bool ok = false;
              const double value = QInputDialog::getDouble(
                  this, tr("Link latency"), tr("Latency (µs):"), link.latencyUs, 0, 1e6, 3, &ok);
              if (ok)
                editLink(id, tr("Change link latency"),
                         [value](TopologyLink& l) { l.latencyUs = value; });
            });
    QAction* duplex = menu.addAction(tr("Full duplex"));
    duplex->setCheckable(true);
    duplex->setChecked(link.duplex);
    connect(duplex, &QAction::triggered, this, [this, id](bool on) {
      editLink(id, tr("Change link duplex"), [on](TopologyLink& l) { l.duplex = on; });
    });
  } else if (const auto* nodeItem = qgraphicsitem_cast<NodeItem*>(item)) {
    const TopologyNode node = nodeItem->node();
    const int id = node.id;
    connect(menu.addAction(tr("Rename…")), &QAction::triggered, this, [this, id, node] {
      bool ok = false;
      const QString name =
          QInputDialog::getText(this, tr("Rename node"), tr("Name:"), QLineEdit::Normal,
                                QString::fromStdString(node.name), &ok);
      if (ok && !name.trimmed().isEmpty())
        editNode(id, tr("Rename %1").arg(QString::fromStdString(node.name)),
                 [name](TopologyNode& n) { n.name = name.trimmed().toStdString(); });
    });
    if (node.kind == NodeKind::Gpu) {
      connect(menu.addAction(tr("Rank…")), &QAction::triggered, this, [this, id, node] {
        bool ok = false;
        const int rank = QInputDialog::getInt(this, tr("GPU rank"), tr("Rank this GPU hosts:"),
                                              std::max(node.rank, 0), 0, 65535, 1, &ok);
        if (ok)
          setGpuRank(id, rank);
      });
    }
  }
  if (const auto* node = qgraphicsitem_cast<NodeItem*>(item);
      node && m_scene->machineOfNode(node->nodeId()) >= 0) {
    menu.addSeparator();
    addMachineActions(menu, m_scene->machineOfNode(node->nodeId()));
  }
  menu.addSeparator();
  menu.addAction(commandAction(Command::Delete));
}

void TopologyView::showCanvasMenu(QMenu& menu, const QPointF& scenePos)
{
  const std::pair<NodeKind, QString> kinds[] = {
      {NodeKind::Gpu, tr("Add GPU here")},
      {NodeKind::NvSwitch, tr("Add NVSwitch here")},
      {NodeKind::PcieSwitch, tr("Add PCIe switch here")},
      {NodeKind::Nic, tr("Add NIC here")},
      {NodeKind::Cpu, tr("Add CPU here")},
      {NodeKind::NetworkSwitch, tr("Add network switch here")},
  };
  for (const auto& [kind, text] : kinds) {
    const NodeKind placed = kind;
    connect(menu.addAction(text), &QAction::triggered, this,
            [this, placed, scenePos] { addNodeAt(placed, scenePos); });
  }
  menu.addSeparator();
  menu.addMenu(m_presetMenu);
  menu.addAction(commandAction(Command::AutoLayout));
  menu.addAction(commandAction(Command::ZoomFit));
  if (m_scene->machineCount() > 1)
    menu.addAction(m_groupByNode);
}

void TopologyView::editNode(int id, const QString& text,
                            const std::function<void(TopologyNode&)>& edit)
{
  const std::optional<Topology>& topology = m_document->topology();
  if (!topology || !topology->node(id))
    return;
  Topology edited = *topology;
  for (TopologyNode& node : edited.nodes) {
    if (node.id == id)
      edit(node);
  }
  if (edited != *topology)
    push(std::move(edited), text, {id});
}

void TopologyView::editLink(int id, const QString& text,
                            const std::function<void(TopologyLink&)>& edit)
{
  const std::optional<Topology>& topology = m_document->topology();
  if (!topology || !topology->link(id))
    return;
  Topology edited = *topology;
  for (TopologyLink& link : edited.links) {
    if (link.id == id)
      edit(link);
  }
  if (edited != *topology)
    push(std::move(edited), text);
}

void TopologyView::setGpuRank(int id, int rank)
{
  const std::optional<Topology>& topology = m_document->topology();
  const TopologyNode* gpu = topology ? topology->node(id) : nullptr;
  if (!gpu || gpu->rank == rank)
    return;
  // Ranks are unique: the GPU that had `rank` takes this GPU's old one (a swap), and names that
  // spelled the rank ("GPU3") follow it.
  const int oldRank = gpu->rank;
  const QString text = tr("Change rank of %1").arg(QString::fromStdString(gpu->name));
  Topology edited = *topology;
  std::vector<int> changed;
  for (TopologyNode& node : edited.nodes) {
    if (node.kind != NodeKind::Gpu)
      continue;
    const int newRank = node.id == id ? rank : (node.rank == rank ? oldRank : node.rank);
    if (newRank == node.rank)
      continue;
    if (node.name == "GPU" + std::to_string(node.rank))
      node.name = newRank >= 0 ? "GPU" + std::to_string(newRank) : freeNodeName(edited, "GPU");
    node.rank = newRank;
    changed.push_back(node.id);
  }
  push(std::move(edited), text, changed);
}

} // namespace cs::editor
