#include "nccltopologyreader_p.h"

#include "model/linkfigures.h"

#include "model/topologypresets.h"
#include "textposition_p.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace cs {

namespace {

using namespace linkfigures;

std::string lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

double pcieGBps(const pugi::xml_node& pci)
{
  const double speed = std::atof(pci.attribute("link_speed").as_string("")); // "16.0 GT/s PCIe"
  const int width = pci.attribute("link_width").as_int(0);
  if (speed <= 0 || width <= 0)
    return kPcieGen4GBps;
  const double coding = speed >= 8 ? 128.0 / 130.0 : 0.8;
  return speed * width * coding / 8;
}

double nvlinkPerLinkGBps(int sm)
{
  if (sm > 0 && sm < 70)
    return 20;
  if (sm >= 100)
    return 50;
  return 25;
}

struct PendingNvlink {
  int gpu = 0; ///< node id
  std::string busId;
  std::string target;
  int count = 0;
  std::string tclass;
  int line = 0;
};

class NcclImporter
{
public:
  NcclImporter(std::string_view text, Diagnostics& diagnostics)
      : m_positions(text), m_diagnostics(diagnostics)
  {
  }

  void visit(const pugi::xml_node& element, int parent, double parentGBps)
  {
    for (const pugi::xml_node& child : element.children()) {
      const std::string name = child.name();
      if (name == "cpu") {
        const int cpu =
            addNode(NodeKind::Cpu, "CPU" + std::string(child.attribute("numaid").as_string(
                                               std::to_string(m_cpus.size()).c_str())));
        m_cpus.push_back(cpu);
        visit(child, cpu, kPcieGen4GBps);
      } else if (name == "pci") {
        visitPci(child, parent);
      } else if (name == "nic") {
        addNics(child, parent, parentGBps);
      } else if (name == "gpu") {
        addGpu(child, parent, parentGBps, "");
      }
    }
  }

  void finish()
  {
    for (std::size_t a = 0; a < m_cpus.size(); ++a) {
      for (std::size_t b = a + 1; b < m_cpus.size(); ++b)
        addLink(m_cpus[a], m_cpus[b], LinkKind::Smp, kSmpGBps, kSmpLatencyUs);
    }
    // A GPU lists one <nvlink> per NVSwitch chip it reaches (6 on a DGX A100); the fabric is
    // one switch node and the GPU's port to it carries all of those links.
    std::map<int, int> switchLinks;
    for (const PendingNvlink& link : m_nvlinks) {
      const double bandwidth = link.count * nvlinkPerLinkGBps(m_sm[link.gpu]);
      if (link.tclass == "0x068000") {
        switchLinks[link.gpu] += link.count;
        continue;
      }
      const auto target = m_gpuByBus.find(link.target);
      if (link.tclass.rfind("0x03", 0) == 0 && target != m_gpuByBus.end()) {
        // Both GPUs list the link; keep it once.
        if (link.busId < link.target)
          addLink(link.gpu, target->second, LinkKind::NvLink, bandwidth, kNvlinkLatencyUs);
        continue;
      }
      m_diagnostics.warning("topology.nccl-nvlink-ignored",
                            "line " + std::to_string(link.line) + ": NVLink to " + link.target +
                                " (class " + link.tclass +
                                ") is not to a GPU or NVSwitch; ignored");
    }
    if (!switchLinks.empty()) {
      const int fabric = addNode(NodeKind::NvSwitch, "NVSwitch");
      for (const auto& [gpu, count] : switchLinks)
        addLink(gpu, fabric, LinkKind::NvLink, count * nvlinkPerLinkGBps(m_sm[gpu]),
                kNvlinkLatencyUs);
    }
  }

  Topology take() { return std::move(m_topology); }

private:
  int line(const pugi::xml_node& node) const
  {
    return m_positions.position(static_cast<std::size_t>(node.offset_debug())).line;
  }

  int addNode(NodeKind kind, std::string name, int rank = -1)
  {
    const int id = static_cast<int>(m_topology.nodes.size());
    m_topology.nodes.push_back({id, kind, std::move(name), rank, 0, 0});
    return id;
  }

  void addLink(int a, int b, LinkKind kind, double bandwidth, double latency)
  {
    if (a < 0 || b < 0)
      return;
    const int id = static_cast<int>(m_topology.links.size());
    m_topology.links.push_back({id, a, b, kind, bandwidth, latency, true});
  }

  void visitPci(const pugi::xml_node& pci, int parent)
  {
    const double bandwidth = pcieGBps(pci);
    const std::string busId = lower(pci.attribute("busid").as_string(""));
    if (pci.child("gpu")) {
      addGpu(pci.child("gpu"), parent, bandwidth, busId);
      return;
    }
    if (pci.child("nic")) {
      addNics(pci.child("nic"), parent, bandwidth);
      return;
    }
    if (!pci.child("pci"))
      return; // another device (storage, …): not part of the communication topology
    const int bridge = addNode(NodeKind::PcieSwitch, "PCIe " + busId);
    addLink(parent, bridge, LinkKind::Pcie, bandwidth, kPcieLatencyUs);
    visit(pci, bridge, bandwidth);
  }

  void addGpu(const pugi::xml_node& gpu, int parent, double bandwidth, const std::string& busId)
  {
    const pugi::xml_attribute dev = gpu.attribute("dev");
    const pugi::xml_attribute rankAttribute = gpu.attribute("rank");
    int rank = rankAttribute ? rankAttribute.as_int(-1) : dev ? dev.as_int(-1) : -1;
    if (rank < 0)
      rank = m_nextRank;
    m_nextRank = std::max(m_nextRank, rank + 1);
    if (!m_ranks.insert(rank).second) {
      m_diagnostics.error("topology.duplicate-rank", "line " + std::to_string(line(gpu)) +
                                                         ": rank " + std::to_string(rank) +
                                                         " is hosted by two GPUs");
    }
    const int node = addNode(
        NodeKind::Gpu, "GPU" + std::string(dev.as_string(std::to_string(rank).c_str())), rank);
    m_sm[node] = gpu.attribute("sm").as_int(0);
    addLink(parent, node, LinkKind::Pcie, bandwidth, kPcieLatencyUs);
    if (!busId.empty())
      m_gpuByBus[busId] = node;
    for (const pugi::xml_node& nvlink : gpu.children("nvlink")) {
      m_nvlinks.push_back({node, busId, lower(nvlink.attribute("target").as_string("")),
                           nvlink.attribute("count").as_int(1),
                           lower(nvlink.attribute("tclass").as_string("")), line(nvlink)});
    }
  }

  void addNics(const pugi::xml_node& nic, int parent, double bandwidth)
  {
    for (const pugi::xml_node& net : nic.children("net")) {
      const double speedMbps = net.attribute("speed").as_double(0);
      const double netGBps = speedMbps > 0 ? speedMbps / 8000 : bandwidth;
      const int node = addNode(NodeKind::Nic, net.attribute("name").as_string("NIC"));
      addLink(parent, node, LinkKind::Pcie, std::min(bandwidth, netGBps), kPcieLatencyUs);
    }
  }

  LineIndex m_positions;
  Diagnostics& m_diagnostics;
  Topology m_topology;
  std::vector<int> m_cpus;
  std::vector<PendingNvlink> m_nvlinks;
  std::map<std::string, int> m_gpuByBus;
  std::map<int, int> m_sm;
  std::set<int> m_ranks;
  int m_nextRank = 0;
};

} // namespace

TopologyReadResult readNcclTopologyXml(std::string_view text)
{
  TopologyReadResult result;
  Diagnostics diagnostics;
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
  if (!parsed) {
    const LineIndex positions(text);
    const auto where = positions.position(static_cast<std::size_t>(parsed.offset));
    diagnostics.error("topology.nccl-parse", "line " + std::to_string(where.line) + ", column " +
                                                 std::to_string(where.column) + ": " +
                                                 parsed.description());
    result.diagnostics = diagnostics.take();
    return result;
  }
  const pugi::xml_node system = document.child("system");
  if (!system) {
    diagnostics.error("topology.nccl-format",
                      "the root element is not <system>: expected the XML NCCL writes to "
                      "NCCL_TOPO_DUMP_FILE");
    result.diagnostics = diagnostics.take();
    return result;
  }
  NcclImporter importer(text, diagnostics);
  importer.visit(system, -1, kPcieGen4GBps);
  importer.finish();
  Topology topology = importer.take();
  topology.name = "nccl-topology";
  topology.description = "imported from an NCCL topology dump";
  if (topology.rankCount() == 0)
    diagnostics.error("topology.nccl-no-gpu", "the dump lists no <gpu>");
  layoutInRows(topology);
  if (!diagnostics.hasErrors())
    result.topology = std::move(topology);
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
