#include "commands.h"
#include "output.h"

#include "io/dotwriter.h"
#include "io/topologyloader.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct TopologyOptions {
  bool list = false;
  std::string spec;
  bool json = false;
  bool dot = false;
  std::optional<double> bandwidth;
  std::optional<double> latency;
  std::string importFile;
  std::string output;
  CLI::App* show = nullptr;
  CLI::App* import = nullptr;
};

void printTopology(const Topology& topology)
{
  std::cout << topology.name << '\n';
  if (!topology.description.empty())
    std::cout << "  " << topology.description << '\n';
  std::cout << "  " << topology.nodes.size() << " nodes, " << topology.links.size() << " links, "
            << topology.rankCount() << " ranks\n\n  nodes\n";
  char line[160];
  for (const TopologyNode& node : topology.nodes) {
    std::snprintf(line, sizeof line, "    %4d  %-12s %-20s %s\n", node.id,
                  std::string(nodeKindName(node.kind)).c_str(), node.name.c_str(),
                  node.rank >= 0 ? ("rank " + std::to_string(node.rank)).c_str() : "");
    std::cout << line;
  }
  std::cout << "\n  links\n";
  for (const TopologyLink& link : topology.links) {
    const TopologyNode* a = topology.node(link.a);
    const TopologyNode* b = topology.node(link.b);
    std::snprintf(line, sizeof line, "    %4d  %-20s %-20s %-8s %8.1f GB/s %6.2f us%s\n", link.id,
                  a ? a->name.c_str() : "?", b ? b->name.c_str() : "?",
                  std::string(linkKindName(link.kind)).c_str(), link.bandwidthGBps, link.latencyUs,
                  link.duplex ? "" : "  half-duplex");
    std::cout << line;
  }
}

int runTopology(const TopologyOptions& options)
{
  if (options.list) {
    for (const PresetInfo& preset : topologyPresets()) {
      char line[256];
      std::snprintf(line, sizeof line, "%-20s %s\n", preset.name.c_str(),
                    preset.description.c_str());
      std::cout << line;
    }
    return Ok;
  }
  if (options.show && options.show->parsed()) {
    const TopologyReadResult loaded =
        loadTopology(options.spec, {options.bandwidth, options.latency});
    printDiagnostics(std::cerr, options.spec, loaded.diagnostics);
    if (!loaded.topology)
      return UsageError;
    if (options.json)
      std::cout << writeTopologyJson(*loaded.topology);
    else if (options.dot)
      std::cout << writeTopologyDot(*loaded.topology);
    else
      printTopology(*loaded.topology);
    return Ok;
  }
  if (options.import && options.import->parsed()) {
    const TopologyReadResult loaded = loadTopology(options.importFile);
    printDiagnostics(std::cerr, options.importFile, loaded.diagnostics);
    if (!loaded.topology)
      return UsageError;
    std::ofstream out(options.output, std::ios::binary);
    out << writeTopologyJson(*loaded.topology);
    if (!out) {
      std::cerr << "cstudio topology import: cannot write " << options.output << '\n';
      return UsageError;
    }
    std::cout << options.output << ": " << loaded.topology->nodes.size() << " nodes, "
              << loaded.topology->links.size() << " links, " << loaded.topology->rankCount()
              << " ranks\n";
    return Ok;
  }
  std::cerr << "cstudio topology: give --list, show or import (see --help)\n";
  return UsageError;
}

} // namespace

Runner addTopologyCommand(CLI::App& app)
{
  auto options = std::make_shared<TopologyOptions>();
  CLI::App* command =
      app.add_subcommand("topology", "List topology presets, show a topology as text, JSON or "
                                     "Graphviz DOT, import NCCL or nvidia-smi topologies");
  command->add_flag("--list", options->list, "List the presets");
  command->require_subcommand(0, 1);

  options->show = command->add_subcommand("show", "Print a preset or topology file");
  options->show->add_option("topology", options->spec, "Preset name or topology file")->required();
  auto* json = options->show->add_flag("--json", options->json, "Print the topology JSON");
  options->show->add_flag("--dot", options->dot, "Print Graphviz DOT")->excludes(json);
  options->show
      ->add_option("--bandwidth", options->bandwidth, "GB/s per direction for parametric presets")
      ->check(CLI::PositiveNumber);
  options->show->add_option("--latency", options->latency, "µs per link for parametric presets")
      ->check(CLI::NonNegativeNumber);

  options->import = command->add_subcommand(
      "import", "Convert an NCCL topology dump (NCCL_TOPO_DUMP_FILE) or `nvidia-smi topo -m` "
                "output to topology JSON");
  options->import->add_option("file", options->importFile, "nccl.xml or topo.txt")->required();
  options->import->add_option("-o,--output", options->output, "Topology JSON to write")->required();
  return [options] { return runTopology(*options); };
}

} // namespace cs::cli
