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

/// {"file","name","collective","ngpus","protocol",…,"ranks":[…],"accepted_by":{DIALECT: loads},
/// "runtimes":{DIALECT: {"loads","selected_sizes":[lo,hi]|null,"modes":[…],"reasons":[…]}},
/// "gpu","read_diagnostics":[…]}; print it with jsonText(), which replaces bytes that are not
/// UTF-8. A read error means no runtime loads the file; residency is judged on `gpu`
/// (CheckOptions::gpu).
nlohmann::json infoJson(const std::string& file, const Program& program,
                        const std::vector<Diagnostic>& readDiagnostics,
                        std::optional<GpuModelId> gpu = std::nullopt);

/// The same summary as aligned text, ending with each runtime's verdict (on `gpu`) and the
/// reader's diagnostics; the file's own text is made printable first.
void printInfo(std::ostream& out, const std::string& file, const Program& program,
               const std::vector<Diagnostic>& readDiagnostics,
               std::optional<GpuModelId> gpu = std::nullopt);

} // namespace cs::cli
