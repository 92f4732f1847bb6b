#include "topology.h"

#include <algorithm>
#include <array>

namespace cs {

namespace {

constexpr std::array<std::string_view, 6> kNodeKindNames = {"gpu", "nvswitch", "pcie-switch",
                                                            "nic", "cpu",      "network-switch"};
constexpr std::array<std::string_view, 4> kLinkKindNames = {"nvlink", "pcie", "network", "smp"};

template <typename Item> const Item* findById(const std::vector<Item>& items, int id)
{
  // Presets and most files number their items 0, 1, 2, ...: then the id is the position.
  if (id >= 0 && static_cast<std::size_t>(id) < items.size() && items[id].id == id)
    return &items[id];
  const auto found =
      std::find_if(items.begin(), items.end(), [id](const Item& item) { return item.id == id; });
  return found == items.end() ? nullptr : &*found;
}

template <typename Item> int nextId(const std::vector<Item>& items)
{
  int highest = -1;
  for (const Item& item : items)
    highest = std::max(highest, item.id);
  return highest + 1;
}

} // namespace

std::string_view nodeKindName(NodeKind kind)
{
  return kNodeKindNames[static_cast<std::size_t>(kind)];
}

std::optional<NodeKind> parseNodeKind(std::string_view text)
{
  for (std::size_t i = 0; i < kNodeKindNames.size(); ++i) {
    if (kNodeKindNames[i] == text)
      return static_cast<NodeKind>(i);
  }
  return std::nullopt;
}

std::string_view linkKindName(LinkKind kind)
{
  return kLinkKindNames[static_cast<std::size_t>(kind)];
}

std::optional<LinkKind> parseLinkKind(std::string_view text)
{
  for (std::size_t i = 0; i < kLinkKindNames.size(); ++i) {
    if (kLinkKindNames[i] == text)
      return static_cast<LinkKind>(i);
  }
  return std::nullopt;
}

const TopologyNode* Topology::node(int id) const
{
  return findById(nodes, id);
}

const TopologyLink* Topology::link(int id) const
{
  return findById(links, id);
}

const TopologyNode* Topology::gpuNode(int rank) const
{
  const auto found = std::find_if(nodes.begin(), nodes.end(), [rank](const TopologyNode& n) {
    return n.kind == NodeKind::Gpu && n.rank == rank;
  });
  return found == nodes.end() ? nullptr : &*found;
}

int Topology::rankCount() const
{
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const TopologyNode& n) {
    return n.kind == NodeKind::Gpu && n.rank >= 0;
  }));
}

int Topology::nextNodeId() const
{
  return nextId(nodes);
}

int Topology::nextLinkId() const
{
  return nextId(links);
}

} // namespace cs
