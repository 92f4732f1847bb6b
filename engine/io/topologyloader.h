#pragma once

// One way in for every topology the command line and the editor accept: a preset name
// ("dgx-h100", "ring-8"), a topology JSON file, an NCCL topology dump (XML) or the text of
// `nvidia-smi topo -m`. Files are recognised by their content, not their extension.

#include "model/topologypresets.h"
#include "topologyjson.h"

#include <string>
#include <string_view>

namespace cs {

/// What a text holds.
enum class TopologyTextKind { Json, NcclXml, NvidiaSmi };

/// Guesses the format of `text`: '{' → JSON, '<' → NCCL XML, anything else → nvidia-smi.
TopologyTextKind detectTopologyText(std::string_view text);

/// Parses `text` in the format detectTopologyText finds.
TopologyReadResult readTopologyText(std::string_view text);

/// A preset when `spec` names one, else the file at path `spec`. An unreadable file or an unknown
/// name gives a topology.load error naming it.
TopologyReadResult loadTopology(const std::string& spec, const PresetOptions& options = {});

} // namespace cs
