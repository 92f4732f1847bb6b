#include "fabricpresets.h"
#include "linkfigures.h"
#include "presetbuilder_p.h"
#include "wholetext.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace cs {

namespace {

using namespace linkfigures;

/// What a node of each GPU generation brings: NVLink bandwidth per GPU and direction through its
/// NVSwitches, the PCIe generation between GPU and NIC, and the NIC its DGX ships with.
struct NodeFigures {
  const char* key;     ///< in the preset name
  const char* product; ///< for people
  double nvlinkGBps;
  double pcieGBps;
  double nicGbps;
};

constexpr NodeFigures kH100{"h100", "DGX H100", 450, kPcieGen5GBps, 400};
constexpr NodeFigures kA100{"a100", "DGX A100", 300, kPcieGen4GBps, 200};

const NodeFigures& figuresOf(FabricGpu gpu)
{
  return gpu == FabricGpu::A100 ? kA100 : kH100;
}

constexpr double kGbpsPerGBps = 8;

/// "400", "2.5": the shortest form of a figure, as people write it.
std::string shortest(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}
constexpr double kGpuSpacing = 120;
constexpr double kBlockGap = 240;
constexpr double kBlockHeight = 600;

bool fail(std::string* error, std::string message)
{
  if (error)
    *error = std::move(message);
  return false;
}

/// Reads one optional "-nicsK", "-Bg" or "-osR" part into `options`.
bool parseSuffix(std::string_view part, FabricOptions& options, std::string* error)
{
  if (part.starts_with("nics")) {
    const std::optional<int> nics = positiveFromWholeText<int>(part.substr(4));
    if (!nics)
      return fail(error, "\"" + std::string(part) + "\": expected nicsK, K NICs per node");
    options.nicsPerNode = *nics;
    return true;
  }
  if (part.starts_with("os")) {
    const std::optional<double> ratio = positiveFromWholeText<double>(part.substr(2));
    if (!ratio || *ratio < 1 || !std::isfinite(*ratio))
      return fail(error, "\"" + std::string(part) + "\": expected osR, an oversubscription >= 1");
    options.oversubscription = *ratio;
    return true;
  }
  if (part.ends_with("g")) {
    const std::optional<double> gbps =
        positiveFromWholeText<double>(part.substr(0, part.size() - 1));
    if (!gbps || !std::isfinite(*gbps))
      return fail(error, "\"" + std::string(part) + "\": expected Bg, a NIC speed in Gb/s");
    options.nicGbps = *gbps;
    return true;
  }
  return fail(error, "\"" + std::string(part) + "\" is not nicsK, Bg (NIC Gb/s) or osR");
}

bool checkRanges(const FabricOptions& options, std::string* error)
{
  if (options.nodes < 2 || options.nodes > kMaxFabricNodes)
    return fail(error, "the node count must be between 2 and " + std::to_string(kMaxFabricNodes));
  if (options.gpusPerNode < 1 || options.gpusPerNode > 16)
    return fail(error, "the GPUs per node must be between 1 and 16");
  if (options.nicsPerNode < 1 || options.nicsPerNode > options.gpusPerNode ||
      options.gpusPerNode % options.nicsPerNode != 0)
    return fail(error, std::to_string(options.nicsPerNode) + " NICs cannot serve " +
                           std::to_string(options.gpusPerNode) + " GPUs per node evenly");
  return true;
}

/// "16x8" into nodes and GPUs per node.
bool parseShape(std::string_view shape, FabricOptions& options, std::string* error)
{
  const std::size_t x = shape.find('x');
  const std::optional<int> nodes =
      x == std::string_view::npos ? std::nullopt : positiveFromWholeText<int>(shape.substr(0, x));
  const std::optional<int> gpus =
      x == std::string_view::npos ? std::nullopt : positiveFromWholeText<int>(shape.substr(x + 1));
  if (!nodes || !gpus)
    return fail(error, "\"" + std::string(shape) + "\": expected NxG, N nodes of G GPUs");
  options.nodes = *nodes;
  options.gpusPerNode = *gpus;
  options.nicsPerNode = *gpus;
  return true;
}

/// One node's GPUs (a row), its NVSwitch (below) and its NICs (above), at block origin (x0, y0).
/// Returns the NICs' node ids, rail by rail.
std::vector<int> addNodeBlock(PresetBuilder& builder, const FabricOptions& options, int index,
                              double x0, double y0)
{
  const NodeFigures& figures = figuresOf(options.gpu);
  const int gpusPerNic = options.gpusPerNode / options.nicsPerNode;
  const std::string prefix = "node" + std::to_string(index) + "-";
  const double width = kGpuSpacing * (options.gpusPerNode - 1);
  const int nvswitch =
      builder.node(NodeKind::NvSwitch, prefix + "NVSwitch", x0 + width / 2, y0 + 200);
  std::vector<int> nics;
  for (int k = 0; k < options.nicsPerNode; ++k) {
    const double x = x0 + kGpuSpacing * (k * gpusPerNic + (gpusPerNic - 1) / 2.0);
    nics.push_back(builder.node(NodeKind::Nic, prefix + "NIC" + std::to_string(k), x, y0 - 150));
  }
  for (int g = 0; g < options.gpusPerNode; ++g) {
    const int rank = index * options.gpusPerNode + g;
    const int gpu =
        builder.node(NodeKind::Gpu, "GPU" + std::to_string(rank), x0 + kGpuSpacing * g, y0, rank);
    builder.link(gpu, nvswitch, LinkKind::NvLink, figures.nvlinkGBps, kNvlinkLatencyUs);
    builder.link(gpu, nics[g / gpusPerNic], LinkKind::Pcie, figures.pcieGBps, kPcieLatencyUs);
  }
  return nics;
}

std::string describe(const FabricOptions& options, int leavesPerRail, bool spines)
{
  const NodeFigures& figures = figuresOf(options.gpu);
  std::string text = std::to_string(options.nodes) + " x " + figures.product + "-like nodes (" +
                     std::to_string(options.nodes * options.gpusPerNode) +
                     " GPUs): NVSwitch inside each node (" + shortest(figures.nvlinkGBps) +
                     " GB/s per GPU and direction); " + std::to_string(options.nicsPerNode) +
                     " NICs of " + shortest(options.nicGbps) + " Gb/s per node on " +
                     std::to_string(options.nicsPerNode) + " rails, " +
                     std::to_string(leavesPerRail) + " leaf switch" +
                     (leavesPerRail == 1 ? "" : "es") + " per rail";
  if (spines)
    text += "; spines " + shortest(options.oversubscription) +
            ":1 oversubscribed (one node for the spine layer)";
  return text;
}

} // namespace

std::optional<FabricOptions> parseFabricName(std::string_view name, std::string* error)
{
  if (!name.starts_with("fabric-"))
    return std::nullopt;
  FabricOptions options;
  std::string_view rest = name.substr(7);
  if (rest.starts_with("a100-"))
    options.gpu = FabricGpu::A100;
  else if (!rest.starts_with("h100-")) {
    fail(error, std::string(name) + ": expected fabric-h100-NxG or fabric-a100-NxG");
    return std::nullopt;
  }
  options.nicGbps = figuresOf(options.gpu).nicGbps;
  rest.remove_prefix(5);
  std::vector<std::string_view> parts;
  for (std::size_t dash = rest.find('-'); dash != std::string_view::npos; dash = rest.find('-')) {
    parts.push_back(rest.substr(0, dash));
    rest.remove_prefix(dash + 1);
  }
  parts.push_back(rest);
  bool ok = parseShape(parts.front(), options, error);
  for (std::size_t i = 1; ok && i < parts.size(); ++i)
    ok = parseSuffix(parts[i], options, error);
  if (!ok || !checkRanges(options, error)) {
    if (error)
      *error = std::string(name) + ": " + *error;
    return std::nullopt;
  }
  return options;
}

std::string fabricName(const FabricOptions& options)
{
  const NodeFigures& figures = figuresOf(options.gpu);
  std::string name = std::string("fabric-") + figures.key + "-" + std::to_string(options.nodes) +
                     "x" + std::to_string(options.gpusPerNode);
  if (options.nicsPerNode != options.gpusPerNode)
    name += "-nics" + std::to_string(options.nicsPerNode);
  if (options.nicGbps != figures.nicGbps)
    name += "-" + shortest(options.nicGbps) + "g";
  if (options.oversubscription != 1)
    name += "-os" + shortest(options.oversubscription);
  return name;
}

Topology makeFabricTopology(const FabricOptions& options)
{
  const int leavesPerRail = (options.nodes + kNodesPerLeaf - 1) / kNodesPerLeaf;
  const bool spines = options.nicsPerNode > 1 || leavesPerRail > 1;
  PresetBuilder builder(fabricName(options), describe(options, leavesPerRail, spines));

  const int columns = static_cast<int>(std::ceil(std::sqrt(options.nodes)));
  const double blockWidth = kGpuSpacing * options.gpusPerNode + kBlockGap;
  const double nicGBps = options.nicGbps / kGbpsPerGBps;
  const int rails = options.nicsPerNode;
  const double leafRowWidth = blockWidth * columns;
  const double leafSpacing = leafRowWidth / (rails * leavesPerRail);
  std::vector<int> leaves;
  for (int rail = 0; rail < rails; ++rail) {
    for (int l = 0; l < leavesPerRail; ++l) {
      const std::string name = "rail" + std::to_string(rail) +
                               (leavesPerRail == 1 ? "-leaf" : "-leaf" + std::to_string(l));
      const double x = leafSpacing * (rail * leavesPerRail + l + 0.5);
      leaves.push_back(builder.node(NodeKind::NetworkSwitch, name, x, -500));
    }
  }
  if (spines) {
    const int spine = builder.node(NodeKind::NetworkSwitch, "Spines", leafRowWidth / 2, -800);
    for (std::size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      const int underLeaf = std::min(
          kNodesPerLeaf, options.nodes - static_cast<int>(leaf % leavesPerRail) * kNodesPerLeaf);
      builder.link(leaves[leaf], spine, LinkKind::Network,
                   underLeaf * nicGBps / options.oversubscription, kNetworkLatencyUs);
    }
  }
  for (int n = 0; n < options.nodes; ++n) {
    const double x0 = blockWidth * (n % columns);
    const double y0 = kBlockHeight * (n / columns);
    const std::vector<int> nics = addNodeBlock(builder, options, n, x0, y0);
    for (int rail = 0; rail < rails; ++rail)
      builder.link(nics[rail], leaves[rail * leavesPerRail + n / kNodesPerLeaf], LinkKind::Network,
                   nicGBps, kNetworkLatencyUs);
  }
  return builder.take();
}

} // namespace cs
