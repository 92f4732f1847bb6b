#pragma once

// The backends the Run panel offers: the simulator, always there, then the executors of the
// registry (engine/exec/executor.h), each with why it cannot run here when it cannot ("GPU module
// not installed", "no GPU visible", "NCCL needs 8 GPUs, 1 found").

#include <QString>

#include <vector>

namespace cs::visualizer {

/// The simulator's id among the choices (the executors use their registry names).
inline constexpr const char* kSimulateBackend = "simulate";

struct RunBackendChoice {
  QString id;    ///< "simulate", "cpu", "cuda", "nccl"
  QString label; ///< "Simulate", "CPU", …
  bool available = false;
  QString reason; ///< why it is unavailable, for people
};

/// Every choice in the panel's order, judged for a program of `ranks` ranks.
std::vector<RunBackendChoice> runBackendChoices(int ranks);

} // namespace cs::visualizer
