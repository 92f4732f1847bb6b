// The built-in layout: used when the build has no Graphviz or Graphviz fails. Deterministic and
// overlap-free by construction (every row is packed with a gap), which the tests rely on.

#include "layouttiers.h"
#include "topologylayout.h"

#include <QCoreApplication>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace cs::editor {

namespace {

constexpr double kGap = 40;    ///< between neighbours in a row
constexpr double kRowGap = 90; ///< between rows
constexpr std::size_t kMaxCircle = 16;
constexpr std::size_t kMaxRow = 16;

struct Row {
  int tier = 0;
  int order = 0;
  std::vector<const TopologyNode*> nodes;
};

class BuiltinLayout : public TopologyLayout
{
public:
  QString name() const override
  {
    return QCoreApplication::translate("cs::editor::TopologyLayout", "built-in");
  }

  std::optional<NodePositions> layout(const Topology& topology, const NodeSizeFunction& size,
                                      QString*) const override
  {
    NodePositions positions;
    std::vector<const TopologyNode*> gpus;
    std::vector<const TopologyNode*> others;
    for (const TopologyNode& node : topology.nodes)
      (node.kind == NodeKind::Gpu ? gpus : others).push_back(&node);
    std::sort(gpus.begin(), gpus.end(), [](const TopologyNode* a, const TopologyNode* b) {
      // Ranked GPUs in rank order, unassigned ones after them.
      const auto key = [](const TopologyNode* n) {
        return std::tuple(n->rank < 0, n->rank, n->id);
      };
      return key(a) < key(b);
    });

    const bool mesh = hasGpuToGpuLinks(topology) || others.empty();
    if (mesh && gpus.size() <= kMaxCircle)
      placeCircle(gpus, size, positions);
    else if (mesh)
      placeGrid(gpus, size, positions);
    else
      placeRows(gpus, size, positions);

    QRectF block;
    for (const TopologyNode* gpu : gpus)
      block |= rectAt(positions.at(gpu->id), size(gpu->kind));
    if (block.isNull())
      block = QRectF(0, 0, 0, 0);
    placeOthers(topology, others, size, block, positions);
    return positions;
  }

private:
  static QRectF rectAt(const QPointF& centre, const QSizeF& size)
  {
    return {centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(),
            size.height()};
  }

  /// Rank 0 at the top left and a flat top edge, so a ring of 4 is a square, not a diamond.
  static void placeCircle(const std::vector<const TopologyNode*>& gpus,
                          const NodeSizeFunction& size, NodePositions& positions)
  {
    const std::size_t n = gpus.size();
    if (n == 1) {
      positions[gpus.front()->id] = {0, 0};
      return;
    }
    const QSizeF glyph = size(NodeKind::Gpu);
    const double chord = std::hypot(glyph.width(), glyph.height()) + 50;
    const double radius =
        std::max(140.0, chord / (2 * std::sin(std::numbers::pi / static_cast<double>(n))));
    const double step = 2 * std::numbers::pi / static_cast<double>(n);
    const double start = -std::numbers::pi / 2 - step / 2;
    for (std::size_t i = 0; i < n; ++i) {
      const double angle = start + step * static_cast<double>(i);
      positions[gpus[i]->id] = {radius * std::cos(angle), radius * std::sin(angle)};
    }
  }

  static void placeGrid(const std::vector<const TopologyNode*>& gpus, const NodeSizeFunction& size,
                        NodePositions& positions)
  {
    const auto columns =
        static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(gpus.size()))));
    const QSizeF glyph = size(NodeKind::Gpu);
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      positions[gpus[i]->id] = {static_cast<double>(i % columns) * (glyph.width() + 2 * kGap),
                                static_cast<double>(i / columns) * (glyph.height() + kRowGap)};
    }
  }

  static void placeRows(const std::vector<const TopologyNode*>& gpus, const NodeSizeFunction& size,
                        NodePositions& positions)
  {
    const QSizeF glyph = size(NodeKind::Gpu);
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      positions[gpus[i]->id] = {static_cast<double>(i % kMaxRow) * (glyph.width() + kGap / 2),
                                static_cast<double>(i / kMaxRow) * (glyph.height() + 50)};
    }
  }

  /// Every non-GPU node in a row by (tier, kind), rows stacked above and below the GPU block,
  /// each node as close as the row allows to the mean x of the neighbours placed before it.
  static void placeOthers(const Topology& topology, const std::vector<const TopologyNode*>& others,
                          const NodeSizeFunction& size, const QRectF& block,
                          NodePositions& positions)
  {
    const std::map<int, int> tiers = layoutTiers(topology);
    std::map<std::pair<int, int>, Row> rows;
    for (const TopologyNode* node : others) {
      const int tier = tiers.at(node->id);
      Row& row = rows[{tier, kindOrder(node->kind)}];
      row.tier = tier;
      row.order = kindOrder(node->kind);
      row.nodes.push_back(node);
    }
    std::vector<Row*> byDistance;
    for (auto& [key, row] : rows)
      byDistance.push_back(&row);
    std::stable_sort(byDistance.begin(), byDistance.end(), [](const Row* a, const Row* b) {
      return std::pair(std::abs(a->tier), a->order) < std::pair(std::abs(b->tier), b->order);
    });

    std::map<int, std::vector<int>> neighbours;
    for (const TopologyLink& link : topology.links) {
      neighbours[link.a].push_back(link.b);
      neighbours[link.b].push_back(link.a);
    }
    // x first, nearest rows first, so farther rows follow the nodes they hang from.
    for (Row* row : byDistance)
      packRow(*row, neighbours, size, block.center().x(), positions);

    // Then y: rows below the GPUs in (tier, kind) order, rows above in reverse distance.
    double below = block.bottom();
    double above = block.top();
    for (auto& [key, row] : rows) {
      if (row.tier <= 0)
        continue;
      const double height = rowHeight(row, size);
      setRowY(row, below + kRowGap + height / 2, positions);
      below += kRowGap + height;
    }
    for (Row* row : byDistance) {
      if (row->tier > 0)
        continue;
      const double height = rowHeight(*row, size);
      setRowY(*row, above - kRowGap - height / 2, positions);
      above -= kRowGap + height;
    }
  }

  static double rowHeight(const Row& row, const NodeSizeFunction& size)
  {
    double height = 0;
    for (const TopologyNode* node : row.nodes)
      height = std::max(height, size(node->kind).height());
    return height;
  }

  static void setRowY(const Row& row, double y, NodePositions& positions)
  {
    for (const TopologyNode* node : row.nodes)
      positions[node->id].setY(y);
  }

  static void packRow(Row& row, const std::map<int, std::vector<int>>& neighbours,
                      const NodeSizeFunction& size, double fallbackX, NodePositions& positions)
  {
    std::vector<std::pair<double, const TopologyNode*>> wanted;
    for (const TopologyNode* node : row.nodes) {
      double sum = 0;
      int count = 0;
      if (const auto found = neighbours.find(node->id); found != neighbours.end()) {
        for (const int other : found->second) {
          if (const auto placed = positions.find(other); placed != positions.end()) {
            sum += placed->second.x();
            ++count;
          }
        }
      }
      wanted.emplace_back(count ? sum / count : std::numeric_limits<double>::quiet_NaN(), node);
    }
    // Nodes hanging from nothing go last, in id order.
    std::stable_sort(wanted.begin(), wanted.end(), [](const auto& a, const auto& b) {
      const bool aFree = std::isnan(a.first);
      const bool bFree = std::isnan(b.first);
      if (aFree != bFree)
        return bFree;
      return !aFree && a.first < b.first;
    });
    std::vector<double> xs;
    double drift = 0;
    int anchored = 0;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      const double width = size(wanted[i].second->kind).width();
      double x = std::isnan(wanted[i].first) ? (i ? xs.back() : fallbackX) : wanted[i].first;
      if (i > 0) {
        const double previousWidth = size(wanted[i - 1].second->kind).width();
        x = std::max(x, xs.back() + (previousWidth + width) / 2 + kGap);
      }
      if (!std::isnan(wanted[i].first)) {
        drift += x - wanted[i].first;
        ++anchored;
      }
      xs.push_back(x);
    }
    // Packing only pushes right; shifting back by the mean push keeps the row centred on what
    // it hangs from.
    const double shift = anchored ? drift / anchored : 0;
    for (std::size_t i = 0; i < wanted.size(); ++i)
      positions[wanted[i].second->id] = {xs[i] - shift, 0};
  }
};

} // namespace

std::unique_ptr<TopologyLayout> makeBuiltinLayout()
{
  return std::make_unique<BuiltinLayout>();
}

} // namespace cs::editor
