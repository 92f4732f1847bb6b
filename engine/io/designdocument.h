#pragma once

// The design document: a whole design as one versioned JSON file (`.json` beside MSCCL XML):
// the Schedule, optionally the Topology it was drawn for (io/topologyjson.h format) and the GPU
// model it is for, and notes.
// Reading a document written by an older version upgrades it; a newer version gives a clear
// message naming both versions instead of guessing.

#include "../model/gpumodel.h"
#include "../model/schedule.h"
#include "../model/topology.h"
#include "model/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// The version this build writes; readDesignDocument accepts 1 .. kDesignDocumentVersion.
inline constexpr int kDesignDocumentVersion = 1;

struct DesignDocument {
  Schedule schedule;
  std::optional<Topology> topology;
  std::string notes;
  /// The GPU the design is for ("gpu": a gpumodel.h key; optional, documents without it load
  /// as "none chosen"). The checks judge threadblock residency for it.
  std::optional<GpuModelId> gpu;

  bool operator==(const DesignDocument&) const = default;
};

struct DesignReadResult {
  std::optional<DesignDocument> document;
  std::vector<Diagnostic> diagnostics; ///< design.* codes; messages name the JSON path
};

/// Pretty-printed JSON with "format": "collective-studio-design" and "version".
std::string writeDesignDocument(const DesignDocument& document);
DesignReadResult readDesignDocument(std::string_view text);
/// Reads the file at `path`; a file that cannot be read gives a design.io error.
DesignReadResult readDesignDocumentFile(const std::string& path);

} // namespace cs
