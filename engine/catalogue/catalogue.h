#pragma once

// The classic-algorithm library (issue "schedules, compiler, library"): generators of Schedules
// for any rank count the algorithm allows, each with a one-paragraph explanation for teaching and
// its alpha-beta cost formula. The gallery, `cstudio generate` and the editor's "New from classic
// algorithm" all list algorithms through this one catalogue.

#include "../model/schedule.h"
#include "model/diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

struct GeneratorOptions {
  int ranks = 4;
  int channels = 1; ///< parallel copies of the pattern, each on its own channel and chunk range
  /// Ranks per node for the hierarchical algorithms (0: the generator's default); rows for the
  /// 2D mesh/torus (0: the most square factorisation).
  int groupSize = 0;
};

/// Alpha-beta model parameters: a message costs alphaUs + bytes / (betaGBps · 10^3) µs.
struct CostParameters {
  double alphaUs = 2;
  double betaGBps = 100;
};

/// One classic algorithm.
struct AlgorithmInfo {
  std::string_view key;   ///< command-line name: "ring-allreduce"
  std::string_view title; ///< "Ring all-reduce"
  Collective collective;
  std::string_view summary;     ///< one line for lists
  std::string_view explanation; ///< one paragraph for people learning it
  std::string_view costFormula; ///< e.g. "2(n-1)·α + 2(n-1)/n · S/β"
  /// Whether the algorithm exists for `options` (e.g. a power of two for halving-doubling);
  /// when not, the reason for a person.
  std::optional<std::string> (*unsupported)(const GeneratorOptions& options);
  /// Builds the Schedule. Called only when unsupported() returned nullopt.
  Schedule (*generate)(const GeneratorOptions& options);
  /// Predicted time in µs for `bytes` (the collective's size as nccl-tests counts it).
  double (*estimateUs)(const GeneratorOptions& options, std::int64_t bytes,
                       const CostParameters& cost);
};

/// Every algorithm, in the order lists show them.
std::span<const AlgorithmInfo> algorithmCatalog();
/// The algorithm with `key`, or nullptr.
const AlgorithmInfo* findAlgorithm(std::string_view key);

struct GenerateResult {
  std::optional<Schedule> schedule;
  std::vector<Diagnostic>
      diagnostics; ///< catalogue.unsupported with the reason when it does not exist
};
/// Checks the options and generates. The Schedule is named algorithmName(key, options).
GenerateResult generateAlgorithm(std::string_view key, const GeneratorOptions& options);

/// The one name of a generated algorithm, in the Name field, the MSCCL XML's `name` (a label the
/// runtimes do not interpret; at most 63 characters for the classic runtime) and the library:
/// "ring-allreduce-4", with "-2ch" when it runs on several channels.
std::string algorithmName(std::string_view key, const GeneratorOptions& options);

} // namespace cs
