// The examples a new library starts with. They come from the program's own generators (the
// classic-algorithm catalogue), so they are correct by construction and need no data files.

#include "libraryimpl_p.h"

#include "catalogue/catalogue.h"
#include "compile/lower.h"
#include "io/designdocument.h"
#include "io/mscclxmlwriter.h"
#include "model/topologypresets.h"

#include <algorithm>

namespace cs::storage {

namespace {

/// The sizes the examples are generated at: 8 ranks (two nodes of 4 for the hierarchical
/// algorithms, a 2 × 4 torus) shows every algorithm's structure and stays small; the 4-rank ring
/// is the first thing people open.
struct ExampleSize {
  std::string_view key; ///< empty: every algorithm
  int ranks;
};
constexpr ExampleSize kExampleSizes[] = {{"ring-allreduce", 4}, {"", 8}};

std::optional<SaveRequest> exampleRequest(const AlgorithmInfo& info, int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  if (info.key.starts_with("hierarchical"))
    options.groupSize = 4;
  GenerateResult generated = generateAlgorithm(info.key, options);
  if (!generated.schedule)
    return std::nullopt;
  const LowerResult lowered = lowerSchedule(*generated.schedule, {});
  const bool lowerFailed =
      !lowered.program ||
      std::any_of(lowered.diagnostics.begin(), lowered.diagnostics.end(),
                  [](const Diagnostic& d) { return d.severity == Severity::Error; });
  if (lowerFailed)
    return std::nullopt;

  DesignDocument document;
  document.schedule = *generated.schedule;
  document.topology = makePresetTopology(exampleTopologyPreset(info.key, ranks));
  document.notes = std::string(info.explanation);

  SaveRequest request;
  request.name = generated.schedule->name; // one name: the library's is the algorithm's
  request.provenance = Provenance::Generated;
  request.tags = std::vector<std::string>{"example", "classic", std::string(info.key)};
  request.notes = std::string(info.title) + " on " + std::to_string(ranks) + " ranks. " +
                  std::string(info.explanation) + " Cost: " + std::string(info.costFormula);
  request.message = "shipped example";
  request.content.xml = writeMscclXml(*lowered.program, {}).text;
  request.content.designJson = writeDesignDocument(document);
  request.schedule = std::move(*generated.schedule);
  return request;
}

} // namespace

std::string exampleTopologyPreset(std::string_view key, int ranks)
{
  if (key.starts_with("ring-"))
    return "ring-" + std::to_string(ranks);
  return ranks == 8 ? "dgx-h100" : "fully-connected-" + std::to_string(ranks);
}

std::vector<SaveRequest> exampleRequests()
{
  std::vector<SaveRequest> requests;
  for (const ExampleSize& size : kExampleSizes) {
    for (const AlgorithmInfo& info : algorithmCatalog()) {
      if (!size.key.empty() && info.key != size.key)
        continue;
      if (std::optional<SaveRequest> request = exampleRequest(info, size.ranks))
        requests.push_back(std::move(*request));
    }
  }
  return requests;
}

// Saving is idempotent (identical content is not stored again), so existing libraries can call
// this again to gain the examples of newer versions of the program.
Status Library::seedExamples()
{
  Result<std::vector<SaveOutcome>> saved = saveAll(exampleRequests());
  if (!saved)
    return saved.error();
  return {};
}

} // namespace cs::storage
