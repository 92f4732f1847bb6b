#include "dotwriter.h"

#include <cstdio>

namespace cs {

namespace {

/// A DOT double-quoted string.
std::string quoted(const std::string& text)
{
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double value)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

const char* shape(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return "box";
  case NodeKind::NvSwitch:
    return "hexagon";
  case NodeKind::PcieSwitch:
    return "diamond";
  case NodeKind::Nic:
    return "ellipse";
  case NodeKind::Cpu:
    return "octagon";
  case NodeKind::NetworkSwitch:
    return "trapezium";
  }
  return "box";
}

} // namespace

std::string writeTopologyDot(const Topology& topology)
{
  std::string out = "graph " + quoted(topology.name.empty() ? "topology" : topology.name) + " {\n";
  if (!topology.description.empty())
    out += "  label=" + quoted(topology.description) + ";\n";
  out += "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (const TopologyNode& node : topology.nodes) {
    std::string label = node.name;
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      label += "\nrank " + std::to_string(node.rank);
    // Graphviz points have y growing upwards; the canvas has it growing downwards.
    out += "  n" + std::to_string(node.id) + " [label=" + quoted(label) +
           ", shape=" + shape(node.kind) + ", pos=\"" + number(node.x) + "," + number(-node.y) +
           "!\"];\n";
  }
  for (const TopologyLink& link : topology.links) {
    out +=
        "  n" + std::to_string(link.a) + " -- n" + std::to_string(link.b) + " [label=" +
        quoted(std::string(linkKindName(link.kind)) + " " + number(link.bandwidthGBps) + " GB/s") +
        ", id=" + quoted("link" + std::to_string(link.id)) + (link.duplex ? "" : ", style=dashed") +
        "];\n";
  }
  return out + "}\n";
}

} // namespace cs
