#pragma once

// Graphviz DOT text of a Topology (`cstudio topology show … --dot`): an undirected graph with
// one node per topology node (GPUs labelled with their rank, shapes by kind, the canvas position
// as a pinned `pos` so `neato -n` draws it as the editor does) and one edge per link labelled
// with its kind and bandwidth; half-duplex links are dashed. Plain text: no libgvc needed.

#include "model/topology.h"

#include <string>

namespace cs {

/// The DOT text, ending with a newline.
std::string writeTopologyDot(const Topology& topology);

} // namespace cs
