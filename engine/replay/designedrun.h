#pragma once

// The "designed" side of designed vs measured (comparison.h): the simulation of the program that
// ran, on the topology it ran on, at the measured run's size; with a calibration
// (sim/calibration.h) it is the calibrated simulation, so that the comparison shows where the
// run departs from the fitted model rather than from the preset's nominal figures.

#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"
#include "sim/calibration.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::replay {

struct DesignedRun {
  std::optional<Trace> trace; ///< the simulated run, events recorded
  std::string error;          ///< why there is none: the calibration or the simulation refused
};

/// Simulates `program` on `topology` at `bytes` (a measured trace's Trace::bytes), with
/// `calibration` applied when given (null: the topology's own figures) and, for a CPU
/// calibration, what the executor does beyond or short of the model (SimOptions::executor, from
/// plan::calibratedExecutorCosts(), which this layer cannot call itself).
DesignedRun simulateDesigned(const Program& program, Topology topology,
                             const Calibration* calibration, std::int64_t bytes,
                             ExecutorCosts executor = {});

} // namespace cs::replay
