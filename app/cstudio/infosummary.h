#pragma once

// What `cstudio info` says about a Program, as JSON for pipelines and as text for people. Kept
// apart from the command so that the fuzz target (tests/fuzz) renders any file's summary too:
// names and spellings come straight from the file and may hold any bytes.

#include "model/diagnostic.h"
#include "model/gpumodel.h"
#include "model/program.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cs::cli {

/// {"file","name","collective","ngpus","protocol",…,"ranks":[…],"accepted_by":{…},
/// "gpu","read_diagnostics":[…]}; print it with jsonText(), which replaces bytes that are not
/// UTF-8. "accepted_by" includes residency on `gpu` (CheckOptions::gpu).
nlohmann::json infoJson(const std::string& file, const Program& program,
                        const std::vector<Diagnostic>& readDiagnostics,
                        std::optional<GpuModelId> gpu = std::nullopt);

/// The same summary as aligned text; the file's own text is made printable first.
void printInfo(std::ostream& out, const std::string& file, const Program& program,
               std::optional<GpuModelId> gpu = std::nullopt);

} // namespace cs::cli
