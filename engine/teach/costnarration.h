#pragma once

// The cost beside a narration (issue 19): the catalogue algorithm's alpha-beta formula with the
// topology's α and β filled in, the simulated time on that topology (engine/sim), and the bus
// bandwidth derivation as nccl-tests defines it, all written out as sentences with numbers.
//
// α and β are the ones NCCL's own ring estimate uses (sim/estimates.h): α the largest latency
// between ring neighbours (ranks in order) plus the protocol's per-message latency, β the
// smallest route bandwidth among them times the protocol's efficiency, i.e. the slowest link of
// the ring the formula assumes. A Schedule that is no catalogue algorithm has no formula: the
// narration says so and still gives the simulated time and busbw.

#include "catalogue/catalogue.h"
#include "model/diagnostic.h"
#include "model/program.h"
#include "model/topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs {

/// What the cost is computed for.
struct CostQuestion {
  const Program* program = nullptr;         ///< what is simulated (required)
  const Topology* topology = nullptr;       ///< where (required)
  std::int64_t bytes = 1 << 20;             ///< the collective's size as nccl-tests counts it
  const AlgorithmInfo* algorithm = nullptr; ///< the catalogue entry, when known
  GeneratorOptions options;                 ///< the options it was generated with
};

/// The figures and the sentences that derive them; absent figures could not be computed.
struct CostNarration {
  std::string algorithmKey; ///< empty when not a catalogue algorithm
  std::string formula;      ///< the catalogue's cost formula, or empty
  std::optional<double> alphaUs;
  std::optional<double> betaGBps;
  std::optional<double> formulaUs; ///< the formula evaluated with α, β, n and S
  std::optional<double> simulatedUs;
  std::optional<double> algbwGBps;
  std::optional<double> busbwGBps;
  double busFactor = 1;
  std::string busFactorFormula; ///< "2(n-1)/n", "(n-1)/n" or "1"
  std::int64_t bytes = 0;
  std::vector<std::string> sentences;
  std::vector<Diagnostic> diagnostics; ///< the simulator's findings when it could not finish
};

/// Computes and narrates the cost. Never throws; a simulation that fails is reported in a
/// sentence and its diagnostics.
CostNarration narrateCost(const CostQuestion& question);

/// The catalogue algorithm that generates exactly `schedule` (names aside) at its rank count
/// with one channel and the default group size, with the options into `options`; nullptr when
/// none does (imported, hand-drawn or edited Schedules).
const AlgorithmInfo* catalogueOrigin(const Schedule& schedule, GeneratorOptions& options);

/// nccl-tests' bus bandwidth factor as a formula in n: "2(n-1)/n", "(n-1)/n" or "1".
std::string busFactorFormula(Collective collective);

} // namespace cs
