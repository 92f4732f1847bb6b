#include "nvidiasmitopology_p.h"

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

/// Reads the matrix line by line: the header row names the devices (and where the affinity
/// columns are), each device's row gives its relation to every device, legend lines name NICs.
class MatrixParser
{
public:
  explicit MatrixParser(Diagnostics& diagnostics) : m_diagnostics(diagnostics) {}

  std::optional<Matrix> parse(std::string_view text)
  {
    std::istringstream stream{std::string(text)};
    std::string raw;
    while (std::getline(stream, raw)) {
      ++m_lineNumber;
      const std::vector<std::string> words = tokens(stripEscapes(raw));
      if (words.empty())
        continue;
      if (!m_header)
        readHeader(words);
      else if (!readLine(words))
        return std::nullopt;
    }
    return finish();
  }

private:
  void readHeader(const std::vector<std::string>& words)
  {
    if (std::find(words.begin(), words.end(), "GPU0") == words.end())
      return;
    m_header = true;
    std::size_t w = 0;
    for (; w < words.size() && words[w] != "CPU" && words[w] != "NUMA"; ++w)
      m_matrix.devices.push_back(words[w]);
    // After the devices: "CPU Affinity" "NUMA Affinity" ["GPU NUMA ID"].
    for (std::size_t k = w, column = 0; k + 1 < words.size(); ++k) {
      if (words[k + 1] == "Affinity") {
        if (words[k] == "NUMA")
          m_numaColumn = static_cast<int>(column);
        if (words[k] == "CPU")
          m_cpuColumn = static_cast<int>(column);
        ++column;
        ++k;
      }
    }
    m_matrix.cells.assign(m_matrix.devices.size(), {});
    m_matrix.socketKey.assign(m_matrix.devices.size(), "");
    for (std::size_t d = 0; d < m_matrix.devices.size(); ++d)
      m_rowOf[m_matrix.devices[d]] = d;
  }

  /// A legend entry, a device's row, or text to skip; false after an error.
  bool readLine(const std::vector<std::string>& words)
  {
    // Legend entries such as "NIC0: mlx5_0".
    if (words.size() == 2 && words[0].size() > 1 && words[0].back() == ':') {
      m_matrix.legendNames[words[0].substr(0, words[0].size() - 1)] = words[1];
      return true;
    }
    const auto row = m_rowOf.find(words[0]);
    if (row == m_rowOf.end() || !m_matrix.cells[row->second].empty())
      return true; // legend text and the like
    const std::size_t n = m_matrix.devices.size();
    if (words.size() < n + 1) {
      m_diagnostics.error("topology.smi-row", "line " + std::to_string(m_lineNumber) + ": row " +
                                                  words[0] + " has " +
                                                  std::to_string(words.size() - 1) +
                                                  " cells, expected " + std::to_string(n));
      return false;
    }
    m_matrix.cells[row->second].assign(words.begin() + 1, words.begin() + 1 + static_cast<long>(n));
    m_matrix.socketKey[row->second] = socketKeyOf(words);
    return checkCells(m_matrix.cells[row->second]);
  }

  /// NUMA affinity names the socket; older drivers print only the CPU affinity, which does too.
  std::string socketKeyOf(const std::vector<std::string>& words) const
  {
    const std::size_t n = m_matrix.devices.size();
    const auto extra = [&](int column) -> std::string {
      const std::size_t at = n + 1 + static_cast<std::size_t>(column);
      return column >= 0 && words.size() > at ? words[at] : std::string();
    };
    const std::string numa = extra(m_numaColumn);
    if (!numa.empty() && numa != "N/A")
      return "numa " + numa;
    const std::string cpus = extra(m_cpuColumn);
    if (!cpus.empty() && cpus != "N/A")
      return "cpus " + cpus;
    return {};
  }

  bool checkCells(const std::vector<std::string>& cells)
  {
    static const std::set<std::string> known = {"X",    "PIX", "PXB", "PHB",
                                                "NODE", "SYS", "PXN", "SOC"};
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string& cell = cells[c];
      const bool nv = cell.size() > 2 && cell.rfind("NV", 0) == 0 &&
                      std::all_of(cell.begin() + 2, cell.end(), [](char ch) {
                        return std::isdigit(static_cast<unsigned char>(ch));
                      });
      if (!nv && !known.count(cell)) {
        m_diagnostics.error("topology.smi-cell",
                            "line " + std::to_string(m_lineNumber) + ", column " +
                                m_matrix.devices[c] + ": unknown relation \"" + cell +
                                "\" (expected X, NV#, PIX, PXB, PHB, NODE or SYS)");
        return false;
      }
    }
    return true;
  }

  std::optional<Matrix> finish()
  {
    if (!m_header) {
      m_diagnostics.error("topology.smi-parse", "no header row with GPU0 found: expected the "
                                                "matrix printed by `nvidia-smi topo -m`");
      return std::nullopt;
    }
    for (std::size_t d = 0; d < m_matrix.devices.size(); ++d) {
      if (m_matrix.cells[d].empty()) {
        m_diagnostics.error("topology.smi-row", "the matrix has no row for " + m_matrix.devices[d]);
        return std::nullopt;
      }
    }
    return std::move(m_matrix);
  }

  Diagnostics& m_diagnostics;
  Matrix m_matrix;
  bool m_header = false;
  int m_lineNumber = 0;
  std::map<std::string, std::size_t> m_rowOf;
  int m_numaColumn = -1;
  int m_cpuColumn = -1;
};

int nvlinkCount(const std::string& cell)
{
  return cell.rfind("NV", 0) == 0 && cell.size() > 2 ? std::stoi(cell.substr(2)) : 0;
}

/// Turns the parsed matrix into nodes and links: GPUs and NICs, NVLink (a switch when every pair
/// of a large system shows the same count), PCIe switches and the CPU sockets they hang off.
class TopologyFromMatrix
{
public:
  explicit TopologyFromMatrix(const Matrix& matrix)
      : m_matrix(matrix), m_devices(static_cast<int>(matrix.devices.size())),
        m_nodeOf(static_cast<std::size_t>(m_devices))
  {
    m_topology.name = "nvidia-smi-topology";
    m_topology.description = "imported from nvidia-smi topo -m";
  }

  Topology build()
  {
    addDevices();
    addNvlinks();
    addPcie();
    return std::move(m_topology);
  }
  bool hasGpus() const { return !m_gpus.empty(); }

private:
  int addNode(NodeKind kind, std::string name, int index = -1)
  {
    const int id = static_cast<int>(m_topology.nodes.size());
    m_topology.nodes.push_back({id, kind, std::move(name), index, 0, 0});
    return id;
  }
  void link(int a, int b, LinkKind kind, double bandwidth, double latency)
  {
    const int id = static_cast<int>(m_topology.links.size());
    m_topology.links.push_back({id, a, b, kind, bandwidth, latency, true});
  }

  void addDevices()
  {
    for (int d = 0; d < m_devices; ++d) {
      int index = -1;
      const std::string& name = m_matrix.devices[d];
      if (isGpuName(name, &index)) {
        m_nodeOf[d] = addNode(NodeKind::Gpu, name, index);
        m_gpus.push_back(d);
      } else {
        const auto legend = m_matrix.legendNames.find(name);
        m_nodeOf[d] =
            addNode(NodeKind::Nic, legend == m_matrix.legendNames.end() ? name : legend->second);
      }
    }
  }

  void addNvlinks()
  {
    std::set<int> counts;
    bool allPairs = true;
    for (const int a : m_gpus) {
      for (const int b : m_gpus) {
        if (a == b)
          continue;
        const int count = nvlinkCount(m_matrix.cells[a][b]);
        allPairs = allPairs && count > 0;
        counts.insert(count);
      }
    }
    if (m_gpus.size() >= 8 && allPairs && counts.size() == 1) {
      const int fabric = addNode(NodeKind::NvSwitch, "NVSwitch");
      for (const int g : m_gpus)
        link(m_nodeOf[g], fabric, LinkKind::NvLink, *counts.begin() * kNvlink2PerLinkGBps,
             kNvlinkLatencyUs);
      return;
    }
    for (const int a : m_gpus) {
      for (const int b : m_gpus) {
        const int count = nvlinkCount(m_matrix.cells[a][b]);
        if (a < b && count > 0)
          link(m_nodeOf[a], m_nodeOf[b], LinkKind::NvLink, count * kNvlink2PerLinkGBps,
               kNvlinkLatencyUs);
      }
    }
  }

  /// PIX/PXB groups share a switch; PHB/NODE put groups on one socket, and so does reporting the
  /// same NUMA node (or CPU affinity): NVLinked GPUs show NV# instead of their PCIe relation.
  void addPcie()
  {
    UnionFind switches(m_devices);
    UnionFind sockets(m_devices);
    for (int a = 0; a < m_devices; ++a) {
      for (int b = 0; b < m_devices; ++b) {
        const std::string& cell = m_matrix.cells[a][b];
        if (cell == "PIX" || cell == "PXB")
          switches.join(a, b);
        if (cell == "PIX" || cell == "PXB" || cell == "PHB" || cell == "NODE")
          sockets.join(a, b);
      }
    }
    std::map<std::string, int> firstWithKey;
    for (int d = 0; d < m_devices; ++d) {
      if (m_matrix.socketKey[d].empty())
        continue;
      const auto [it, inserted] = firstWithKey.emplace(m_matrix.socketKey[d], d);
      if (!inserted)
        sockets.join(d, it->second);
    }
    std::map<int, int> groupSize;
    for (int d = 0; d < m_devices; ++d)
      ++groupSize[switches.find(d)];
    for (int d = 0; d < m_devices; ++d)
      attachToSocket(d, cpuOfSocket(sockets.find(d)), switches.find(d), groupSize);
    linkSockets();
  }

  int cpuOfSocket(int socket)
  {
    auto cpu = m_socketCpu.find(socket);
    if (cpu == m_socketCpu.end())
      cpu = m_socketCpu
                .emplace(socket, addNode(NodeKind::Cpu, "CPU" + std::to_string(m_socketCpu.size())))
                .first;
    return cpu->second;
  }

  /// A device alone on its PCIe switch hangs off the CPU; a group shares one switch node.
  void attachToSocket(int device, int cpu, int group, std::map<int, int>& groupSize)
  {
    if (groupSize[group] < 2) {
      link(m_nodeOf[device], cpu, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
      return;
    }
    auto sw = m_switchNode.find(group);
    if (sw == m_switchNode.end()) {
      const int id = addNode(NodeKind::PcieSwitch, "PCIe" + std::to_string(m_switchNode.size()));
      sw = m_switchNode.emplace(group, id).first;
      link(id, cpu, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
    }
    link(m_nodeOf[device], sw->second, LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
  }

  void linkSockets()
  {
    std::vector<int> cpus;
    for (const auto& [socket, cpu] : m_socketCpu)
      cpus.push_back(cpu);
    for (std::size_t a = 0; a < cpus.size(); ++a) {
      for (std::size_t b = a + 1; b < cpus.size(); ++b)
        link(cpus[a], cpus[b], LinkKind::Smp, kSmpGBps, kSmpLatencyUs);
    }
  }

  const Matrix& m_matrix;
  int m_devices;
  Topology m_topology;
  std::vector<int> m_nodeOf;       ///< node id of each device
  std::vector<int> m_gpus;         ///< devices that are GPUs
  std::map<int, int> m_socketCpu;  ///< socket root → CPU node
  std::map<int, int> m_switchNode; ///< switch root → PCIe switch node
};

} // namespace

TopologyReadResult readNvidiaSmiTopology(std::string_view text)
{
  TopologyReadResult result;
  Diagnostics diagnostics;
  const std::optional<Matrix> parsed = MatrixParser(diagnostics).parse(text);
  if (!parsed) {
    result.diagnostics = diagnostics.take();
    return result;
  }
  TopologyFromMatrix builder(*parsed);
  Topology topology = builder.build();
  if (!builder.hasGpus())
    diagnostics.error("topology.smi-no-gpu", "the matrix lists no GPU");
  layoutInRows(topology);
  if (!diagnostics.hasErrors())
    result.topology = std::move(topology);
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
