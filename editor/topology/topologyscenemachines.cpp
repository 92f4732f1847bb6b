// TopologyScene's machines (issue 18, item 4; see topologyscene.h): a frame per machine of a
// multi-node topology, and folding a machine into one box whose links to the rest of the
// topology become one bundle per other end, so a 128-node fabric reads as boxes wired to their
// leaf switches instead of a thousand GPUs under a mass of links.

#include "topologyscene.h"

#include "linkitem.h"
#include "machineitems.h"
#include "nodeitem.h"

#include "document/nodegroups.h"

#include <QGraphicsRectItem>
#include <QPalette>

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace cs::editor {

namespace {

/// Below the links (0), above the bundles (BundleItem's z).
constexpr double kBackdropZ = -0.5;

/// What one machine holds, before it is numbered.
struct MachineContents {
  std::vector<int> nodeIds;
  QRectF devices;
  int gpus = 0;
  int nics = 0;
  int firstRank = INT_MAX;
  int lastRank = -1;
};

QString countOf(int count, const QString& one, const QString& many)
{
  return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

QString titleOf(int number, const MachineContents& machine)
{
  QString title =
      QStringLiteral("node %1 · %2").arg(number).arg(countOf(machine.gpus, "GPU", "GPUs"));
  if (machine.nics > 0)
    title += QStringLiteral(" · ") + countOf(machine.nics, "NIC", "NICs");
  return title;
}

QString detailOf(const MachineContents& machine)
{
  if (machine.lastRank < 0)
    return QStringLiteral("no ranks");
  if (machine.firstRank == machine.lastRank)
    return QStringLiteral("rank %1").arg(machine.firstRank);
  return QStringLiteral("ranks %1–%2").arg(machine.firstRank).arg(machine.lastRank);
}

bool hasNetwork(const Topology& topology)
{
  return std::any_of(topology.links.begin(), topology.links.end(),
                     [](const TopologyLink& link) { return link.kind == LinkKind::Network; }) ||
         std::any_of(topology.nodes.begin(), topology.nodes.end(),
                     [](const TopologyNode& node) { return node.kind == NodeKind::NetworkSwitch; });
}

/// The machines of `topology` that hold a GPU, numbered in rank order as the timeline numbers
/// them (machines of unranked GPUs last).
std::vector<MachineContents> machinesOf(const Topology& topology)
{
  const std::vector<int> machineOfNode = machineOfTopologyNode(topology);
  std::map<int, MachineContents> byMachine;
  for (std::size_t i = 0; i < topology.nodes.size(); ++i) {
    if (machineOfNode[i] < 0)
      continue;
    const TopologyNode& node = topology.nodes[i];
    MachineContents& machine = byMachine[machineOfNode[i]];
    machine.nodeIds.push_back(node.id);
    machine.devices |= NodeItem::rectFor(node);
    machine.gpus += node.kind == NodeKind::Gpu ? 1 : 0;
    machine.nics += node.kind == NodeKind::Nic ? 1 : 0;
    if (node.kind == NodeKind::Gpu && node.rank >= 0) {
      machine.firstRank = std::min(machine.firstRank, node.rank);
      machine.lastRank = std::max(machine.lastRank, node.rank);
    }
  }
  std::vector<MachineContents> machines;
  for (auto& [number, machine] : byMachine) {
    if (machine.gpus > 0)
      machines.push_back(std::move(machine));
  }
  std::stable_sort(machines.begin(), machines.end(),
                   [](const auto& a, const auto& b) { return a.firstRank < b.firstRank; });
  return machines;
}

} // namespace

void TopologyScene::syncMachines(const Topology* topology)
{
  for (MachineItem* machine : m_machines)
    delete machine;
  m_machines.clear();
  m_machineOfNode.clear();
  std::vector<MachineContents> machines;
  if (topology && hasNetwork(*topology))
    machines = machinesOf(*topology);
  if (machines.size() < 2)
    machines.clear();
  std::vector<int> shape;
  for (std::size_t number = 0; number < machines.size(); ++number) {
    const MachineContents& contents = machines[number];
    const int machine = static_cast<int>(number);
    auto* item =
        new MachineItem(machine, titleOf(machine, contents), detailOf(contents), contents.devices);
    item->setViewScale(m_viewScale);
    addItem(item);
    m_machines.push_back(item);
    for (const int id : contents.nodeIds)
      m_machineOfNode.emplace(id, machine);
    shape.push_back(contents.gpus);
  }
  // Editing inside an unfolded machine (adding or deleting a GPU) keeps every machine as it is;
  // a topology of another number of machines starts over.
  if (shape.size() == m_machineShape.size()) {
    m_machineShape = shape;
    std::erase_if(m_folded, [this](int machine) { return machine >= machineCount(); });
    return;
  }
  m_machineShape = shape;
  resetFolding();
}

void TopologyScene::setMachineFolding(MachineFolding folding)
{
  m_folding = folding;
  resetFolding();
  applyFolding();
}

void TopologyScene::resetFolding()
{
  int gpus = 0;
  for (const int machineGpus : m_machineShape)
    gpus += machineGpus;
  const bool fold = m_folding == MachineFolding::On ||
                    (m_folding == MachineFolding::Automatic && gpus > kAutoFoldGpus);
  m_folded.clear();
  for (int machine = 0; fold && machine < machineCount(); ++machine)
    m_folded.insert(machine);
}

void TopologyScene::setMachineFolded(int machine, bool folded)
{
  if (machine < 0 || machine >= machineCount() || machineFolded(machine) == folded)
    return;
  if (folded)
    m_folded.insert(machine);
  else
    m_folded.erase(machine);
  applyFolding();
}

MachineItem* TopologyScene::machineItem(int machine) const
{
  return machine >= 0 && machine < machineCount() ? m_machines[static_cast<std::size_t>(machine)]
                                                  : nullptr;
}

int TopologyScene::machineOfNode(int id) const
{
  const auto found = m_machineOfNode.find(id);
  return found == m_machineOfNode.end() ? -1 : found->second;
}

MachineItem* TopologyScene::machineAt(const QPointF& scenePos) const
{
  for (QGraphicsItem* item : items(scenePos)) {
    if (auto* machine = qgraphicsitem_cast<MachineItem*>(item))
      return machine;
  }
  return nullptr;
}

void TopologyScene::clearBundles()
{
  for (BundleItem* bundle : m_bundles)
    delete bundle;
  m_bundles.clear();
  for (QGraphicsRectItem* backdrop : m_backdrops)
    delete backdrop;
  m_backdrops.clear();
}

void TopologyScene::addBackdrops()
{
  if (m_bundles.empty())
    return;
  // Bundles run behind an unfolded machine's backdrop (below its own links and nodes), so they
  // do not cross its devices; lines only pass behind it, as they pass behind folded boxes.
  for (const MachineItem* machine : m_machines) {
    if (machine->folded())
      continue;
    auto* backdrop = new QGraphicsRectItem(machine->frameRect());
    backdrop->setPen(Qt::NoPen);
    backdrop->setBrush(palette().color(QPalette::Base));
    backdrop->setZValue(kBackdropZ);
    backdrop->setAcceptedMouseButtons(Qt::NoButton);
    addItem(backdrop);
    m_backdrops.push_back(backdrop);
  }
}

void TopologyScene::applyFolding()
{
  clearBundles();
  for (MachineItem* machine : m_machines)
    machine->setFolded(machineFolded(machine->machine()));
  const auto foldedMachineOf = [this](int nodeId) {
    const int machine = machineOfNode(nodeId);
    return machineFolded(machine) ? machine : -1;
  };
  for (const auto& [id, node] : m_nodes) {
    const bool shown = foldedMachineOf(id) < 0;
    node->setSelected(node->isSelected() && shown);
    node->setVisible(shown);
  }
  // One bundle per pair of ends, an end being a folded machine or a node: (is machine, id).
  struct Bundle {
    QPointF a, b;
    LinkKind kind = LinkKind::Network;
    int links = 0;
    double bandwidthGBps = 0;
  };
  std::map<std::tuple<bool, int, bool, int>, Bundle> bundles;
  for (const auto& [id, item] : m_links) {
    const TopologyLink& link = item->link();
    const int machineA = foldedMachineOf(link.a);
    const int machineB = foldedMachineOf(link.b);
    const bool shown = machineA < 0 && machineB < 0;
    item->setSelected(item->isSelected() && shown);
    item->setVisible(shown);
    if (!shown)
      item->label()->setVisible(false);
    if (shown || machineA == machineB)
      continue;
    const auto endA = std::make_pair(machineA >= 0, machineA >= 0 ? machineA : link.a);
    const auto endB = std::make_pair(machineB >= 0, machineB >= 0 ? machineB : link.b);
    const auto pointOf = [this](std::pair<bool, int> end) {
      return end.first ? machineItem(end.second)->boxRect().center() : nodeItem(end.second)->pos();
    };
    const auto [first, second] = std::minmax(endA, endB);
    Bundle& bundle =
        bundles[std::make_tuple(first.first, first.second, second.first, second.second)];
    if (bundle.links == 0) {
      bundle.a = pointOf(first);
      bundle.b = pointOf(second);
      bundle.kind = link.kind;
    }
    ++bundle.links;
    bundle.bandwidthGBps += link.bandwidthGBps;
  }
  for (const auto& [ends, bundle] : bundles) {
    auto* item =
        new BundleItem(bundle.a, bundle.b, bundle.kind, bundle.links, bundle.bandwidthGBps);
    addItem(item);
    addItem(item->label());
    m_bundles.push_back(item);
  }
  addBackdrops();
  updateLinkGeometry();
  updateLabels();
}

} // namespace cs::editor
