// The Graphviz layout (libgvc + libcgraph): the only file of the editor that includes gvc.h
// (STYLE.md 9). Compiled only when the build found Graphviz (editor/topology/sources.cmake).
//
// Node sizes go to Graphviz in inches at 72 points per inch and come back in points, so one
// point is one scene unit and the fixed-size boxes Graphviz keeps apart are exactly our glyphs.

#include "layouttiers.h"
#include "topologylayout.h"

#include <gvc.h>

#include <QCoreApplication>

#include <string>

namespace cs::editor {

namespace {

constexpr double kPointsPerInch = 72;

/// cgraph takes `char*` for names and values it copies; the casts never let it write ours.
void set(void* object, const char* name, const std::string& value)
{
  agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()),
            const_cast<char*>(""));
}

std::string inches(double points)
{
  return std::to_string(points / kPointsPerInch);
}

/// The process's one Graphviz context. gvContext() leaks its plugin configuration even after
/// gvFreeContext (libgvc 2.42), so a context per layout would leak on every Auto layout; one kept
/// for the process costs that once. Layouts run on the GUI thread only.
GVC_t* sharedContext()
{
  static GVC_t* const context = gvContext();
  return context;
}

/// Owns one Graphviz graph and its layout, so every return path frees them.
class GraphvizSession
{
public:
  GraphvizSession() : m_context(sharedContext()) {}
  ~GraphvizSession()
  {
    if (m_graph) {
      if (m_laidOut)
        gvFreeLayout(m_context, m_graph);
      agclose(m_graph);
    }
  }
  GraphvizSession(const GraphvizSession&) = delete;
  GraphvizSession& operator=(const GraphvizSession&) = delete;

  Agraph_t* open()
  {
    m_graph = agopen(const_cast<char*>("topology"), Agdirected, nullptr);
    return m_graph;
  }
  bool layout(const char* engine)
  {
    m_laidOut = gvLayout(m_context, m_graph, engine) == 0;
    return m_laidOut;
  }

private:
  GVC_t* m_context;
  Agraph_t* m_graph = nullptr;
  bool m_laidOut = false;
};

class GraphvizLayout : public TopologyLayout
{
public:
  QString name() const override { return QStringLiteral("Graphviz"); }

  std::optional<NodePositions> layout(const Topology& topology, const NodeSizeFunction& size,
                                      QString* error) const override
  {
    if (topology.nodes.empty())
      return NodePositions{};
    // Warnings (e.g. about overlap removal) would only clutter the terminal.
    agseterr(AGERR);
    GraphvizSession session;
    Agraph_t* graph = session.open();
    if (!graph)
      return fail(error, "cannot create a graph");

    // dot draws trees (GPUs over their switches) best; a mesh of GPU-to-GPU links drawn with
    // straight lines needs neato, which spreads the GPUs out so no link runs through a GPU.
    bool gpusOnly = true;
    for (const TopologyNode& node : topology.nodes)
      gpusOnly = gpusOnly && node.kind == NodeKind::Gpu;
    const bool hierarchical = !gpusOnly && !hasGpuToGpuLinks(topology);
    if (hierarchical) {
      set(graph, "rankdir", "TB");
      set(graph, "nodesep", "0.45");
      set(graph, "ranksep", "1.1");
    } else {
      set(graph, "overlap", "false");
      set(graph, "sep", "+18");
      set(graph, "start", "1"); // a fixed seed: the same topology lays out the same way
    }
    set(graph, "splines", "false");

    std::map<int, Agnode_t*> nodes;
    for (const TopologyNode& node : topology.nodes) {
      const QSizeF box = size(node.kind);
      std::string name = "n" + std::to_string(node.id);
      Agnode_t* item = agnode(graph, name.data(), 1);
      set(item, "shape", "box");
      set(item, "fixedsize", "true");
      set(item, "label", "");
      set(item, "width", inches(box.width()));
      set(item, "height", inches(box.height()));
      nodes[node.id] = item;
    }
    const std::map<int, int> tiers = layoutTiers(topology);
    for (const TopologyLink& link : topology.links) {
      if (!nodes.contains(link.a) || !nodes.contains(link.b) || link.a == link.b)
        continue;
      // dot ranks edges tail above head: point every edge away from the GPUs' tier ordering.
      const bool forward = tiers.at(link.a) <= tiers.at(link.b);
      Agedge_t* edge = agedge(graph, nodes[forward ? link.a : link.b],
                              nodes[forward ? link.b : link.a], nullptr, 1);
      if (hierarchical && tiers.at(link.a) == tiers.at(link.b))
        set(edge, "constraint", "false");
      if (!hierarchical)
        set(edge, "len", "2.1");
    }

    if (!session.layout(hierarchical ? "dot" : "neato"))
      return fail(error, "Graphviz could not lay out the topology");
    NodePositions positions;
    for (const auto& [id, item] : nodes) {
      const pointf centre = ND_coord(item);
      // Graphviz's y axis points up, the scene's down.
      positions[id] = QPointF(centre.x, -centre.y);
    }
    return positions;
  }

private:
  static std::optional<NodePositions> fail(QString* error, const char* message)
  {
    if (error)
      *error = QCoreApplication::translate("cs::editor::TopologyLayout", message);
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<TopologyLayout> makeGraphvizLayout()
{
  return std::make_unique<GraphvizLayout>();
}

QString graphvizVersion()
{
  const char* version = gvcVersion(sharedContext());
  return version ? QString::fromUtf8(version) : QString();
}

} // namespace cs::editor
