#pragma once

// JSON form of a Topology, for topology files (`--topology my.json`), the design document (which
// embeds one) and the SQLite library. Text in, text out: no JSON library type appears here, so
// any part of the program can use it without depending on one.
//
// Format (version 1):
//   {"format": "collective-studio-topology", "version": 1, "name": "...", "description": "...",
//    "nodes": [{"id": 0, "kind": "gpu", "name": "GPU0", "rank": 0, "x": 0, "y": 0}, ...],
//    "links": [{"id": 0, "a": 0, "b": 8, "kind": "nvlink", "bandwidth_GBps": 450,
//               "latency_us": 0.7, "duplex": true}, ...]}

#include "../model/topology.h"
#include "model/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>

namespace cs {

struct TopologyReadResult {
  std::optional<Topology> topology;    ///< absent when the text is not a usable topology
  std::vector<Diagnostic> diagnostics; ///< topology.* codes, with the JSON path in the message
};

/// Pretty-printed JSON (two-space indent), stable key order, ending with a newline.
std::string writeTopologyJson(const Topology& topology);
/// Parses and validates: unknown kinds, links to missing nodes, duplicate ids, duplicate ranks,
/// non-positive bandwidth or negative latency are errors; a newer `version` is an error that
/// says which version this program reads.
TopologyReadResult readTopologyJson(std::string_view text);

} // namespace cs
