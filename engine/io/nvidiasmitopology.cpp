#include "nvidiasmitopology.h"

#include "model/linkfigures.h"

#include "model/topologypresets.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

namespace cs {

namespace {

using namespace linkfigures;

std::vector<std::string> tokens(std::string_view line)
{
  std::vector<std::string> out;
  std::string current;
  for (const char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!current.empty())
        out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty())
    out.push_back(std::move(current));
  return out;
}

/// Removes terminal colour sequences (ESC [ … letter) some drivers print around cells.
std::string stripEscapes(std::string_view text)
{
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i])))
        ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

bool isGpuName(const std::string& name, int* index = nullptr)
{
  if (name.size() < 4 || name.rfind("GPU", 0) != 0 ||
      !std::all_of(name.begin() + 3, name.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  if (index)
    *index = std::stoi(name.substr(3));
  return true;
}

class UnionFind
{
public:
  explicit UnionFind(int n) : m_parent(n) { std::iota(m_parent.begin(), m_parent.end(), 0); }
  int find(int x) { return m_parent[x] == x ? x : m_parent[x] = find(m_parent[x]); }
  void join(int a, int b) { m_parent[find(a)] = find(b); }

private:
  std::vector<int> m_parent;
};

struct Matrix {
  std::vector<std::string> devices;
  std::vector<std::vector<std::string>> cells; ///< row per device, in header order
  std::vector<std::string> socketKey; ///< NUMA or CPU affinity per device, "" when not shown
  std::map<std::string, std::string> legendNames; ///< "NIC0" → "mlx5_0"
};

std::optional<Matrix> parseMatrix(std::string_view text, Diagnostics& diagnostics)
{
  std::istringstream stream{std::string(text)};
  std::string raw;
  int lineNumber = 0;
  Matrix matrix;
  bool header = false;
  std::map<std::string, std::size_t> rowOf;
  int numaColumn = -1;
  int cpuColumn = -1;
  while (std::getline(stream, raw)) {
    ++lineNumber;
    const std::string line = stripEscapes(raw);
    const std::vector<std::string> words = tokens(line);
    if (words.empty())
      continue;
    if (!header) {
      if (std::find(words.begin(), words.end(), "GPU0") == words.end())
        continue;
      header = true;
      std::size_t w = 0;
      for (; w < words.size() && words[w] != "CPU" && words[w] != "NUMA"; ++w)
        matrix.devices.push_back(words[w]);
      // After the devices: "CPU Affinity" "NUMA Affinity" ["GPU NUMA ID"].
      for (std::size_t k = w, column = 0; k + 1 < words.size(); ++k) {
        if (words[k + 1] == "Affinity") {
          if (words[k] == "NUMA")
            numaColumn = static_cast<int>(column);
          if (words[k] == "CPU")
            cpuColumn = static_cast<int>(column);
          ++column;
          ++k;
        }
      }
      matrix.cells.assign(matrix.devices.size(), {});
      matrix.socketKey.assign(matrix.devices.size(), "");
      for (std::size_t d = 0; d < matrix.devices.size(); ++d)
        rowOf[matrix.devices[d]] = d;
      continue;
    }
    // Legend entries such as "NIC0: mlx5_0".
    if (words.size() == 2 && words[0].size() > 1 && words[0].back() == ':') {
      matrix.legendNames[words[0].substr(0, words[0].size() - 1)] = words[1];
      continue;
    }
    const auto row = rowOf.find(words[0]);
    if (row == rowOf.end() || !matrix.cells[row->second].empty())
      continue; // legend text and the like
    const std::size_t n = matrix.devices.size();
    if (words.size() < n + 1) {
      diagnostics.error("topology.smi-row", "line " + std::to_string(lineNumber) + ": row " +
                                                words[0] + " has " +
                                                std::to_string(words.size() - 1) +
                                                " cells, expected " + std::to_string(n));
      return std::nullopt;
    }
    matrix.cells[row->second].assign(words.begin() + 1, words.begin() + 1 + static_cast<long>(n));
    // NUMA affinity names the socket; older drivers print only the CPU affinity, which does too.
    const auto extra = [&](int column) -> std::string {
      const std::size_t at = n + 1 + static_cast<std::size_t>(column);
      return column >= 0 && words.size() > at ? words[at] : std::string();
    };
    const std::string numa = extra(numaColumn);
    if (!numa.empty() && numa != "N/A")
      matrix.socketKey[row->second] = "numa " + numa;
    else if (!extra(cpuColumn).empty() && extra(cpuColumn) != "N/A")
      matrix.socketKey[row->second] = "cpus " + extra(cpuColumn);
    for (std::size_t c = 0; c < n; ++c) {
      const std::string& cell = matrix.cells[row->second][c];
      static const std::set<std::string> known = {"X",    "PIX", "PXB", "PHB",
                                                  "NODE", "SYS", "PXN", "SOC"};
      const bool nv = cell.size() > 2 && cell.rfind("NV", 0) == 0 &&
                      std::all_of(cell.begin() + 2, cell.end(), [](char ch) {
                        return std::isdigit(static_cast<unsigned char>(ch));
                      });
      if (!nv && !known.count(cell)) {
        diagnostics.error("topology.smi-cell", "line " + std::to_string(lineNumber) + ", column " +
                                                   matrix.devices[c] + ": unknown relation \"" +
                                                   cell +
                                                   "\" (expected X, NV#, PIX, PXB, PHB, "
                                                   "NODE or SYS)");
        return std::nullopt;
      }
    }
  }
  if (!header) {
    diagnostics.error("topology.smi-parse", "no header row with GPU0 found: expected the matrix "
                                            "printed by `nvidia-smi topo -m`");
    return std::nullopt;
  }
  for (std::size_t d = 0; d < matrix.devices.size(); ++d) {
    if (matrix.cells[d].empty()) {
      diagnostics.error("topology.smi-row", "the matrix has no row for " + matrix.devices[d]);
      return std::nullopt;
    }
  }
  return matrix;
}

int nvlinkCount(const std::string& cell)
{
  return cell.rfind("NV", 0) == 0 && cell.size() > 2 ? std::stoi(cell.substr(2)) : 0;
}

} // namespace

TopologyReadResult readNvidiaSmiTopology(std::string_view text)
{
  TopologyReadResult result;
  Diagnostics diagnostics;
  const std::optional<Matrix> parsed = parseMatrix(text, diagnostics);
  if (!parsed) {
    result.diagnostics = diagnostics.take();
    return result;
  }
  const Matrix& m = *parsed;
  const int n = static_cast<int>(m.devices.size());
  Topology topology;
  topology.name = "nvidia-smi-topology";
  topology.description = "imported from nvidia-smi topo -m";
  std::vector<int> nodeOf(n);
  std::vector<int> gpus;
  for (int d = 0; d < n; ++d) {
    int index = -1;
    const std::string& name = m.devices[d];
    nodeOf[d] = static_cast<int>(topology.nodes.size());
    if (isGpuName(name, &index)) {
      topology.nodes.push_back({nodeOf[d], NodeKind::Gpu, name, index, 0, 0});
      gpus.push_back(d);
    } else {
      const auto legend = m.legendNames.find(name);
      topology.nodes.push_back({nodeOf[d], NodeKind::Nic,
                                legend == m.legendNames.end() ? name : legend->second, -1, 0, 0});
    }
  }
  const auto link = [&topology](int a, int b, LinkKind kind, double bandwidth, double latency) {
    const int id = static_cast<int>(topology.links.size());
    topology.links.push_back({id, a, b, kind, bandwidth, latency, true});
  };

  // NVLink: a switch when every GPU pair of a large system shows the same count.
  std::set<int> counts;
  bool allPairs = true;
  for (const int a : gpus) {
    for (const int b : gpus) {
      if (a == b)
        continue;
      const int count = nvlinkCount(m.cells[a][b]);
      allPairs = allPairs && count > 0;
      counts.insert(count);
    }
  }
  if (gpus.size() >= 8 && allPairs && counts.size() == 1) {
    const int fabric = static_cast<int>(topology.nodes.size());
    topology.nodes.push_back({fabric, NodeKind::NvSwitch, "NVSwitch", -1, 0, 0});
    for (const int g : gpus)
      link(nodeOf[g], fabric, LinkKind::NvLink, *counts.begin() * kNvlink2PerLinkGBps,
           kNvlinkLatencyUs);
  } else {
    for (const int a : gpus) {
      for (const int b : gpus) {
        const int count = nvlinkCount(m.cells[a][b]);
        if (a < b && count > 0)
          link(nodeOf[a], nodeOf[b], LinkKind::NvLink, count * kNvlink2PerLinkGBps,
               kNvlinkLatencyUs);
      }
    }
  }

  // PCIe: PIX/PXB groups share a switch; PHB/NODE put groups on one socket.
  UnionFind switches(n);
  UnionFind sockets(n);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const std::string& cell = m.cells[a][b];
      if (cell == "PIX" || cell == "PXB")
        switches.join(a, b);
      if (cell == "PIX" || cell == "PXB" || cell == "PHB" || cell == "NODE")
        sockets.join(a, b);
    }
  }
  std::map<int, int> socketCpu;  // socket key → CPU node
  std::map<int, int> switchNode; // switch root → PCIe switch node
  std::map<int, int> groupSize;
  for (int d = 0; d < n; ++d)
    ++groupSize[switches.find(d)];
  // Devices that report the same NUMA node (or CPU affinity) share a socket too: NVLinked GPUs
  // show NV# instead of their PCIe relation.
  std::map<std::string, int> firstWithKey;
  for (int d = 0; d < n; ++d) {
    if (m.socketKey[d].empty())
      continue;
    const auto [it, inserted] = firstWithKey.emplace(m.socketKey[d], d);
    if (!inserted)
      sockets.join(d, it->second);
  }
  for (int d = 0; d < n; ++d) {
    const int socket = sockets.find(d);
    auto cpu = socketCpu.find(socket);
    if (cpu == socketCpu.end()) {
      const int id = static_cast<int>(topology.nodes.size());
      topology.nodes.push_back(
          {id, NodeKind::Cpu, "CPU" + std::to_string(socketCpu.size()), -1, 0, 0});
      cpu = socketCpu.emplace(socket, id).first;
    }
    const int group = switches.find(d);
    if (groupSize[group] < 2) {
      link(nodeOf[d], cpu->second, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
      continue;
    }
    auto sw = switchNode.find(group);
    if (sw == switchNode.end()) {
      const int id = static_cast<int>(topology.nodes.size());
      topology.nodes.push_back(
          {id, NodeKind::PcieSwitch, "PCIe" + std::to_string(switchNode.size()), -1, 0, 0});
      sw = switchNode.emplace(group, id).first;
      link(id, cpu->second, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
    }
    link(nodeOf[d], sw->second, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
  }
  std::vector<int> cpus;
  for (const auto& [socket, cpu] : socketCpu)
    cpus.push_back(cpu);
  for (std::size_t a = 0; a < cpus.size(); ++a) {
    for (std::size_t b = a + 1; b < cpus.size(); ++b)
      link(cpus[a], cpus[b], LinkKind::Smp, kSmpGBps, kSmpLatencyUs);
  }
  if (gpus.empty())
    diagnostics.error("topology.smi-no-gpu", "the matrix lists no GPU");
  layoutInRows(topology);
  if (!diagnostics.hasErrors())
    result.topology = std::move(topology);
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
