#include "designedrun.h"

#include "sim/simulator.h"

#include <utility>

namespace cs::replay {

DesignedRun simulateDesigned(const Program& program, Topology topology,
                             const Calibration* calibration, std::int64_t bytes,
                             ExecutorCosts executor)
{
  DesignedRun designed;
  SimOptions options;
  options.bytes = bytes;
  options.executor = std::move(executor);
  options.recordUtilisation = false;
  if (calibration) {
    if (const std::optional<std::string> error =
            applyCalibration(*calibration, topology, options, program.proto)) {
      designed.error = *error;
      return designed;
    }
  }
  SimResult result = simulateProgram(program, topology, options);
  if (!result.ok) {
    for (const Diagnostic& diagnostic : result.diagnostics) {
      if (diagnostic.severity == Severity::Error) {
        designed.error = diagnostic.code + ": " + diagnostic.message;
        break;
      }
    }
    return designed;
  }
  if (calibration)
    result.trace.device += " (calibrated: " + calibration->backend + ", " + calibration->date + ")";
  designed.trace = std::move(result.trace);
  return designed;
}

} // namespace cs::replay
