#include "catalogue.h"
#include "families_p.h"

#include <algorithm>

namespace cs {

namespace {

constexpr int kMaxRanks = 1024;
constexpr int kMaxChannels = 32;

std::vector<AlgorithmInfo> buildCatalog()
{
  std::vector<AlgorithmInfo> all;
  for (const auto family : {catalogue::ringAlgorithms, catalogue::halvingDoublingAlgorithms,
                            catalogue::treeAlgorithms, catalogue::hierarchicalAlgorithms,
                            catalogue::allToAllAlgorithms, catalogue::bruckAlgorithms}) {
    const std::span<const AlgorithmInfo> entries = family();
    all.insert(all.end(), entries.begin(), entries.end());
  }
  return all;
}

} // namespace

std::span<const AlgorithmInfo> algorithmCatalog()
{
  static const std::vector<AlgorithmInfo> catalog = buildCatalog();
  return catalog;
}

const AlgorithmInfo* findAlgorithm(std::string_view key)
{
  const std::span<const AlgorithmInfo> catalog = algorithmCatalog();
  const auto found = std::find_if(catalog.begin(), catalog.end(),
                                  [key](const AlgorithmInfo& a) { return a.key == key; });
  return found == catalog.end() ? nullptr : &*found;
}

GenerateResult generateAlgorithm(std::string_view key, const GeneratorOptions& options)
{
  GenerateResult result;
  auto fail = [&result](const std::string& code, const std::string& message) {
    Diagnostic d;
    d.code = code;
    d.message = message;
    result.diagnostics.push_back(std::move(d));
    return result;
  };
  const AlgorithmInfo* info = findAlgorithm(key);
  if (!info)
    return fail("catalogue.unknown", "no algorithm is called \"" + std::string(key) + "\"");
  // Bounds that keep every generator's output (up to n² chunks for all-to-all) reasonable.
  if (options.ranks > kMaxRanks)
    return fail("catalogue.unsupported", std::string(info->key) + " is generated for at most " +
                                             std::to_string(kMaxRanks) + " ranks");
  if (options.channels < 1 || options.channels > kMaxChannels)
    return fail("catalogue.unsupported", "channels must be 1.." + std::to_string(kMaxChannels) +
                                             " (got " + std::to_string(options.channels) + ")");
  if (options.groupSize < 0)
    return fail("catalogue.unsupported", "the group size must not be negative");
  if (const std::optional<std::string> reason = info->unsupported(options))
    return fail("catalogue.unsupported", std::string(info->key) + " " + *reason);
  result.schedule = info->generate(options);
  result.schedule->name = algorithmName(info->key, options);
  return result;
}

std::string algorithmName(std::string_view key, const GeneratorOptions& options)
{
  std::string name = std::string(key) + "-" + std::to_string(options.ranks);
  if (options.channels > 1)
    name += "-" + std::to_string(options.channels) + "ch";
  return name;
}

} // namespace cs
