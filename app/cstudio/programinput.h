#pragma once

// The FILE argument of commands that work on a Program (info, export, simulate, run): MSCCL XML
// is read as it is; a design document (.json) is read and its Schedule lowered with
// --proto/--instances, as the editor and `cstudio validate` lower it (engine/analysis).
// One place, so every command accepts both levels the same way.

#include "commands.h"

#include "compile/lower.h"
#include "model/dialect.h"
#include "model/gpumodel.h"
#include "model/program.h"
#include "model/topology.h"

#include <optional>
#include <string>
#include <vector>

namespace cs::cli {

/// How a design document is lowered when a command is given one.
struct LoweringChoice {
  std::string protocol = "Simple";
  int instances = 1;
  std::string gpu; ///< --gpu: a GPU model key (model/gpumodel.h), or empty for none chosen
};

/// Adds --proto and --instances to `command`, documented as applying to design documents.
void addLoweringOptions(CLI::App* command, LoweringChoice& choice);

/// Adds --gpu to `command`: the GPU model whose residency limit the checks apply (validated
/// against the known models).
void addGpuOption(CLI::App* command, std::string& gpu);

/// The model `key` names; none for an empty key.
std::optional<GpuModelId> chosenGpu(const std::string& key);

/// The lowering of a design document: `choice` for `dialectKey` ("executor" when empty).
LowerOptions loweringOptions(const LoweringChoice& choice, const std::string& dialectKey = {});

/// Whether `path` names a design document rather than MSCCL XML.
bool isDesignPath(const std::string& path);

struct ProgramInput {
  std::optional<Program> program;           ///< absent: the reason is printed on stderr (exit 2)
  std::optional<Topology> embeddedTopology; ///< the topology a design document carries
  std::vector<Diagnostic> diagnostics;      ///< reading (and lowering) findings, all printed
  std::optional<GpuModelId> gpu;            ///< --gpu, else the design document's own GPU model
};

/// Reads `path` for `purpose` ("exporting", "simulating"), lowering a design document for
/// `dialect`. Prints the diagnostics and why nothing can be done when the input is unusable.
ProgramInput readProgramInput(const std::string& path, DialectId dialect,
                              const LoweringChoice& lowering, const std::string& purpose);

/// The topology a --topology option names (a preset or a file) into `topology`; an empty `spec`
/// leaves it as it is. False, with the reason printed on stderr, when it cannot be loaded.
bool loadTopologyOption(const std::string& spec, std::optional<Topology>& topology);

} // namespace cs::cli
