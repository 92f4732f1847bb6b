#include "topologypresets.h"
#include "fabricpresets.h"
#include "linkfigures.h"
#include "presetbuilder_p.h"
#include "wholetext.h"

#include <cmath>
#include <numbers>

namespace cs {

namespace {

using namespace linkfigures;

constexpr double kDefaultBandwidthGBps = 100;
constexpr double kDefaultLatencyUs = 2;
constexpr int kMaxParametricRanks = 4096;

/// 8 GPUs in a row above one switch node standing for the whole NVSwitch fabric.
void addNvswitchNode(PresetBuilder& builder, int firstRank, double x0, double perGpuGBps,
                     const std::string& switchName)
{
  std::vector<int> gpus;
  for (int i = 0; i < 8; ++i)
    gpus.push_back(builder.gpu(firstRank + i, x0 + 120.0 * i, 0));
  const int fabric = builder.node(NodeKind::NvSwitch, switchName, x0 + 420, 200);
  for (const int gpu : gpus)
    builder.link(gpu, fabric, LinkKind::NvLink, perGpuGBps, kNvlinkLatencyUs);
}

Topology dgxH100()
{
  PresetBuilder builder("dgx-h100",
                        "NVIDIA DGX H100: 8 H100 GPUs on NVSwitch, 450 GB/s per GPU and "
                        "direction (18 NVLink 4 links)");
  addNvswitchNode(builder, 0, 0, 450, "NVSwitch");
  return builder.take();
}

Topology dgxA100()
{
  PresetBuilder builder("dgx-a100",
                        "NVIDIA DGX A100: 8 A100 GPUs on NVSwitch, 300 GB/s per GPU and "
                        "direction (12 NVLink 3 links)");
  addNvswitchNode(builder, 0, 0, 300, "NVSwitch");
  return builder.take();
}

Topology dgx1V100()
{
  PresetBuilder builder(
      "dgx1-v100", "NVIDIA DGX-1 (V100): hybrid cube-mesh of 6 NVLink 2 links per GPU, 25 GB/s per "
                   "link and direction (double links 50 GB/s); pairs without NVLink go through "
                   "PCIe switches and the two CPUs");
  // Two quads (0-3, 4-7) on the left and right, as in NVIDIA's block diagram.
  const double xs[8] = {0, 200, 0, 200, 500, 700, 500, 700};
  const double ys[8] = {0, 0, 200, 200, 0, 0, 200, 200};
  for (int i = 0; i < 8; ++i)
    builder.gpu(i, xs[i], ys[i]);
  // NVLink counts between GPU pairs (the published DGX-1V wiring; symmetric, rows sum to 6).
  constexpr int kLinks[8][8] = {{0, 2, 1, 1, 2, 0, 0, 0}, {2, 0, 1, 2, 0, 1, 0, 0},
                                {1, 1, 0, 2, 0, 0, 2, 0}, {1, 2, 2, 0, 0, 0, 0, 1},
                                {2, 0, 0, 0, 0, 2, 1, 1}, {0, 1, 0, 0, 2, 0, 1, 2},
                                {0, 0, 2, 0, 1, 1, 0, 2}, {0, 0, 0, 1, 1, 2, 2, 0}};
  for (int a = 0; a < 8; ++a) {
    for (int b = a + 1; b < 8; ++b) {
      if (kLinks[a][b] > 0)
        builder.link(a, b, LinkKind::NvLink, kNvlink2PerLinkGBps * kLinks[a][b], 0.7);
    }
  }
  // PCIe: GPU pairs (0,1) (2,3) (4,5) (6,7) share a switch; two switches per CPU socket.
  const int cpu0 = builder.node(NodeKind::Cpu, "CPU0", 100, 450);
  const int cpu1 = builder.node(NodeKind::Cpu, "CPU1", 600, 450);
  builder.link(cpu0, cpu1, LinkKind::Smp, 20, kSmpLatencyUs);
  for (int s = 0; s < 4; ++s) {
    const int sw = builder.node(NodeKind::PcieSwitch, "PCIe" + std::to_string(s), s < 2 ? 100 : 600,
                                s % 2 == 0 ? 330 : 380);
    builder.link(sw, s < 2 ? cpu0 : cpu1, LinkKind::Pcie, 16, kPcieLatencyUs);
    builder.link(2 * s, sw, LinkKind::Pcie, 16, kPcieLatencyUs);
    builder.link(2 * s + 1, sw, LinkKind::Pcie, 16, kPcieLatencyUs);
  }
  return builder.take();
}

Topology pcieServer()
{
  PresetBuilder builder("pcie-8gpu", "8-GPU PCIe Gen4 server: two PCIe switches with 4 GPUs each, "
                                     "joined through one CPU, one 400 Gb/s NIC on the CPU");
  const int cpu = builder.node(NodeKind::Cpu, "CPU0", 390, 300);
  for (int s = 0; s < 2; ++s) {
    const int sw =
        builder.node(NodeKind::PcieSwitch, "PCIe" + std::to_string(s), 180 + 480.0 * s, 150);
    builder.link(sw, cpu, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
    for (int i = 0; i < 4; ++i) {
      const int rank = 4 * s + i;
      const int gpu = builder.gpu(rank, 480.0 * s + 120.0 * i, 0);
      builder.link(gpu, sw, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
    }
  }
  const int nic = builder.node(NodeKind::Nic, "NIC0", 390, 450);
  builder.link(nic, cpu, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
  return builder.take();
}

Topology twoDgxH100()
{
  PresetBuilder builder(
      "2x-dgx-h100", "Two DGX H100-like nodes (ranks 0-7 and 8-15): NVSwitch inside each node, one "
                     "400 Gb/s NIC per GPU (PCIe Gen5) into one network switch");
  std::vector<int> nics;
  for (int n = 0; n < 2; ++n) {
    const double x0 = 1100.0 * n;
    const int firstGpu = builder.nextNode();
    addNvswitchNode(builder, 8 * n, x0, 450, "NVSwitch" + std::to_string(n));
    for (int i = 0; i < 8; ++i) {
      const int gpu = firstGpu + i;
      const int nic =
          builder.node(NodeKind::Nic, "NIC" + std::to_string(8 * n + i), x0 + 120.0 * i, -150);
      builder.link(gpu, nic, LinkKind::Pcie, kPcieGen5GBps, kPcieLatencyUs);
      nics.push_back(nic);
    }
  }
  const int network = builder.node(NodeKind::NetworkSwitch, "NetworkSwitch", 970, -350);
  for (const int nic : nics)
    builder.link(nic, network, LinkKind::Network, kNic400GBps, kNetworkLatencyUs);
  return builder.take();
}

std::vector<int> ringGpus(PresetBuilder& builder, int n)
{
  std::vector<int> gpus;
  const double radius = std::max(150.0, 40.0 * n);
  for (int r = 0; r < n; ++r) {
    const double angle = 2 * std::numbers::pi * r / n - std::numbers::pi / 2;
    gpus.push_back(
        builder.gpu(r, radius + radius * std::cos(angle), radius + radius * std::sin(angle)));
  }
  return gpus;
}

Topology ring(int n, double bandwidth, double latency)
{
  PresetBuilder builder("ring-" + std::to_string(n),
                        std::to_string(n) + " GPUs in a ring, each joined to the next by one link");
  const std::vector<int> gpus = ringGpus(builder, n);
  for (int r = 0; r < n; ++r) {
    if (n == 2 && r == 1)
      break; // two GPUs share one link, not two parallel ones
    builder.link(gpus[r], gpus[(r + 1) % n], LinkKind::NvLink, bandwidth, latency);
  }
  return builder.take();
}

Topology fullyConnected(int n, double bandwidth, double latency)
{
  PresetBuilder builder("fully-connected-" + std::to_string(n),
                        std::to_string(n) + " GPUs, a direct link between every pair");
  const std::vector<int> gpus = ringGpus(builder, n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b)
      builder.link(gpus[a], gpus[b], LinkKind::NvLink, bandwidth, latency);
  }
  return builder.take();
}

Topology torus(int rows, int columns, double bandwidth, double latency)
{
  PresetBuilder builder("torus-" + std::to_string(rows) + "x" + std::to_string(columns),
                        std::to_string(rows) + "x" + std::to_string(columns) +
                            " 2D torus: each GPU linked to its four neighbours, wrapping around");
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c)
      builder.gpu(r * columns + c, 150.0 * c, 150.0 * r);
  }
  // A dimension of 2 would wrap onto the same neighbour and one of 1 onto the GPU itself: the
  // wrap-around link exists only for dimensions of 3 or more.
  const auto linked = [](int next, int size) { return next < size || size > 2; };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      const int here = r * columns + c;
      if (linked(c + 1, columns))
        builder.link(here, r * columns + (c + 1) % columns, LinkKind::NvLink, bandwidth, latency);
      if (linked(r + 1, rows))
        builder.link(here, ((r + 1) % rows) * columns + c, LinkKind::NvLink, bandwidth, latency);
    }
  }
  return builder.take();
}

bool fail(std::string* error, std::string message)
{
  if (error)
    *error = std::move(message);
  return false;
}

} // namespace

std::vector<PresetInfo> topologyPresets()
{
  std::vector<PresetInfo> presets;
  for (const Topology& topology : {dgxH100(), dgxA100(), dgx1V100(), pcieServer(), twoDgxH100()})
    presets.push_back({topology.name, topology.description});
  presets.push_back({"ring-N", "N GPUs in a ring (default 100 GB/s, 2 µs per link; --bandwidth, "
                               "--latency)"});
  presets.push_back({"fully-connected-N", "N GPUs with a direct link between every pair"});
  presets.push_back({"torus-RxC", "R x C 2D torus, each GPU linked to its four neighbours"});
  presets.push_back({"fabric-h100-NxG",
                     "N DGX H100-like nodes of G GPUs on a rail-optimised network: one 400 Gb/s "
                     "NIC per GPU, leaf switches per rail, spines (suffixes: -nicsK NICs per "
                     "node, -200g NIC speed, -os2 spine oversubscription)"});
  presets.push_back({"fabric-a100-NxG", "the same with DGX A100-like nodes and 200 Gb/s NICs"});
  return presets;
}

std::optional<Topology> makePresetTopology(std::string_view name, const PresetOptions& options,
                                           std::string* error)
{
  if (name == "dgx-h100")
    return dgxH100();
  if (name == "dgx-a100")
    return dgxA100();
  if (name == "dgx1-v100")
    return dgx1V100();
  if (name == "pcie-8gpu")
    return pcieServer();
  if (name == "2x-dgx-h100")
    return twoDgxH100();
  if (name.starts_with("fabric-")) {
    const std::optional<FabricOptions> fabric = parseFabricName(name, error);
    return fabric ? std::optional(makeFabricTopology(*fabric)) : std::nullopt;
  }

  const double bandwidth = options.bandwidthGBps.value_or(kDefaultBandwidthGBps);
  const double latency = options.latencyUs.value_or(kDefaultLatencyUs);
  if (!(bandwidth > 0) || !std::isfinite(bandwidth) || !(latency >= 0) || !std::isfinite(latency)) {
    fail(error, "bandwidth must be positive and latency non-negative");
    return std::nullopt;
  }
  const auto withCount = [&](std::string_view prefix) -> std::optional<int> {
    if (!name.starts_with(prefix))
      return std::nullopt;
    const std::optional<int> n = positiveFromWholeText<int>(name.substr(prefix.size()));
    if (!n || *n < 2 || *n > kMaxParametricRanks) {
      fail(error, std::string(name) + ": the GPU count must be between 2 and " +
                      std::to_string(kMaxParametricRanks));
      return std::nullopt;
    }
    return n;
  };
  if (name.starts_with("ring-")) {
    const std::optional<int> n = withCount("ring-");
    return n ? std::optional(ring(*n, bandwidth, latency)) : std::nullopt;
  }
  if (name.starts_with("fully-connected-")) {
    const std::optional<int> n = withCount("fully-connected-");
    if (n && *n > 512) {
      fail(error, std::string(name) + ": at most 512 GPUs fully connected");
      return std::nullopt;
    }
    return n ? std::optional(fullyConnected(*n, bandwidth, latency)) : std::nullopt;
  }
  if (name.starts_with("torus-")) {
    const std::string_view shape = name.substr(6);
    const std::size_t x = shape.find('x');
    const std::optional<int> rows =
        x == std::string_view::npos ? std::nullopt : positiveFromWholeText<int>(shape.substr(0, x));
    const std::optional<int> columns = x == std::string_view::npos
                                           ? std::nullopt
                                           : positiveFromWholeText<int>(shape.substr(x + 1));
    if (!rows || !columns || *rows * static_cast<long>(*columns) < 2 ||
        *rows * static_cast<long>(*columns) > kMaxParametricRanks) {
      fail(error, std::string(name) + ": expected torus-RxC with 2 <= R*C <= " +
                      std::to_string(kMaxParametricRanks));
      return std::nullopt;
    }
    return torus(*rows, *columns, bandwidth, latency);
  }
  fail(error, "unknown topology preset \"" + std::string(name) +
                  "\" (cstudio topology --list shows them)");
  return std::nullopt;
}

void layoutInRows(Topology& topology)
{
  const auto row = [](NodeKind kind) {
    switch (kind) {
    case NodeKind::NvSwitch:
      return 0;
    case NodeKind::Gpu:
    case NodeKind::Nic:
      return 1;
    case NodeKind::PcieSwitch:
      return 2;
    case NodeKind::Cpu:
      return 3;
    case NodeKind::NetworkSwitch:
      return 4; // above the switches inside the node
    }
    return 1;
  };
  int used[5] = {0, 0, 0, 0, 0};
  for (TopologyNode& node : topology.nodes) {
    const int r = row(node.kind);
    node.x = 120.0 * used[r]++;
    node.y = r == 4 ? -150.0 : 150.0 * r;
  }
}

} // namespace cs
