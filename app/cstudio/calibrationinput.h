#pragma once

// Calibrations on the command line (engine/sim/calibration.h): read one from a JSON file or by
// name from the library (`cstudio simulate --calibration NAME|FILE`), and store one under a name
// (`cstudio calibrate --save NAME`). Problems are printed prefixed by the command's name.

#include "sim/calibration.h"

#include <optional>
#include <string>

namespace cs::cli {

/// `nameOrFile` is a file when one exists at that path (or it ends in .json), else a calibration
/// name in the library at `libraryPath` (empty: the default library). nullopt after printing what
/// is wrong and where.
std::optional<Calibration> loadCalibration(const std::string& nameOrFile,
                                           const std::string& libraryPath,
                                           const std::string& command);

/// Stores `calibration` as `name`; false after printing why not.
bool saveCalibration(const Calibration& calibration, const std::string& name,
                     const std::string& libraryPath, const std::string& command);

} // namespace cs::cli
