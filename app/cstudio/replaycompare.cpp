#include "replaycompare.h"

#include "calibrationinput.h"
#include "commands.h"
#include "output.h"

#include "exec/plan/executorcosts.h"
#include "replay/comparison.h"
#include "replay/designedrun.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace cs::cli {

namespace {

nlohmann::json timeJson(const replay::ComparedTime& time)
{
  return {{"us", time.us},
          {"normalised", time.normalised},
          {"delta_us", time.deltaUs},
          {"delta_normalised", time.deltaNormalised}};
}

std::string linkName(const Topology* topology, int id)
{
  const TopologyLink* link = topology ? topology->link(id) : nullptr;
  const TopologyNode* a = link ? topology->node(link->a) : nullptr;
  const TopologyNode* b = link ? topology->node(link->b) : nullptr;
  std::string name = "link " + std::to_string(id);
  if (a && b)
    name += " " + a->name + " - " + b->name;
  return name;
}

/// One row: the name, both runs in µs and in % of their totals, the loss in µs and points.
void printRow(const std::string& name, const replay::ComparedTime& time)
{
  std::printf("  %-28s %12.3f %12.3f %7.1f%% %7.1f%% %+12.3f %+7.1f\n", name.c_str(), time.us[0],
              time.us[1], 100 * time.normalised[0], 100 * time.normalised[1], time.deltaUs,
              100 * time.deltaNormalised);
}

void printTable(const replay::Comparison& comparison, const Topology* topology)
{
  std::printf("first run %.3f us, second run %.3f us; deltas are second minus first, the "
              "largest loss first\n",
              comparison.totalUs[0], comparison.totalUs[1]);
  std::printf("  %-28s %12s %12s %8s %8s %12s %7s\n", "step", "first us", "second us", "first",
              "second", "delta us", "points");
  for (const replay::StepComparison& step : comparison.steps)
    printRow("step " + std::to_string(step.position), step.time);
  if (comparison.links.empty())
    return;
  std::printf("  %-28s %12s %12s %8s %8s %12s %7s\n", "link (busy)", "first us", "second us",
              "first", "second", "delta us", "points");
  for (const replay::LinkComparison& link : comparison.links)
    printRow(linkName(topology, link.link), link.busy);
}

} // namespace

std::optional<replay::ReplayIndex> designedIndex(const Program& program, const Topology* topology,
                                                 std::int64_t bytes, const std::string& calibration,
                                                 const std::string& library)
{
  const char* command = "cstudio replay";
  if (!topology) {
    std::cerr << command
              << ": --calibration needs a topology to simulate on (--topology, or a "
                 "design document that embeds one)\n";
    return std::nullopt;
  }
  const std::optional<Calibration> fit = loadCalibration(calibration, library, command);
  if (!fit)
    return std::nullopt;
  replay::DesignedRun designed = replay::simulateDesigned(
      program, *topology, &*fit, bytes, plan::calibratedExecutorCosts(&*fit, program, bytes));
  if (!designed.trace) {
    std::cerr << command << ": --calibration " << calibration << ": " << designed.error << '\n';
    return std::nullopt;
  }
  replay::ReplayBuild built =
      replay::ReplayIndex::build(program, std::move(*designed.trace), topology);
  if (!built.index)
    printDiagnostics(std::cerr, "the designed run", built.diagnostics);
  return std::move(built.index);
}

int printComparison(const replay::ReplayIndex& first, const replay::ReplayIndex& second,
                    const Topology* topology, bool json)
{
  const replay::Comparison comparison = replay::compareRuns(first, second);
  if (!json) {
    printTable(comparison, topology);
    return Ok;
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const replay::StepComparison& step : comparison.steps)
    steps.push_back(
        {{"position", step.position}, {"start_us", step.startUs}, {"time", timeJson(step.time)}});
  nlohmann::json links = nlohmann::json::array();
  for (const replay::LinkComparison& link : comparison.links) {
    links.push_back({{"link", link.link},
                     {"name", linkName(topology, link.link)},
                     {"bytes", link.bytes},
                     {"busy", timeJson(link.busy)}});
  }
  const nlohmann::json out = {{"total_us", comparison.totalUs},
                              {"first", first.trace().source},
                              {"second", second.trace().source},
                              {"steps", std::move(steps)},
                              {"links", std::move(links)}};
  std::cout << jsonText(out, 2) << '\n';
  return Ok;
}

} // namespace cs::cli
